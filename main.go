// Command tesouro is a terminal dashboard for treasury operations on a
// conversion-and-payments service: price conversions, turn them into tickets
// before the quote dies, clear the multi-signature queue, and switch between
// sub-accounts while always knowing which one you act on.
//
// It also serves a strict emulator of the whole service (`tesouro sandbox`),
// which is the embedded default when no profile is configured, and has
// scripting commands (balances, tickets, quote, api, ...) for automation.
//
// Layout: api/ is the typed client of the service; sandbox/ the emulator;
// keystore/ profiles and OS-keyring secrets; ui/ the dashboard shell and its
// widgets; views/ one package per screen; cli/ the scripting commands;
// export/ the CSV exports; validate/, brcode/, money/ and journal/ are small
// domain packages. This file only builds the command tree and runs it; each
// of the commands defined here lives in a cmd_*.go file beside it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/keystore"
)

// Exit codes. A signal ends the process with 128 + its number (130 for
// SIGINT, 143 for SIGTERM), as shells report it.
const (
	exitOK      = 0
	exitRuntime = 1
	exitUsage   = 2
)

// app carries the process's streams, environment and global flags so that
// commands can be run from tests without touching the real ones.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	g      cli.Globals
}

// usagef makes a usage error (exit 2).
var usagef = cli.Usagef

func main() {
	c := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(c.run(os.Args[1:]))
}

// run parses args, runs the command and returns the exit code. SIGINT and
// SIGTERM cancel the command's context, so that it can stop cleanly
// (a sandbox closes, a watch ends), and then decide the exit code.
func (c *app) run(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var got atomic.Value
	go func() {
		select {
		case s := <-sigs:
			got.Store(s)
			cancel()
		case <-ctx.Done():
		}
	}()
	err := c.execute(ctx, args)
	if s, ok := got.Load().(syscall.Signal); ok {
		return 128 + int(s)
	}
	switch {
	case err == nil:
		return exitOK
	case cli.IsUsage(err):
		return exitUsage
	}
	return exitRuntime
}

// execute runs the command tree on args with fang's help, completions,
// man page and error styling.
func (c *app) execute(ctx context.Context, args []string) error {
	root := c.rootCommand()
	root.SetArgs(args)
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	return fang.Execute(ctx, root, fang.WithoutVersion(), fang.WithErrorHandler(c.printError))
}

// rootCommand builds the whole tree: the dashboard is the root itself.
func (c *app) rootCommand() *cobra.Command {
	root := c.dashboardCommand()
	pf := root.PersistentFlags()
	pf.StringVar(&c.g.Profile, "profile", "", "use profile NAME instead of the active one (or set TESOURO_PROFILE)")
	pf.StringVar(&c.g.SubAccount, "sub-account", "", "operate sub-account ID|NAME (default: the profile's, else the main account)")
	pf.BoolVar(&c.g.ReadOnly, "readonly", false, "no write action is possible (shown in the header)")
	pf.BoolVar(&c.g.Debug, "debug", false, "log every HTTP exchange, secrets redacted (dashboard: to a file in the state directory; commands: to stderr); also TESOURO_DEBUG=api")
	pf.BoolVar(&c.g.Sandbox, "sandbox", false, "use a fresh embedded sandbox")
	pf.StringVar(&c.g.As, "as", "", "demo access NAME for --sandbox or --credentials (default operator)")
	pf.StringVar(&c.g.Credentials, "credentials", "", "credentials FILE written by a running 'tesouro sandbox' (loopback only)")
	_ = root.RegisterFlagCompletionFunc("as", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return cli.DemoAccesses, cobra.ShellCompDirectiveNoFileComp
	})
	_ = root.RegisterFlagCompletionFunc("profile", c.completeProfiles)

	root.AddCommand(c.sandboxCommand(), c.profileCommand(), c.keygenCommand(), c.loginCommand(), c.versionCommand())
	root.AddCommand(cli.Commands(c.env())...)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cli.UsageError{Msg: err.Error()} })
	root.SetVersionTemplate("tesouro {{.Version}}\n")
	setVersion(root, versionLine())
	return root
}

// env is what the cli package's commands see of the process.
func (c *app) env() *cli.Env {
	return &cli.Env{Stdin: c.stdin, Stdout: c.stdout, Stderr: c.stderr, Getenv: c.getenv, G: &c.g,
		UserAgent: userAgent(), Secrets: func() keystore.Secrets { return openSecrets(c) }}
}

// setVersion gives every command --version: cobra only adds the flag to
// commands whose Version is set.
func setVersion(cmd *cobra.Command, v string) {
	cmd.Version = v
	for _, sub := range cmd.Commands() {
		setVersion(sub, v)
	}
}

// printError prints a command's error: styled at a terminal, one plain
// line otherwise (scripts grep it).
func (c *app) printError(w io.Writer, styles fang.Styles, err error) {
	if errors.Is(err, context.Canceled) {
		return // a signal: the exit code says it
	}
	if cli.IsTerminal(c.stderr) {
		fang.DefaultErrorHandler(w, styles, err)
		return
	}
	fmt.Fprintln(c.stderr, "tesouro:", err)
	if cli.IsUsage(err) {
		fmt.Fprintln(c.stderr, "Run 'tesouro help' or 'tesouro COMMAND --help' for usage.")
	}
}

// completeProfiles completes --profile with the configured profile names.
func (c *app) completeProfiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	_, cfg, err := c.loadConfig()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := make([]string, len(cfg.Profiles))
	for i, p := range cfg.Profiles {
		names[i] = p.Name
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// noArgs refuses positional arguments as a usage error naming them.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s: unexpected argument %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// flagChanged reports whether a flag was given on the command line.
func flagChanged(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}
