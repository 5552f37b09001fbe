package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/ui"
)

// dashboardLong is the root command's help: the dashboard, and where the
// other commands are.
const dashboardLong = `Tesouro is a terminal dashboard for treasury operations: price a conversion,
turn it into a ticket before the quote dies, fund it and watch it complete;
clear the multi-signature queue; switch sub-accounts.

With no profile configured it starts the embedded sandbox (in-process,
loopback) so that a first run shows a working dashboard with demo data.
The dashboard needs a terminal; for scripts use the commands below with
--json, --jq or --format csv.`

func (c *app) dashboardCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "tesouro",
		Short: "A terminal treasury dashboard",
		Long:  dashboardLong,
		Example: `  tesouro                          # the dashboard on the active profile
  tesouro --sandbox --as approver1 # a fresh demo sandbox, as an approver
  tesouro balances --json          # scripting commands take --json, --jq, --format csv
  tesouro tickets export --status PAID`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q for \"tesouro\" (see tesouro help)", args[0])
			}
			return c.runDashboard(cmd.Context())
		},
	}
}

func (c *app) runDashboard(ctx context.Context) error {
	// Without a terminal Bubble Tea cannot read keys (stdin) and would pipe
	// escape codes into a file (stdout): refuse before anything starts.
	if !cli.IsTerminal(c.stdin) || !cli.IsTerminal(c.stdout) {
		return usagef("the dashboard needs a terminal; for scripts use \"tesouro tickets list\", \"tesouro balances\", \"tesouro quote\" or \"tesouro api\" with --json (see \"tesouro help\")")
	}
	if err := c.loadOverrides(); err != nil {
		return err
	}
	env := c.env()
	target, err := env.Resolve()
	if err != nil {
		return err
	}
	// A soft memory limit makes the runtime hand freed memory back sooner,
	// so a long session with 100,000 tickets loaded stays within its 150 MB
	// budget. GOMEMLIMIT, when set, wins.
	if c.getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(120 << 20)
	}
	stateDir, err := keystore.StateDir(c.getenv)
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	debugAPI := env.DebugAPI()
	logPath, closeLog, err := setupLog(debugAPI, stateDir)
	if err != nil {
		return err
	}
	defer closeLog()

	opts := dashboardOptions(target, debugAPI)
	opts.StateDir = stateDir
	opts.NoColor = c.getenv("NO_COLOR") != ""
	opts.Notify = c.notifyOptions()
	// The journal is opened before the first frame: a local file, and no
	// write action may happen without it.
	if j, err := journal.Open(stateDir); err != nil {
		fmt.Fprintf(c.stderr, "tesouro: warning: journal not available (%v); write actions will not be recorded locally\n", err)
	} else {
		opts.Journal = j
	}
	log.Printf("dashboard start: env=%s profile=%q embedded=%v readonly=%v sub-account=%q", opts.Env, opts.Profile, opts.Embedded, opts.ReadOnly, opts.SubAccount)

	root := ui.New(opts)
	prog := tea.NewProgram(root, tea.WithContext(ctx), tea.WithInput(c.stdin), tea.WithOutput(c.stdout))
	_, runErr := prog.Run()
	if err := root.Close(); err != nil {
		log.Printf("close: %v", err)
		fmt.Fprintln(c.stderr, "tesouro: warning:", err)
	}
	if runErr != nil {
		log.Printf("program: %v", runErr)
	}
	if logPath != "" {
		fmt.Fprintln(c.stderr, "tesouro: debug log written to", logPath)
	}
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) {
		return fmt.Errorf("terminal: %w", runErr)
	}
	return nil
}

// dashboardOptions turns the target into the dashboard's options. Only
// local files were read to decide it; the keyring and the network are
// touched in Connect, which the root runs in a command after the first frame.
func dashboardOptions(t *cli.Target, debugAPI bool) ui.Options {
	opts := ui.Options{
		ReadOnly:   t.ReadOnly,
		SubAccount: t.SubAccount,
		Profile:    t.Profile,
		Email:      t.Email,
		Label:      t.Label,
		DemoAccess: t.DemoAccess,
		Embedded:   t.Embedded,
		Funding:    t.Funding,
		Env:        ui.EnvSandbox,
	}
	if t.Production {
		opts.Env = ui.EnvProduction
	}
	clientOpts := []api.Option{api.WithUserAgent(userAgent())}
	if debugAPI {
		clientOpts = append(clientOpts, api.WithTrace(cli.NewTrace(log.Writer())))
	}
	opts.Connect = func(ctx context.Context) (*ui.Connection, error) {
		conn, err := t.Connect(ctx, clientOpts...)
		if err != nil {
			return nil, err
		}
		return &ui.Connection{Client: conn.Client, Email: conn.Email, Close: conn.Close, Screens: screens(conn.Client)}, nil
	}
	return opts
}

// setupLog sends the standard logger to a file in the state directory with
// --debug, and nowhere otherwise (stderr would draw over the dashboard).
func setupLog(debug bool, stateDir string) (path string, closeFn func(), err error) {
	if !debug {
		log.SetOutput(io.Discard)
		return "", func() {}, nil
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return "", nil, fmt.Errorf("--debug: create %s: %w", stateDir, err)
	}
	path = filepath.Join(stateDir, "debug.log")
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("--debug: open log file: %w", err)
	}
	log.SetOutput(fh)
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	log.Printf("---- tesouro %s started at %s", versionLine(), time.Now().Format(time.RFC3339))
	return path, func() { fh.Close(); log.SetOutput(io.Discard) }, nil
}

// notifyOptions are config.toml's [notifications] settings and the desktop
// notification the terminal takes. A config that cannot be read leaves
// them all on: with a profile, Resolve has already refused it.
func (c *app) notifyOptions() ui.NotifyOptions {
	n := ui.NotifyOptions{Protocol: ui.DesktopProtocol(c.getenv)}
	if _, cfg, err := c.loadConfig(); err == nil {
		n.NoToast = !cfg.Notifications.ToastOn()
		n.NoBell = !cfg.Notifications.BellOn()
		n.NoDesktop = !cfg.Notifications.DesktopOn()
	}
	return n
}
