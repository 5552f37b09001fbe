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
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
)

// demoAccesses are the sandbox's demo access names (spec/service.md §6).
var demoAccesses = []string{"operator", "requester", "approver1", "approver2", "approver3", "viewer", "restricted", "frozen"}

// dashboardFlags are the dashboard's command-line flags.
type dashboardFlags struct {
	profile, subAccount, as, credentials string
	readOnly, debug, sandbox             bool
}

const dashboardUsage = `tesouro: a terminal dashboard for treasury operations.

Usage:
  tesouro [--profile NAME | --sandbox [--as NAME] | --credentials FILE --as NAME]
          [--sub-account ID|NAME] [--readonly] [--debug]
                                       the dashboard; with no profile configured
                                       it starts the embedded sandbox
  tesouro sandbox [flags]              serve the service emulator
  tesouro profile add|list|use|show|remove
  tesouro keygen --profile NAME --type ed25519|ecdsa|rsa
  tesouro login --profile NAME
  tesouro --version

Every command takes --help. Exit codes: 0 ok, 1 runtime error, 2 usage error.

Dashboard flags:`

func (c *cli) parseDashboardFlags(args []string) (dashboardFlags, error) {
	var f dashboardFlags
	fs := c.newFlagSet("tesouro", dashboardUsage)
	fs.StringVar(&f.profile, "profile", "", "use this profile instead of the active one")
	fs.StringVar(&f.subAccount, "sub-account", "", "operate this sub-account (id or name)")
	fs.BoolVar(&f.readOnly, "readonly", false, "no write action is possible (shown in the header)")
	fs.BoolVar(&f.debug, "debug", false, "log to a file in the state directory (path printed at exit)")
	fs.BoolVar(&f.sandbox, "sandbox", false, "use a fresh embedded sandbox")
	fs.StringVar(&f.as, "as", "", "demo access for --sandbox or --credentials: "+strings.Join(demoAccesses, ", "))
	fs.StringVar(&f.credentials, "credentials", "", "credentials file written by a running 'tesouro sandbox' (its demo keys, no keyring)")
	if err := fs.parse(args); err != nil {
		return f, err
	}
	switch {
	case fs.NArg() > 0:
		return f, usagef("unexpected argument %q (subcommands: sandbox, profile, keygen, login)", fs.Arg(0))
	case f.sandbox && f.credentials != "":
		return f, usagef("--sandbox and --credentials exclude each other: --sandbox starts its own sandbox")
	case f.profile != "" && (f.sandbox || f.credentials != ""):
		return f, usagef("--profile cannot be combined with --sandbox or --credentials")
	case f.as != "" && !f.sandbox && f.credentials == "":
		return f, usagef("--as needs --sandbox or --credentials FILE")
	}
	if f.sandbox && f.as != "" && !slices.Contains(demoAccesses, f.as) {
		return f, usagef("--as %q: the demo accesses are %s", f.as, strings.Join(demoAccesses, ", "))
	}
	if f.as == "" {
		f.as = "operator"
	}
	return f, nil
}

func (c *cli) runDashboard(args []string) error {
	f, err := c.parseDashboardFlags(args)
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
	logPath, closeLog, err := setupLog(f.debug, stateDir)
	if err != nil {
		return err
	}
	defer closeLog()

	opts := ui.Options{
		ReadOnly:   f.readOnly,
		SubAccount: f.subAccount,
		StateDir:   stateDir,
		NoColor:    c.getenv("NO_COLOR") != "",
	}
	if err := c.chooseService(f, &opts); err != nil {
		return err
	}
	// The journal is opened before the first frame: a local file, and no
	// write action may happen without it.
	if j, err := journal.Open(stateDir); err != nil {
		fmt.Fprintf(c.stderr, "tesouro: warning: journal not available (%v); write actions will not be recorded locally\n", err)
	} else {
		opts.Journal = j
	}
	log.Printf("dashboard start: env=%s profile=%q embedded=%v readonly=%v sub-account=%q", opts.Env, opts.Profile, opts.Embedded, opts.ReadOnly, opts.SubAccount)

	root := ui.New(opts)
	prog := tea.NewProgram(root, tea.WithInput(c.stdin), tea.WithOutput(c.stdout))
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

// chooseService decides what the dashboard talks to. Only local files are
// read here (the config); the keyring and the network are touched in
// Connect, which the root runs in a command after the first frame.
func (c *cli) chooseService(f dashboardFlags, opts *ui.Options) error {
	switch {
	case f.sandbox:
		embedded(f.as, opts)
		return nil
	case f.credentials != "":
		path, as := f.credentials, f.as
		opts.Env, opts.Embedded, opts.Funding = ui.EnvSandbox, false, true
		opts.Label = "sandbox (" + filepath.Base(path) + ")"
		opts.Connect = func(ctx context.Context) (*ui.Connection, error) {
			creds, err := sandbox.ReadCredentials(path)
			if err != nil {
				return nil, err
			}
			acc, ok := creds.Access(as)
			if !ok {
				return nil, fmt.Errorf("the credentials file %s has no access named %q", path, as)
			}
			return demoConnection(creds.BaseURL, acc, nil)
		}
		return nil
	}
	dir, err := keystore.ConfigDir(c.getenv)
	if err != nil {
		return fmt.Errorf("config directory: %w", err)
	}
	cfg, err := keystore.Load(dir)
	if err != nil {
		return fmt.Errorf("load config: %w", err)
	}
	p, err := cfg.Lookup(f.profile)
	if errors.Is(err, keystore.ErrNoProfile) && f.profile == "" {
		embedded(f.as, opts)
		return nil
	}
	if err != nil {
		return err
	}
	opts.Profile = p.Name
	opts.Email = p.Email
	opts.Env = ui.EnvSandbox
	if p.Production() {
		opts.Env = ui.EnvProduction
	}
	opts.Funding = opts.Env == ui.EnvSandbox
	opts.ReadOnly = opts.ReadOnly || p.ReadOnly
	if opts.SubAccount == "" {
		opts.SubAccount = p.SubAccount
	}
	opts.Connect = func(ctx context.Context) (*ui.Connection, error) {
		auth, err := keystore.NewAuthenticatorWith(keystore.OSKeyring(), p, func(err error) {
			if err != nil {
				log.Printf("profile %s: the renewed session could not be saved to the keyring: %v", p.Name, err)
			}
		})
		if err != nil {
			return nil, err
		}
		cl, err := api.New(p.BaseURL, auth, api.WithUserAgent("github.com/tesouro-treasury/tesouro/"+versionString()))
		if err != nil {
			return nil, fmt.Errorf("profile %s: %w", p.Name, err)
		}
		conn := &ui.Connection{Client: cl, Email: p.Email, Screens: screens(cl)}
		if ps, ok := auth.(keystore.Persister); ok {
			// A token pair rotated just before quitting must reach the
			// keyring before the process exits.
			conn.Close = func() error { return ps.WaitPersisted(10 * time.Second) }
		}
		return conn, nil
	}
	return nil
}

// embedded configures a fresh in-process sandbox acting as demo access as.
func embedded(as string, opts *ui.Options) {
	opts.Env, opts.Embedded, opts.Funding = ui.EnvSandbox, true, true
	opts.Connect = func(ctx context.Context) (*ui.Connection, error) {
		r, err := sandbox.Start(sandbox.Config{Seed: 1}, "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("start the embedded sandbox: %w", err)
		}
		acc, ok := r.Creds.Access(as)
		if !ok {
			r.Close()
			return nil, fmt.Errorf("the sandbox has no demo access named %q", as)
		}
		return demoConnection(r.BaseURL, acc, r.Close)
	}
}

// demoConnection signs requests with a demo access's API key.
func demoConnection(baseURL string, acc sandbox.AccessCredential, closeFn func() error) (*ui.Connection, error) {
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		if closeFn != nil {
			closeFn()
		}
		return nil, fmt.Errorf("demo access %s: %w", acc.Name, err)
	}
	cl, err := api.New(baseURL, auth, api.WithUserAgent("github.com/tesouro-treasury/tesouro/"+versionString()))
	if err != nil {
		if closeFn != nil {
			closeFn()
		}
		return nil, err
	}
	return &ui.Connection{Client: cl, Email: acc.Email, Close: closeFn, Screens: screens(cl)}, nil
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
	log.Printf("---- tesouro %s started at %s", versionString(), time.Now().Format(time.RFC3339))
	return path, func() { fh.Close(); log.SetOutput(io.Discard) }, nil
}
