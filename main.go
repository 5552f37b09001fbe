// Command tesouro is a terminal dashboard for treasury operations on a
// conversion-and-payments service: price conversions, turn them into tickets
// before the quote dies, clear the multi-signature queue, and switch between
// sub-accounts while always knowing which one you act on.
//
// It also serves a strict emulator of the whole service (`tesouro sandbox`),
// which is the dashboard's embedded default when no profile is configured,
// and has scripting commands (balances, tickets, quote, api, ...) for
// automation.
//
// Layout: api/ is the typed client of the service; sandbox/ the emulator;
// keystore/ profiles and OS-keyring secrets; ui/ the dashboard shell and its
// widgets; views/ one package per screen; cli/ every command, the
// dashboard's included, built from one factory; export/ the CSV exports;
// validate/, brcode/, money/ and journal/ are small domain packages. This
// package only wires them: it builds the factory, hands it the dashboard's
// screens (screens.go), runs the command tree with fang and turns the
// outcome into the exit code.
package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/ui"
)

// version, commit and date are set by release builds:
// -ldflags "-X main.version=1.2.0 -X main.commit=abc1234 -X main.date=2026-01-14T09:30:00Z".
// Left empty, they come from the build info Go embeds.
var version, commit, date string

func main() {
	f := cli.New(cli.IOStreams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Getenv,
		cli.Build{Version: version, Commit: commit, Date: date})
	f.Screens = screensOf(f)
	os.Exit(run(f, os.Args[1:]))
}

// screensOf builds the dashboard's screens on a client, with the keyring
// and config of f keeping the API keys made on the Accesses screen (no
// client, as when the key bindings are checked: no keeper).
func screensOf(f *cli.Factory) func(c *api.Client) []ui.Factory {
	return func(c *api.Client) []ui.Factory {
		if c == nil {
			return screens(nil, nil)
		}
		return screens(c, newKeeper(f, c.BaseURL()))
	}
}

// run runs the command args names and returns the exit code. SIGINT and
// SIGTERM cancel the command's context, so that it can stop cleanly (a
// sandbox closes, a watch ends), and then decide the exit code: 128 + the
// signal's number, as shells report it.
func run(f *cli.Factory, args []string) int {
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
	err := execute(ctx, f, args)
	if s, ok := got.Load().(syscall.Signal); ok {
		return 128 + int(s)
	}
	return cli.ExitCode(err)
}

// execute runs the command tree on args.
func execute(ctx context.Context, f *cli.Factory, args []string) error {
	return f.Execute(ctx, args)
}
