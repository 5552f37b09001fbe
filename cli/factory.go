package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/ui"
)

// Globals are the flags every command accepts, before or after its name.
type Globals struct {
	Profile     string
	SubAccount  string
	As          string
	Credentials string
	ReadOnly    bool
	Debug       bool
	Sandbox     bool
	// Timeout is a command's overall deadline (0: none).
	Timeout time.Duration
}

// IOStreams are the process's standard streams. Tests give buffers.
type IOStreams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// StdinTTY reports whether a person is typing at stdin.
func (s IOStreams) StdinTTY() bool { return isTerminal(s.Stdin) }

// StdoutTTY reports whether stdout is a terminal.
func (s IOStreams) StdoutTTY() bool { return isTerminal(s.Stdout) }

// StderrTTY reports whether stderr is a terminal (progress lines go there).
func (s IOStreams) StderrTTY() bool { return isTerminal(s.Stderr) }

// StderrWidth is the width of the terminal stderr writes to, 0 when it is
// not a terminal or does not say.
func (s IOStreams) StderrWidth() int {
	fh, ok := s.Stderr.(*os.File)
	if !ok {
		return 0
	}
	w, _, err := term.GetSize(int(fh.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// isTerminal reports whether f is a terminal. A stream that says whether
// it is one (IsTerminal) is believed: tests hand such buffers.
func isTerminal(f any) bool {
	if t, ok := f.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	fh, ok := f.(*os.File)
	return ok && term.IsTerminal(int(fh.Fd()))
}

// Config is config.toml as read, with the directory it is saved to.
type Config struct {
	Dir string
	*keystore.Config
}

// Save writes the config back to its directory.
func (c Config) Save() error { return c.Config.Save(c.Dir) }

// Factory is what every command is built from. main builds one for the
// process and hands it to NewCmdRoot; a test builds one with buffers and
// swaps what it needs (an in-memory keyring). Its parts are lazy: a command
// reads the config, opens the keyring or the journal, or builds a client
// only when it needs one, so --help, a usage mistake or a command that
// needs no service touches none of them.
type Factory struct {
	IOStreams
	// Getenv reads the environment.
	Getenv func(string) string
	// G holds the global flags; the root command's flags write it.
	G Globals
	// Build names this binary (--version, the User-Agent).
	Build Build

	// Config reads config.toml, once.
	Config func() (Config, error)
	// Secrets opens the keyring holding the profiles' secrets, once.
	Secrets func() keystore.Secrets
	// Journal opens the local journal of write actions, once.
	Journal func() (*journal.Journal, error)
	// Prompter asks the person at the terminal.
	Prompter *Prompter
	// Screens builds the dashboard's screens on a client, in tab order.
	// main supplies them: the screens are the dashboard's, not the
	// command line's.
	Screens func(c *api.Client) []ui.Factory

	traceOnce sync.Once
	trace     *slog.Logger // the debug trace's destination; nil: stderr
}

// New builds the factory of a process with these streams and environment.
func New(streams IOStreams, getenv func(string) string, build Build) *Factory {
	f := &Factory{IOStreams: streams, Getenv: getenv, Build: build, Prompter: NewPrompter(streams)}
	f.Config = sync.OnceValues(func() (Config, error) {
		dir, err := keystore.ConfigDir(f.Getenv)
		if err != nil {
			return Config{}, fmt.Errorf("config directory: %w", err)
		}
		cfg, err := keystore.Load(dir)
		if err != nil {
			return Config{}, fmt.Errorf("load config: %w", err)
		}
		return Config{Dir: dir, Config: cfg}, nil
	})
	f.Secrets = sync.OnceValue(f.keyring)
	f.Journal = sync.OnceValues(func() (*journal.Journal, error) {
		dir, err := keystore.StateDir(f.Getenv)
		if err != nil {
			return nil, fmt.Errorf("state directory: %w", err)
		}
		return journal.Open(dir)
	})
	return f
}

// keyring is the OS keyring. At a terminal a desktop keyring may be asking
// its owner for the unlock password: the calls then wait longer, and say
// what they are waiting for.
func (f *Factory) keyring() keystore.Secrets {
	opts := keystore.KeyringOptions{}
	if f.StdinTTY() {
		opts.ReadTimeout, opts.WriteTimeout = time.Minute, time.Minute
	}
	var once sync.Once
	opts.Waiting = func(limit time.Duration) {
		once.Do(func() {
			fmt.Fprintf(f.Stderr, "waiting for the keyring (unlock it if your desktop asks for its password; giving up after %s)...\n", limit)
		})
	}
	return keystore.OSKeyringWith(opts)
}

// Profile finds the profile called name: the one TESOURO_PROFILE names
// when name is "", else the active one. It is the one way a command finds
// its profile. keystore.ErrNoProfile means none is configured or active.
func (f *Factory) Profile(name string) (Config, keystore.Profile, error) {
	cfg, err := f.Config()
	if err != nil {
		return Config{}, keystore.Profile{}, err
	}
	if name == "" {
		name = strings.TrimSpace(f.Getenv("TESOURO_PROFILE"))
	}
	p, err := cfg.Lookup(name)
	return cfg, p, err
}

// RequestTimeout bounds each HTTP exchange of a command.
const RequestTimeout = 30 * time.Second

// DebugAPI reports whether HTTP exchanges are to be traced: --debug, or
// TESOURO_DEBUG=api.
func (f *Factory) DebugAPI() bool {
	if f.G.Debug {
		return true
	}
	for _, v := range strings.Split(f.Getenv("TESOURO_DEBUG"), ",") {
		if strings.TrimSpace(v) == "api" || strings.TrimSpace(v) == "1" {
			return true
		}
	}
	return false
}

// NewTrace is the debug trace's logger writing to w: one line per HTTP
// exchange or reconciliation step, secrets already redacted by api.
func NewTrace(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// traceTo sends the debug trace to w instead of stderr (the dashboard's
// log file: stderr would draw over the screen). It must be called before
// the first client is built.
func (f *Factory) traceTo(w io.Writer) { f.trace = NewTrace(w) }

// tracer is the debug trace, nil when none was asked for. Commands trace
// to stderr: scripts read stdout, and the trace never mixes with it.
func (f *Factory) tracer() *slog.Logger {
	if !f.DebugAPI() {
		return nil
	}
	f.traceOnce.Do(func() {
		if f.trace == nil {
			f.trace = NewTrace(f.Stderr)
		}
	})
	return f.trace
}

// NewClient is the one way a client of the service is built, for every
// command and the dashboard: the request timeout, the User-Agent, and the
// debug trace when asked for. auth may be nil for the public endpoints
// (logging in); extra adds to these (a transport of its own).
func (f *Factory) NewClient(baseURL string, auth api.Authenticator, extra ...api.Option) (*api.Client, error) {
	opts := append([]api.Option{api.WithTimeout(RequestTimeout), api.WithUserAgent(f.Build.UserAgent())}, extra...)
	if l := f.tracer(); l != nil {
		opts = append(opts, api.WithTrace(l))
	}
	return api.New(baseURL, auth, opts...)
}
