package cli

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

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

func newCmdSandbox(f *Factory) *cobra.Command {
	var opts sandboxFlags
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
		RunE: func(cmd *cobra.Command, _ []string) error { return f.runSandbox(cmd, opts) },
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.addr, "addr", "127.0.0.1:8443", "listen address (loopback only unless --allow-remote)")
	fs.Int64Var(&opts.seed, "seed", 1, "demo data seed: the same seed gives the same data")
	fs.StringVar(&opts.credsOut, "credentials-out", "", "credentials FILE to write (default: sandbox-credentials.json in the state directory)")
	fs.StringVar(&opts.faults, "faults", "", "injected faults, e.g. latency=50ms,error500=0.1,drop=0.05,dropAfterCommit=0.1,ratelimit=0.02")
	fs.Float64Var(&opts.speed, "speed", 1, "lifecycle speed factor (10 funds and pays tickets ten times faster)")
	fs.StringVar(&opts.state, "state", "", "keep the state in this SQLite database FILE (every answered write is on disk; created if missing)")
	fs.BoolVar(&opts.tls, "tls", false, "serve HTTPS with a self-signed certificate written next to the credentials")
	fs.BoolVar(&opts.allowRemote, "allow-remote", false, "allow listening on a non-loopback address; the demo accesses then get credentials of their own, kept with --state")
	fs.StringVar(&opts.forwardTo, "forward-to", "", "relay every webhook delivery, signed, to this local URL")
	fs.BoolVar(&opts.logRequests, "log-requests", false, "print one line per request: method, path, status, latency, access")
	cmd.AddCommand(newCmdSandboxFund(f), newCmdSandboxTOTP(f))
	return cmd
}

// runSandbox serves the service emulator until interrupted.
func (f *Factory) runSandbox(cmd *cobra.Command, opts sandboxFlags) error {
	host, _, err := net.SplitHostPort(opts.addr)
	if err != nil {
		return Usagef("sandbox: --addr %q is not host:port (e.g. 127.0.0.1:8443)", opts.addr)
	}
	if !opts.allowRemote && !keystore.Loopback(host) {
		return Usagef("sandbox: --addr %s is not a loopback address; add --allow-remote to expose the sandbox", opts.addr)
	}
	if opts.speed <= 0 {
		return Usagef("sandbox: --speed must be positive, got %v", opts.speed)
	}
	if opts.forwardTo != "" {
		u, err := url.Parse(opts.forwardTo)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Usagef("sandbox: --forward-to %q is not an http(s) URL such as http://localhost:4242/webhooks", opts.forwardTo)
		}
	}
	path := opts.credsOut
	if path == "" {
		dir, err := keystore.StateDir(f.Getenv)
		if err != nil {
			return fmt.Errorf("sandbox: %w, or pass --credentials-out FILE", err)
		}
		path = filepath.Join(dir, "sandbox-credentials.json")
	}
	// Reachable by others, the demo accesses get secrets of their own:
	// the published ones of the seed are the same in every tesouro.
	cfg := sandbox.Config{Seed: opts.seed, Speed: opts.speed, Faults: opts.faults, StatePath: opts.state, OwnCredentials: opts.allowRemote}
	// A bad --faults is a mistake on the command line: find it before
	// anything is created.
	if err := sandbox.CheckFaults(opts.faults); err != nil {
		return Usagef("sandbox: --%v", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("sandbox: credentials directory: %w", err)
	}

	// The sandbox's e-mails: an invitation's token is what the invited
	// person needs, so the log shows it; every mail is also at GET
	// /v2/sandbox/outbox.
	cfg.OnMail = func(to, kind, token string) {
		if kind == "invitation" {
			fmt.Fprintf(f.Stdout, "mail to %s: invitation token %s (it sets the password: POST /v2/auth/accesses/validate/TOKEN)\n", to, token)
		} else {
			fmt.Fprintf(f.Stdout, "mail to %s: %s token (at GET /v2/sandbox/outbox)\n", to, kind)
		}
	}
	if opts.logRequests {
		cfg.Wrap = func(h http.Handler, creds sandbox.Credentials) http.Handler {
			return requestLog(h, f.Stdout, creds)
		}
	}
	var (
		run      *sandbox.Running
		certPath string
	)
	if opts.tls {
		certPath = filepath.Join(filepath.Dir(path), "sandbox-cert.pem")
		run, err = sandbox.StartTLS(cfg, opts.addr, certPath)
	} else {
		run, err = sandbox.Start(cfg, opts.addr)
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
	var fw *Forwarder
	if opts.forwardTo != "" {
		if fw, err = forward(ctx, f, creds, opts.forwardTo); err != nil {
			return err
		}
	}
	fmt.Fprintf(f.Stdout, "tesouro sandbox listening on %s\n", baseURL)
	names := make([]string, len(creds.Accesses))
	for i, a := range creds.Accesses {
		names[i] = a.Name
	}
	fmt.Fprintf(f.Stdout, "credentials: %s (demo accesses: %s)\n", path, strings.Join(names, ", "))
	switch {
	case run.OwnCredentials() && opts.state != "":
		fmt.Fprintf(f.Stdout, "the demo accesses' keys and passwords are this installation's own, kept in %s\n", opts.state)
	case run.OwnCredentials():
		fmt.Fprintln(f.Stdout, "the demo accesses' keys and passwords are new at each start (add --state FILE to keep them)")
	}
	if certPath != "" {
		fmt.Fprintf(f.Stdout, "certificate: %s (self-signed; trust it in the client)\n", certPath)
	}
	if opts.state != "" {
		fmt.Fprintf(f.Stdout, "state: %s\n", opts.state)
	}
	if opts.forwardTo != "" {
		fmt.Fprintf(f.Stdout, "forwarding every webhook event to %s (verify with: tesouro webhooks verify)\n", opts.forwardTo)
	}
	fmt.Fprintf(f.Stdout, "try: tesouro --credentials %s --as operator\n", path)
	fmt.Fprintln(f.Stdout, "press Ctrl-C to stop")
	<-ctx.Done()
	if fw != nil {
		// Its webhook is removed while the sandbox still answers.
		if err := fw.Close(); err != nil {
			fmt.Fprintln(f.Stderr, "warning:", err)
		}
	}
	fmt.Fprintln(f.Stdout, "sandbox stopped")
	return stop()
}
