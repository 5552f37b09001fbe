// Command tesouro is a terminal dashboard for treasury operations on a
// conversion-and-payments service: price conversions, turn them into tickets
// before the quote dies, clear the multi-signature queue, and switch between
// sub-accounts while always knowing which one you act on.
//
// It also serves a strict emulator of the whole service (`tesouro sandbox`),
// which is the embedded default when no profile is configured.
//
// Layout: api/ is the typed client of the service; sandbox/ the emulator;
// keystore/ profiles and OS-keyring secrets; ui/ the dashboard shell and its
// widgets; views/ one package per screen; validate/, brcode/, money/ and
// journal/ are small domain packages. This file only parses the command line
// and dispatches; each subcommand lives in a cmd_*.go file beside it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// Exit codes.
const (
	exitOK      = 0
	exitRuntime = 1
	exitUsage   = 2
)

// cli carries the process's streams and environment so that commands can be
// run from tests without touching the real ones.
type cli struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// usageError is a mistake on the command line (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func main() {
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(c.run(os.Args[1:]))
}

// subcommands maps a first argument to its command.
var subcommands = map[string]func(c *cli, args []string) error{
	"sandbox": (*cli).runSandbox,
	"profile": (*cli).runProfile,
	"keygen":  (*cli).runKeygen,
	"login":   (*cli).runLogin,
}

func (c *cli) run(args []string) int {
	if len(args) > 0 {
		if cmd, ok := subcommands[args[0]]; ok {
			return c.exit(cmd(c, args[1:]))
		}
		switch args[0] {
		case "version", "--version", "-version":
			fmt.Fprintln(c.stdout, "tesouro", versionString())
			return exitOK
		case "help":
			// The dashboard's --help is the program's: it lists every command.
			_, _ = c.parseDashboardFlags([]string{"--help"})
			return exitOK
		}
	}
	return c.exit(c.runDashboard(args))
}

func (c *cli) exit(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, new(usageError)):
		fmt.Fprintln(c.stderr, "tesouro:", err)
		fmt.Fprintln(c.stderr, "Run 'tesouro --help' for usage.")
		return exitUsage
	default:
		fmt.Fprintln(c.stderr, "tesouro:", err)
		return exitRuntime
	}
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// flagSet is a flag.FlagSet whose errors are usage errors (exit 2) and
// whose --help prints the command's usage to stdout (exit 0).
type flagSet struct {
	*flag.FlagSet
	usage string
	out   io.Writer
}

// newFlagSet makes a flag set for a command; usage is its synopsis.
func (c *cli) newFlagSet(name, usage string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // printed by parse, on --help only
	return &flagSet{FlagSet: fs, usage: usage, out: c.stdout}
}

// parse parses args. On --help it prints the usage and returns
// flag.ErrHelp, which the caller returns as is (exit 0).
func (f *flagSet) parse(args []string) error {
	err := f.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(f.out, f.usage)
		f.SetOutput(f.out)
		f.PrintDefaults()
		f.SetOutput(io.Discard)
		return flag.ErrHelp
	}
	if err != nil {
		return usageError{err.Error()}
	}
	return nil
}
