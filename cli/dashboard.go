package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

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
--json, --jq or --format csv. They act through a profile (tesouro profile
add), --sandbox or --credentials FILE, never on demo data by default: with
no profile they exit 2.

Exit status: 0 when the command did what was asked; 1 for a runtime failure
(an error answer, the network, the keyring, a rule refusing a write, the
deadline); 2 for a usage mistake (an unknown command or flag, a bad value,
a missing argument, no profile, --readonly, no terminal); 130 and 143
after SIGINT and SIGTERM. tesouro man prints the manual.`

func newCmdDashboard(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "tesouro",
		Short: "A terminal treasury dashboard",
		Long:  dashboardLong,
		Example: `  # the dashboard on the active profile
  tesouro
  # a fresh demo sandbox, as an approver
  tesouro --sandbox --as approver1
  # scripting commands take --json, --jq, --format csv
  tesouro balances --json
  tesouro tickets export --status PAID`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return Usagef("unknown command %q for \"tesouro\" (see tesouro help)", args[0])
			}
			return f.runDashboard(cmd.Context())
		},
	}
}

func (f *Factory) runDashboard(ctx context.Context) error {
	// Without a terminal Bubble Tea cannot read keys (stdin) and would pipe
	// escape codes into a file (stdout): refuse before anything starts.
	if !f.StdinTTY() || !f.StdoutTTY() {
		return Usagef("the dashboard needs a terminal; for scripts use \"tesouro tickets list\", \"tesouro balances\", \"tesouro quote\" or \"tesouro api\" with --json (see \"tesouro help\")")
	}
	if err := f.LoadOverrides(); err != nil {
		return err
	}
	target, err := f.resolve(true)
	if err != nil {
		return err
	}
	out, drawn := newFrameWriter(f.Stdout)
	// Once the heap is large, it may grow by half of what is live before a
	// collection, not by all of it: the headroom scales with the tickets
	// loaded (a fixed limit turned into a collection spiral past ~110k of
	// them), and a million stay well under 500 MB. Until the first frame
	// has reached the terminal there is no collection at all.
	// GOGC or GOMEMLIMIT, when set, win.
	if f.Getenv("GOGC") == "" && f.Getenv("GOMEMLIMIT") == "" {
		defer ui.TuneGC(drawn)()
	}
	stateDir, err := keystore.StateDir(f.Getenv)
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	// The trace goes to the log file before Connect builds the client.
	logPath, closeLog, err := f.setupLog(stateDir)
	if err != nil {
		return err
	}
	defer closeLog()

	opts := f.dashboardOptions(target)
	opts.StateDir = stateDir
	opts.NoColor = f.Getenv("NO_COLOR") != ""
	opts.Notify = f.notifyOptions()
	// The journal is opened before the first frame: a local file, and no
	// write action may happen without it.
	if j, err := f.Journal(); err != nil {
		fmt.Fprintf(f.Stderr, "tesouro: warning: journal not available (%v); write actions will not be recorded locally\n", err)
	} else {
		opts.Journal = j
	}
	slog.Info("dashboard start", "env", opts.Env, "profile", opts.Profile, "embedded", opts.Embedded, "readonly", opts.ReadOnly, "sub-account", opts.SubAccount)

	// Reading the keyring and dialling a service wait for the first
	// frame, so as not to compete with drawing the window. The embedded
	// sandbox does not: it answers the first questions (access, accounts,
	// balances) at once, and started with the window rather than after
	// it, the balances show 18-20 ms sooner (52 ms after the process
	// starts instead of 71 ms, median of 7 in tmux). Its demo history,
	// the costly part, is built once the window is drawn.
	if target.Embedded {
		target.HoldHistory = drawn
	} else {
		opts.FirstFrame = drawn
	}
	root := ui.New(opts)
	progOpts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(f.Stdin), tea.WithOutput(out)}
	if p, ok := f.stdoutProfile(); ok {
		progOpts = append(progOpts, tea.WithColorProfile(p))
	}
	prog := tea.NewProgram(root, progOpts...)
	_, runErr := prog.Run()
	if err := root.Close(); err != nil {
		slog.Warn("close", "err", err)
		fmt.Fprintln(f.Stderr, "tesouro: warning:", err)
	}
	if runErr != nil {
		slog.Error("program", "err", runErr)
	}
	if logPath != "" {
		fmt.Fprintln(f.Stderr, "tesouro: debug log written to", logPath)
	}
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) {
		return fmt.Errorf("terminal: %w", runErr)
	}
	return nil
}

// stdoutProfile is the colour profile Lip Gloss detected for the process's
// standard output as it loaded (lipgloss.Writer: the environment, the
// terminfo entry and, inside tmux, what "tmux info" says), when the
// dashboard draws on that same output (Bubble Tea reads the process's
// environment too): it would detect the same profile from the same facts
// again, running tmux a second time before the first frame.
func (f *Factory) stdoutProfile() (colorprofile.Profile, bool) {
	if f.Stdout != os.Stdout {
		return 0, false
	}
	return lipgloss.Writer.Profile, true
}

// dashboardOptions turns the target into the dashboard's options. Only
// local files were read to decide it; the keyring and the network are
// touched in Connect, which the root runs in a command after the first
// frame (the embedded sandbox's with it: see runDashboard).
func (f *Factory) dashboardOptions(t *Target) ui.Options {
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
	if t.Embedded {
		// The embedded sandbox lives in this process: it answers as long
		// as the dashboard does, so no heartbeat asks it (each would cost
		// a signed request every 2 seconds of an idle window).
		opts.Heartbeat = -1
	}
	opts.Connect = func(ctx context.Context) (*ui.Connection, error) {
		conn, err := t.Connect(ctx)
		if err != nil {
			return nil, err
		}
		return &ui.Connection{Client: conn.Client, Email: conn.Email, Close: conn.Close, Screens: f.Screens(conn.Client)}, nil
	}
	return opts
}

// setupLog sends the debug trace of every HTTP exchange, and every line the
// dashboard logs (log/slog, and the standard logger, which slog's default
// takes over), to a file in the state directory with --debug, as slog text
// lines; nowhere otherwise (stderr would draw over the dashboard).
func (f *Factory) setupLog(stateDir string) (path string, closeFn func(), err error) {
	if !f.DebugAPI() {
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
	f.traceTo(fh)
	slog.SetDefault(f.trace)
	slog.Info("tesouro started", "version", f.Build.Line(), "at", time.Now().Format(time.RFC3339))
	return path, func() {
		slog.SetDefault(slog.New(slog.DiscardHandler))
		log.SetOutput(io.Discard)
		fh.Close()
	}, nil
}

// notifyOptions are config.toml's [notifications] settings and the desktop
// notification the terminal takes. A config that cannot be read leaves
// them all on: with a profile, Resolve has already refused it.
func (f *Factory) notifyOptions() ui.NotifyOptions {
	n := ui.NotifyOptions{Protocol: ui.DesktopProtocol(f.Getenv)}
	if cfg, err := f.Config(); err == nil {
		n.NoToast = !cfg.Notifications.ToastOn()
		n.NoBell = !cfg.Notifications.BellOn()
		n.NoDesktop = !cfg.Notifications.DesktopOn()
	}
	return n
}
