package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
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
}

// Env is what a command may touch: the process's streams and environment,
// the global flags, and the keyring. Tests build one with buffers.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	G              *Globals
	UserAgent      string
	// Secrets opens the keyring (profiles' credentials).
	Secrets func() keystore.Secrets
}

// RequestTimeout bounds each HTTP exchange of a scripting command.
const RequestTimeout = 30 * time.Second

// isTerminal reports whether f is a terminal.
func isTerminal(f any) bool {
	fh, ok := f.(*os.File)
	return ok && term.IsTerminal(int(fh.Fd()))
}

// StdinTTY reports whether a person is typing at stdin.
func (e *Env) StdinTTY() bool { return isTerminal(e.Stdin) }

// StdoutTTY reports whether stdout is a terminal.
func (e *Env) StdoutTTY() bool { return isTerminal(e.Stdout) }

// StderrTTY reports whether stderr is a terminal (progress lines go there).
func (e *Env) StderrTTY() bool { return isTerminal(e.Stderr) }

// IsTerminal reports whether w (an *os.File) is a terminal.
func IsTerminal(w any) bool { return isTerminal(w) }

// DebugAPI reports whether HTTP exchanges are to be logged: --debug, or
// TESOURO_DEBUG=api.
func (e *Env) DebugAPI() bool {
	if e.G != nil && e.G.Debug {
		return true
	}
	for _, v := range strings.Split(e.Getenv("TESOURO_DEBUG"), ",") {
		if strings.TrimSpace(v) == "api" || strings.TrimSpace(v) == "1" {
			return true
		}
	}
	return false
}

// ClientOptions are the api options every client of a scripting command
// gets: timeout, user agent, and the debug log on stderr when asked for
// (scripts read stdout; the log never mixes with it).
func (e *Env) ClientOptions() []api.Option {
	opts := []api.Option{api.WithTimeout(RequestTimeout)}
	if e.UserAgent != "" {
		opts = append(opts, api.WithUserAgent(e.UserAgent))
	}
	if e.DebugAPI() {
		opts = append(opts, api.WithTrace(NewTrace(e.Stderr)))
	}
	return opts
}

// NewTrace is the debug trace's logger writing to w: one line per HTTP
// exchange or reconciliation step, secrets already redacted by api.
func NewTrace(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// confirm asks a yes/no question at the terminal; anything but y or yes is
// no. Without a terminal it is no: a script cannot say yes by accident.
func (e *Env) confirm(ctx context.Context, question string) bool {
	if !e.StdinTTY() {
		return false
	}
	fmt.Fprintf(e.Stderr, "%s [y/N] ", question)
	answer := make(chan string, 1)
	go func() {
		var line string
		_, _ = fmt.Fscanln(e.Stdin, &line)
		answer <- line
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(e.Stderr)
		return false
	case a := <-answer:
		a = strings.ToLower(strings.TrimSpace(a))
		return a == "y" || a == "yes"
	}
}
