package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/internal/totp"
	"github.com/tesouro-treasury/tesouro/sandbox/delivery"
	"github.com/tesouro-treasury/tesouro/sandbox/demo"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/faults"
	"github.com/tesouro-treasury/tesouro/sandbox/httpapi"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
	"github.com/tesouro-treasury/tesouro/sandbox/team"
)

// Config configures a sandbox.
type Config struct {
	Seed      int64            // demo data seed; same seed, same data
	Speed     float64          // lifecycle speed factor (0 means 1)
	Faults    string           // --faults spec, "" for none
	StatePath string           // "" : nothing persisted
	Now       func() time.Time // nil: time.Now
	// OwnCredentials gives the demo accesses secrets of this installation
	// (a random key, fresh RSA keys) instead of the published ones of the
	// seed, which every sandbox of the seed shares: for a sandbox others
	// can reach (--allow-remote). They are generated at the first start
	// and kept with the state, so a sandbox restarted on the same
	// StatePath keeps them, with or without this option.
	OwnCredentials bool
	// Wrap, when set, wraps the handler that Start and StartTLS serve
	// (a request log, for one). It gets the credentials handed out at that
	// address, so it can name the access behind each request.
	Wrap func(next http.Handler, creds Credentials) http.Handler
	// AnswerBeforeHistory has Start, StartTLS and StartInProcess return as soon as the
	// sandbox answers, while its demo history is still being built: who
	// the caller is, its accounts and their balances (what the history
	// ends in) are answered at once, and every other request waits for
	// the history. The embedded dashboard sets it, to show the balances
	// without waiting for the history; otherwise they return once the
	// history is built.
	AnswerBeforeHistory bool
	// OnMail, when set, hears every e-mail the sandbox would have sent
	// (an invitation, a login or reset token): its log shows them. They
	// are also served at GET /v2/sandbox/outbox.
	OnMail func(to, kind, token string)
	// HoldHistory, when set, holds the demo history's build until it is
	// closed (or the sandbox is closed): the embedded dashboard holds it
	// until its first frame is drawn, so that building the history does
	// not compete with drawing the window. Only with AnswerBeforeHistory.
	HoldHistory <-chan struct{}
}

// CheckFaults reports what is wrong with a --faults spec, without
// building a sandbox (the error names the faults).
func CheckFaults(spec string) error {
	_, err := faults.Parse(spec, 0)
	return err
}

// lifecycleBatch is how late, on the real clock, a request may leave
// the lifecycle's due transitions to a later one, so that under load
// they are applied many to a transaction (engine.Config.Batch); the
// sweeper applies them within 100 ms when nobody asks.
const lifecycleBatch = 25 * time.Millisecond

// Server is one sandbox: its store, its rules, and how they are served.
type Server struct {
	cfg   Config
	clock func() time.Time

	db   *store.Store
	eng  *engine.Engine
	team *team.Team
	api  *httpapi.Server
	// sender sends the webhook deliveries, a queue per endpoint.
	sender *delivery.Sender

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

// New builds a sandbox with its demo data; it is usable at once (no key is
// generated on this path) and starts its lifecycle sweeper and webhook
// senders in the background. Close stops them.
func New(cfg Config) (*Server, error) {
	if cfg.Speed < 0 || math.IsNaN(cfg.Speed) || math.IsInf(cfg.Speed, 0) {
		return nil, fmt.Errorf("speed %v: must be a positive factor such as 1 or 10", cfg.Speed)
	}
	f, err := faults.Parse(cfg.Faults, cfg.Seed)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, clock: cfg.Now}
	if s.clock == nil {
		s.clock = time.Now
	}
	key, err := demo.WebhookKey()
	if err != nil {
		return nil, fmt.Errorf("webhook signing key: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())

	if s.db, err = store.OpenFor(cfg.StatePath, cfg.Seed); err != nil {
		return nil, err
	}
	// A nil clock is the wall clock: the engine's sweeper then sleeps
	// until the next transition is due instead of reading a clock, and
	// transitions due meanwhile are applied in batches.
	ecfg := engine.Config{Now: cfg.Now, Speed: cfg.Speed}
	if cfg.Now == nil {
		ecfg.Batch = lifecycleBatch
	}
	s.eng = engine.New(s.db, ecfg)
	if err := s.open(cfg.Seed); err != nil {
		s.db.Close()
		return nil, err
	}
	s.api = httpapi.New(s.eng, httpapi.Config{Now: s.clock, Faults: f, WebhookKey: &key.PublicKey, Team: s.team})

	s.sender = delivery.New(s.eng, key, s.api.Receiver())
	s.sender.SetBusy(s.api.Busy)
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		s.sender.Run(s.ctx)
	}()
	go func() {
		defer s.wg.Done()
		s.eng.Sweep(s.ctx)
	}()
	return s, nil
}

// open readies the engine for a seed: the demo accounts and accesses, and
// either what the store holds (a database seeded before) or the demo
// history, built in the background behind the engine's lock.
func (s *Server) open(seed int64) error {
	in, err := s.installation()
	if err != nil {
		return err
	}
	d, err := demo.Build(s.eng, seed, in)
	if err != nil {
		return err
	}
	empty, err := s.db.Verify(seed)
	if err != nil {
		return err
	}
	// Team administration changes the seed's accesses: what it stored is
	// applied before the records that may name an invited access load.
	s.team = team.New(s.eng, s.db)
	if on := s.cfg.OnMail; on != nil {
		s.team.OnMail = func(m team.Mail) { on(m.To, m.Kind, m.Token) }
	}
	if err := s.team.Load(); err != nil {
		return s.db.Refused(err)
	}
	if !empty {
		if err := s.eng.Load(); err != nil {
			return s.db.Refused(err)
		}
		return nil
	}
	build := d.History(s.eng)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if s.cfg.HoldHistory != nil && s.cfg.AnswerBeforeHistory {
			// A sandbox closed first still builds it: the build holds the
			// engine's lock from now on, and only its end releases it.
			select {
			case <-s.cfg.HoldHistory:
			case <-s.ctx.Done():
			}
		}
		build()
	}()
	return nil
}

// installationMeta is the setting that keeps an installation's demo
// credentials (Config.OwnCredentials).
const installationMeta = "demo_credentials"

// installation is the secret of the demo credentials kept with the state,
// one generated now for OwnCredentials, or nil for the published ones.
func (s *Server) installation() (*demo.Installation, error) {
	v, ok, err := s.db.Meta(installationMeta)
	if err != nil {
		return nil, s.db.Refused(err)
	}
	if ok {
		in, err := demo.ParseInstallation(v)
		if err != nil {
			return nil, s.db.Refused(err)
		}
		return in, nil
	}
	if !s.cfg.OwnCredentials {
		return nil, nil
	}
	in, err := demo.NewInstallation()
	if err != nil {
		return nil, fmt.Errorf("demo credentials: %w", err)
	}
	s.db.Lock()
	s.db.SetMeta(installationMeta, in.Marshal())
	s.db.Unlock()
	if err := s.db.Failed(); err != nil {
		return nil, err
	}
	return in, nil
}

// OwnCredentials reports whether the demo accesses have secrets of this
// installation rather than the published ones of the seed.
func (s *Server) OwnCredentials() bool {
	_, ok, err := s.db.Meta(installationMeta)
	return ok && err == nil
}

// seeded waits until the demo history is built (under the write lock)
// and reports a defect of it.
func (s *Server) seeded() error { return s.eng.Seeded() }

// now is the sandbox clock in UTC.
func (s *Server) now() time.Time { return s.clock().UTC() }

// Handler serves the whole interface.
func (s *Server) Handler() http.Handler { return s.api }

// Close stops the background work and closes the database (every
// acknowledged write is already committed).
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		s.cancel()
		s.wg.Wait()
		err = s.db.Close()
	})
	return err
}

// Running is a sandbox being served: on a local address (Start, StartTLS)
// or in this process's memory (StartInProcess).
type Running struct {
	*Server
	BaseURL string
	Creds   Credentials
	srv     *http.Server
	// dial opens a connection to a sandbox served in process
	// (StartInProcess); nil for one served on a socket.
	dial func(ctx context.Context) (net.Conn, error)
}

// Start builds a sandbox and serves it on addr ("127.0.0.1:0" picks a
// port) in the background; it returns once the demo history is built,
// unless cfg.AnswerBeforeHistory.
func Start(cfg Config, addr string) (*Running, error) {
	s, ln, err := listen(cfg, addr)
	if err != nil {
		return nil, err
	}
	return s.serveOn(ln, "http://"+ln.Addr().String()), nil
}

// listen builds a sandbox and opens addr for it.
func listen(cfg Config, addr string) (*Server, net.Listener, error) {
	s, err := ready(cfg)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	return s, ln, nil
}

// ready builds a sandbox to serve: once its demo history is built, unless
// cfg.AnswerBeforeHistory.
func ready(cfg Config) (*Server, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if !cfg.AnswerBeforeHistory {
		// A defect of the demo data is every request's answer.
		_ = s.seeded()
	}
	return s, nil
}

// serveOn serves s on ln, which clients reach at base.
func (s *Server) serveOn(ln net.Listener, base string) *Running {
	creds := s.Credentials(base)
	h := s.Handler()
	if s.cfg.Wrap != nil {
		h = s.cfg.Wrap(h, creds)
	}
	// net/http's log of aborted handlers is silenced: the drop faults
	// abort on purpose.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	r := &Running{Server: s, BaseURL: base, Creds: creds, srv: srv}
	go func() { _ = srv.Serve(ln) }()
	return r
}

// Close stops serving and closes the sandbox.
func (r *Running) Close() error {
	err := r.srv.Close()
	if e := r.Server.Close(); e != nil {
		err = e
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// totpSecret is an access's TOTP secret in base32, or "".
func totpSecret(a *engine.Access) string {
	if len(a.TOTPSecret) == 0 {
		return ""
	}
	return totp.Encode(a.TOTPSecret)
}

// Credentials returns the demo accesses' credentials for a sandbox served
// at baseURL.
func (s *Server) Credentials(baseURL string) Credentials {
	s.eng.SetSelfBase(baseURL)
	c := Credentials{BaseURL: baseURL, MainAccountID: s.eng.Main().ID.String()}
	for _, a := range s.eng.SubAccounts() {
		c.SubAccounts = append(c.SubAccounts, SubAccountCredential{ID: a.ID.String(), Name: a.Name})
	}
	for _, a := range s.eng.Accesses() {
		if a.APIKey == "" {
			continue
		}
		c.Accesses = append(c.Accesses, AccessCredential{
			Name: a.Name, Email: a.Email, AccessID: a.ID.String(), APIKey: a.APIKey, KeyType: a.KeyType,
			PrivateKeyPEM: a.PrivateKeyPEM, Password: a.Password, EmailToken: a.EmailToken, Permissions: a.Perms,
			TOTPSecret: totpSecret(a), MFAActive: a.MFAID != uuid.Nil,
		})
	}
	return c
}
