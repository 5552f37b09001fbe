package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// sandboxFlags are the flags of "tesouro sandbox".
type sandboxFlags struct {
	addr, credsOut, faults, state, forwardTo string
	seed                                     int64
	speed                                    float64
	tls, allowRemote, logRequests            bool
}

func (c *app) sandboxCommand() *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Serve the service emulator, with developer tools",
		Long: `Serves a strict emulator of the whole service, with deterministic demo data
and demo accesses whose credentials it writes to a file (mode 0600).

--forward-to relays every webhook delivery, signed by the sandbox, to a
local URL and prints one line per delivery; --log-requests prints one line
per request. "tesouro sandbox fund TICKET" simulates the payer of a ticket.`,
		Example: `  tesouro sandbox --forward-to http://localhost:4242/webhooks --log-requests
  tesouro --credentials ~/.local/state/tesouro/sandbox-credentials.json sandbox fund TICKET_ID`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.runSandbox(cmd, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8443", "listen address (loopback only unless --allow-remote)")
	fs.Int64Var(&f.seed, "seed", 1, "demo data seed: the same seed gives the same data")
	fs.StringVar(&f.credsOut, "credentials-out", "", "credentials FILE to write (default: sandbox-credentials.json in the state directory)")
	fs.StringVar(&f.faults, "faults", "", "injected faults, e.g. latency=50ms,error500=0.1,drop=0.05,dropAfterCommit=0.1,ratelimit=0.02")
	fs.Float64Var(&f.speed, "speed", 1, "lifecycle speed factor (10 funds and pays tickets ten times faster)")
	fs.StringVar(&f.state, "state", "", "keep the state in this SQLite database FILE (every answered write is on disk; created if missing)")
	fs.BoolVar(&f.tls, "tls", false, "serve HTTPS with a self-signed certificate written next to the credentials")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow listening on a non-loopback address")
	fs.StringVar(&f.forwardTo, "forward-to", "", "relay every webhook delivery, signed, to this local URL")
	fs.BoolVar(&f.logRequests, "log-requests", false, "print one line per request: method, path, status, latency, access")
	cmd.AddCommand(cli.FundCommand(c.env()))
	return cmd
}

// runSandbox serves the service emulator until interrupted.
func (c *app) runSandbox(cmd *cobra.Command, f sandboxFlags) error {
	host, _, err := net.SplitHostPort(f.addr)
	if err != nil {
		return usagef("sandbox: --addr %q is not host:port (e.g. 127.0.0.1:8443)", f.addr)
	}
	if !f.allowRemote && !keystore.Loopback(host) {
		return usagef("sandbox: --addr %s is not a loopback address; add --allow-remote to expose the sandbox", f.addr)
	}
	if f.speed <= 0 {
		return usagef("sandbox: --speed must be positive, got %v", f.speed)
	}
	if f.forwardTo != "" {
		u, err := url.Parse(f.forwardTo)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("sandbox: --forward-to %q is not an http(s) URL such as http://localhost:4242/webhooks", f.forwardTo)
		}
	}
	path := f.credsOut
	if path == "" {
		dir, err := keystore.StateDir(c.getenv)
		if err != nil {
			return fmt.Errorf("sandbox: %w, or pass --credentials-out FILE", err)
		}
		path = filepath.Join(dir, "sandbox-credentials.json")
	}
	cfg := sandbox.Config{Seed: f.seed, Speed: f.speed, Faults: f.faults, StatePath: f.state}
	// A bad --faults is a mistake on the command line: find it before
	// anything is created.
	if s, err := sandbox.New(sandbox.Config{Seed: f.seed, Faults: f.faults}); err != nil {
		if strings.Contains(err.Error(), "faults") {
			return usagef("sandbox: --%v", err)
		}
	} else {
		s.Close()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("sandbox: credentials directory: %w", err)
	}

	if f.logRequests {
		cfg.Wrap = func(h http.Handler, creds sandbox.Credentials) http.Handler {
			return cli.RequestLog(h, c.stdout, creds)
		}
	}
	var (
		run      *sandbox.Running
		certPath string
	)
	if f.tls {
		certPath = filepath.Join(filepath.Dir(path), "sandbox-cert.pem")
		run, err = sandbox.StartTLS(cfg, f.addr, certPath)
	} else {
		run, err = sandbox.Start(cfg, f.addr)
	}
	if err != nil {
		return err
	}
	baseURL, creds, stop := run.BaseURL, run.Creds, run.Close
	defer stop()
	if err := creds.WriteFile(path); err != nil {
		return err
	}
	ctx := cmd.Context()
	if f.forwardTo != "" {
		fw, err := cli.Forward(ctx, creds, f.forwardTo, c.stdout)
		if err != nil {
			return err
		}
		defer fw.Close()
	}
	fmt.Fprintf(c.stdout, "tesouro sandbox listening on %s\n", baseURL)
	names := make([]string, len(creds.Accesses))
	for i, a := range creds.Accesses {
		names[i] = a.Name
	}
	fmt.Fprintf(c.stdout, "credentials: %s (demo accesses: %s)\n", path, strings.Join(names, ", "))
	if certPath != "" {
		fmt.Fprintf(c.stdout, "certificate: %s (self-signed; trust it in the client)\n", certPath)
	}
	if f.state != "" {
		fmt.Fprintf(c.stdout, "state: %s\n", f.state)
	}
	if f.forwardTo != "" {
		fmt.Fprintf(c.stdout, "forwarding every webhook event to %s (verify with: tesouro webhooks verify)\n", f.forwardTo)
	}
	fmt.Fprintf(c.stdout, "try: tesouro --credentials %s --as operator\n", path)
	fmt.Fprintln(c.stdout, "press Ctrl-C to stop")
	<-ctx.Done()
	fmt.Fprintln(c.stdout, "sandbox stopped")
	return stop()
}
