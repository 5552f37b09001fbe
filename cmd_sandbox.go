package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// runSandbox serves the service emulator until interrupted.
func (c *cli) runSandbox(args []string) error {
	fs := c.newFlagSet("sandbox", `Usage: tesouro sandbox [flags]

Serves a strict emulator of the whole service, with deterministic demo data
and demo accesses whose credentials it writes to a file (mode 0600).`)
	addr := fs.String("addr", "127.0.0.1:8443", "listen address (loopback only unless --allow-remote)")
	seed := fs.Int64("seed", 1, "demo data seed: the same seed gives the same data")
	credsOut := fs.String("credentials-out", "", "credentials file to write (default: sandbox-credentials.json in the state directory)")
	faults := fs.String("faults", "", "injected faults, e.g. latency=50ms,error500=0.1,drop=0.05,dropAfterCommit=0.1,ratelimit=0.02")
	speed := fs.Float64("speed", 1, "lifecycle speed factor (10 funds and pays tickets ten times faster)")
	state := fs.String("state", "", "keep the state in this SQLite database (every answered write is on disk; created if missing)")
	useTLS := fs.Bool("tls", false, "serve HTTPS with a self-signed certificate written next to the credentials")
	allowRemote := fs.Bool("allow-remote", false, "allow listening on a non-loopback address")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("sandbox: unexpected argument %q", fs.Arg(0))
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usagef("sandbox: --addr %q is not host:port (e.g. 127.0.0.1:8443)", *addr)
	}
	if !*allowRemote && !keystore.Loopback(host) {
		return usagef("sandbox: --addr %s is not a loopback address; add --allow-remote to expose the sandbox", *addr)
	}
	if *speed <= 0 {
		return usagef("sandbox: --speed must be positive, got %v", *speed)
	}
	path := *credsOut
	if path == "" {
		dir, err := keystore.StateDir(c.getenv)
		if err != nil {
			return fmt.Errorf("sandbox: %w, or pass --credentials-out FILE", err)
		}
		path = filepath.Join(dir, "sandbox-credentials.json")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("sandbox: credentials directory: %w", err)
	}
	cfg := sandbox.Config{Seed: *seed, Speed: *speed, Faults: *faults, StatePath: *state}
	var run *sandbox.Running
	certPath := ""
	if *useTLS {
		certPath = filepath.Join(filepath.Dir(path), "sandbox-cert.pem")
		run, err = sandbox.StartTLS(cfg, *addr, certPath)
	} else {
		run, err = sandbox.Start(cfg, *addr)
	}
	if err != nil {
		return err
	}
	defer run.Close()
	if err := run.Creds.WriteFile(path); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "tesouro sandbox listening on %s\n", run.BaseURL)
	names := make([]string, len(run.Creds.Accesses))
	for i, a := range run.Creds.Accesses {
		names[i] = a.Name
	}
	fmt.Fprintf(c.stdout, "credentials: %s (demo accesses: %s)\n", path, strings.Join(names, ", "))
	if certPath != "" {
		fmt.Fprintf(c.stdout, "certificate: %s (self-signed; trust it in the client)\n", certPath)
	}
	if *state != "" {
		fmt.Fprintf(c.stdout, "state: %s\n", *state)
	}
	fmt.Fprintf(c.stdout, "try: tesouro --credentials %s --as operator\n", path)
	fmt.Fprintln(c.stdout, "press Ctrl-C to stop")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	fmt.Fprintln(c.stdout, "sandbox stopped")
	return run.Close()
}
