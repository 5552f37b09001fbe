package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// DemoAccesses are the sandbox's demo access names (spec/service.md §6).
var DemoAccesses = []string{"operator", "requester", "approver1", "approver2", "approver3", "viewer", "restricted", "frozen"}

// Target is the service a command talks to and as whom, decided from the
// global flags, TESOURO_PROFILE and the config before any network or
// keyring access: the dashboard shows it in its header before connecting.
type Target struct {
	Production bool
	Profile    string // "" for a sandbox without a profile
	Email      string
	Label      string // what the header names when there is no profile
	DemoAccess string // the demo access acted as when there is no profile
	Embedded   bool   // a fresh in-process sandbox
	Funding    bool   // the sandbox's "simulate the payment" is available
	ReadOnly   bool
	SubAccount string // --sub-account, else the profile's default
	// readOnlyFlag: --readonly was given (else ReadOnly is the profile's).
	readOnlyFlag bool
	// baseURL is the service's address, when known before connecting.
	baseURL string
	// ScriptedWrites is the profile's permission for scripts to write
	// (ticket create --yes) on production.
	ScriptedWrites bool
	// HoldHistory, for an embedded sandbox, holds the build of its demo
	// history until it is closed (the dashboard's first frame).
	HoldHistory <-chan struct{}

	connect func(ctx context.Context) (*Conn, error)
}

// Conn is a live client of the target.
type Conn struct {
	Client *api.Client
	Email  string
	// Close releases the connection (stops an embedded sandbox, waits for
	// rotated tokens to reach the keyring); never nil.
	Close func() error
}

// Connect reads the credentials and builds the client; an embedded sandbox
// starts here.
func (t *Target) Connect(ctx context.Context) (*Conn, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return nil, err
	}
	if c.Close == nil {
		c.Close = func() error { return nil }
	}
	return c, nil
}

// Resolve decides the target of a scripting command. Its mistakes are
// usage errors, and so is the absence of a profile when neither --sandbox
// nor --credentials was given: a script must never take demo data for its
// account's.
func (f *Factory) Resolve() (*Target, error) { return f.resolve(false) }

// resolve decides the target. With no profile configured and none asked
// for, the dashboard (and only the dashboard) opens on the embedded
// sandbox, so that a first run shows something that works.
func (f *Factory) resolve(dashboard bool) (*Target, error) {
	g := f.G
	explicitProfile := g.Profile != ""
	switch {
	case g.Sandbox && g.Credentials != "":
		return nil, Usagef("--sandbox and --credentials exclude each other: --sandbox starts its own sandbox")
	case explicitProfile && (g.Sandbox || g.Credentials != ""):
		return nil, Usagef("--profile cannot be combined with --sandbox or --credentials")
	case g.As != "" && !g.Sandbox && g.Credentials == "":
		return nil, Usagef("the flag --as needs --sandbox or --credentials FILE")
	case g.Sandbox && g.As != "" && !slices.Contains(DemoAccesses, g.As):
		return nil, Usagef("--as %q: the demo accesses are %s", g.As, strings.Join(DemoAccesses, ", "))
	}
	if g.As == "" {
		g.As = "operator"
	}
	t := &Target{ReadOnly: g.ReadOnly, readOnlyFlag: g.ReadOnly, SubAccount: strings.TrimSpace(g.SubAccount)}
	switch {
	case g.Sandbox:
		f.embedded(t, g.As, dashboard)
		return t, nil
	case g.Credentials != "":
		return t, f.credentialsTarget(t, g.Credentials, g.As)
	}
	_, p, err := f.Profile(g.Profile)
	if errors.Is(err, keystore.ErrNoProfile) {
		if !dashboard {
			return nil, Usagef("%v, or run on demo data with --sandbox (or --credentials FILE from a running \"tesouro sandbox\")", err)
		}
		f.embedded(t, g.As, dashboard)
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	t.Profile, t.Email, t.Production, t.baseURL = p.Name, p.Email, p.Production(), p.BaseURL
	t.Funding = !t.Production
	t.ReadOnly = t.ReadOnly || p.ReadOnly
	t.ScriptedWrites = p.ScriptedWrites
	if t.SubAccount == "" {
		t.SubAccount = p.SubAccount
	}
	t.connect = func(ctx context.Context) (*Conn, error) {
		auth, err := keystore.NewAuthenticatorWith(f.Secrets(), p, func(err error) {
			if err != nil {
				fmt.Fprintf(f.Stderr, "warning: profile %s: the renewed session could not be saved to the keyring: %v\n", p.Name, err)
			}
		})
		if err != nil {
			return nil, err
		}
		cl, err := f.NewClient(p.BaseURL, auth)
		if err != nil {
			return nil, fmt.Errorf("profile %s: %w", p.Name, err)
		}
		conn := &Conn{Client: cl, Email: p.Email}
		if ps, ok := auth.(keystore.Persister); ok {
			// A token pair rotated just before exiting must reach the
			// keyring before the process ends.
			conn.Close = func() error { return ps.WaitPersisted(RequestTimeout) }
		}
		return conn, nil
	}
	return t, nil
}

// embedded targets a fresh in-process sandbox acting as demo access as.
// The dashboard's answers its first questions (access, accounts,
// balances) while it builds its demo history; a command's, once built.
func (f *Factory) embedded(t *Target, as string, dashboard bool) {
	t.Embedded, t.Funding, t.DemoAccess = true, true, as
	t.connect = func(ctx context.Context) (*Conn, error) {
		// Served in memory: only this process's client reaches it, and an
		// idle window holds no socket.
		r, err := sandbox.StartInProcess(sandbox.Config{Seed: 1, AnswerBeforeHistory: dashboard, HoldHistory: t.HoldHistory})
		if err != nil {
			return nil, fmt.Errorf("start the embedded sandbox: %w", err)
		}
		acc, ok := r.Creds.Access(as)
		if !ok {
			r.Close()
			return nil, fmt.Errorf("the sandbox has no demo access named %q", as)
		}
		return f.demoConn(r.BaseURL, acc, r.Close, api.WithHTTPClient(r.HTTPClient()))
	}
}

// credentialsTarget targets a sandbox another process runs, from the
// credentials file it wrote. The file's base URL must be on this machine:
// the header says SANDBOX and offers to simulate payments, which must never
// be true of a service elsewhere, whatever a file claims.
func (f *Factory) credentialsTarget(t *Target, path, as string) error {
	creds, err := sandbox.ReadCredentials(path)
	if err != nil {
		return err
	}
	u, err := url.Parse(creds.BaseURL)
	if err != nil || u.Host == "" {
		return Usagef("--credentials %s: its baseUrl %q is not a URL", path, creds.BaseURL)
	}
	if !keystore.Loopback(u.Hostname()) {
		return Usagef("--credentials %s names %s, which is not on this machine: a credentials file is only for a sandbox on loopback; use a profile (tesouro profile add) for any other service", path, creds.BaseURL)
	}
	acc, ok := creds.Access(as)
	if !ok {
		return Usagef("the credentials file %s has no access named %q", path, as)
	}
	t.Funding, t.DemoAccess, t.baseURL = true, as, creds.BaseURL
	t.Label = "sandbox (" + filepath.Base(path) + ")"
	t.Email = acc.Email
	t.connect = func(ctx context.Context) (*Conn, error) {
		return f.demoConn(creds.BaseURL, acc, nil)
	}
	return nil
}

// demoConn signs requests with a demo access's API key; opts add to the
// client's (the in-process sandbox's transport).
func (f *Factory) demoConn(baseURL string, acc sandbox.AccessCredential, closeFn func() error, opts ...api.Option) (*Conn, error) {
	fail := func(err error) (*Conn, error) {
		if closeFn != nil {
			closeFn()
		}
		return nil, err
	}
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		return fail(fmt.Errorf("demo access %s: %w", acc.Name, err))
	}
	cl, err := f.NewClient(baseURL, auth, opts...)
	if err != nil {
		return fail(err)
	}
	return &Conn{Client: cl, Email: acc.Email, Close: closeFn}, nil
}

// SubAccount resolves --sub-account (an id or a name) to an id and a name;
// "" is the main account (uuid.Nil).
func SubAccount(ctx context.Context, c *api.Client, ref string) (uuid.UUID, string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return uuid.Nil, "", nil
	}
	want, idErr := uuid.Parse(ref)
	for sa, err := range api.All(ctx, func(ctx context.Context, cursor string) (api.Page[api.SubAccount], error) {
		return c.ListSubAccounts(ctx, api.SubAccountFilter{Cursor: cursor})
	}) {
		if err != nil {
			return uuid.Nil, "", fmt.Errorf("find sub-account %q: %w", ref, err)
		}
		if (idErr == nil && sa.SubAccountID == want) || strings.EqualFold(sa.AccountInfo.Name, ref) {
			return sa.SubAccountID, sa.AccountInfo.Name, nil
		}
	}
	return uuid.Nil, "", Usagef("--sub-account %q: no sub-account has that id or name (see tesouro accounts)", ref)
}
