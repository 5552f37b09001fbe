package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/demo"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// Config configures a sandbox.
type Config struct {
	Seed      int64            // demo data seed; same seed, same data
	Speed     float64          // lifecycle speed factor (0 means 1)
	Faults    string           // --faults spec, "" for none
	StatePath string           // "" : nothing persisted
	Now       func() time.Time // nil: time.Now
	// Wrap, when set, wraps the handler that Start and StartTLS serve
	// (a request log, for one). It gets the credentials handed out at that
	// address, so it can name the access behind each request.
	Wrap func(next http.Handler, creds Credentials) http.Handler
}

// maxBody is the largest request body accepted (§4: 413 above).
const maxBody = 1 << 20

// Server is one sandbox: its store, its rules, and how it is served.
type Server struct {
	// replays remembers the API-key requests of the skew window (replay.go).
	replays replayGuard
	// logins is the memory of the JWT login flow (auth.go).
	logins logins

	cfg   Config
	clock func() time.Time

	db  *store.Store
	eng *engine.Engine

	routes  router
	faults  *faults
	handler http.Handler

	jwtKey     []byte
	webhookKey *rsa.PrivateKey
	httpClient *http.Client

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
	f, err := parseFaults(cfg.Faults, cfg.Seed)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, clock: cfg.Now, faults: f, logins: newLogins()}
	if s.clock == nil {
		s.clock = time.Now
	}
	s.jwtKey = randomKey()
	if s.webhookKey, err = demo.WebhookKey(); err != nil {
		return nil, fmt.Errorf("webhook signing key: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.httpClient = &http.Client{Timeout: 5 * time.Second}

	if s.db, err = store.Open(cfg.StatePath); err != nil {
		return nil, err
	}
	s.eng = engine.New(s.db, engine.Config{Now: s.clock, Speed: cfg.Speed})
	if err := s.open(cfg.Seed); err != nil {
		s.db.Close()
		return nil, err
	}
	s.routeAll()
	s.handler = http.HandlerFunc(s.serve)

	for range 4 {
		s.wg.Add(1)
		go s.deliverLoop()
	}
	s.wg.Add(1)
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
	d, err := demo.Build(s.eng, seed)
	if err != nil {
		return err
	}
	empty, err := s.db.Verify(seed)
	if err != nil {
		return err
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
		build()
	}()
	return nil
}

func randomKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// seeded waits until the demo history is built (under the write lock)
// and reports a defect of it.
func (s *Server) seeded() error { return s.eng.Seeded() }

// now is the sandbox clock in UTC.
func (s *Server) now() time.Time { return s.clock().UTC() }

// Handler serves the whole interface.
func (s *Server) Handler() http.Handler { return s.handler }

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

// Running is a sandbox serving plain HTTP on a local address.
type Running struct {
	*Server
	BaseURL string
	Creds   Credentials
	srv     *http.Server
}

// Start builds a sandbox and serves it on addr ("127.0.0.1:0" picks a
// port) in the background.
func Start(cfg Config, addr string) (*Running, error) {
	s, ln, err := listen(cfg, addr)
	if err != nil {
		return nil, err
	}
	return s.serveOn(ln, "http"), nil
}

// listen builds a sandbox and opens addr for it.
func listen(cfg Config, addr string) (*Server, net.Listener, error) {
	s, err := New(cfg)
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

func (s *Server) serveOn(ln net.Listener, scheme string) *Running {
	base := scheme + "://" + ln.Addr().String()
	creds := s.Credentials(base)
	h := s.Handler()
	if s.cfg.Wrap != nil {
		h = s.cfg.Wrap(h, creds)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: discardLogger()}
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
		})
	}
	return c
}

// call is one request being served.
type call struct {
	s      *Server
	r      *http.Request
	body   []byte
	params map[string]string
	query  url.Values
	now    time.Time
	who    *engine.Access // nil on public routes

	// the response, written after the handler returned (and released its locks)
	status      int
	value       any
	raw         []byte
	contentType string
	headers     map[string]string
}

// reply sets a JSON response.
func (c *call) reply(status int, v any) error {
	c.status, c.value = status, v
	return nil
}

// replyRaw sets a non-JSON response.
func (c *call) replyRaw(status int, contentType string, data []byte, headers map[string]string) error {
	c.status, c.raw, c.contentType, c.headers = status, data, contentType, headers
	return nil
}

func (c *call) param(name string) string { return c.params[name] }

// serve is the request pipeline: faults, body limit, lifecycle, routing,
// authentication, the handler, then the response.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	f := s.faults.pick()
	if f.latency > 0 {
		select {
		case <-time.After(f.latency):
		case <-r.Context().Done():
			return
		}
	}
	if f.drop {
		panic(http.ErrAbortHandler)
	}
	if f.ratelimit {
		w.Header().Set("Retry-After", "1")
		writeError(w, errf(http.StatusTooManyRequests, codeRateLimited, "too many requests; retry after 1 second"))
		return
	}
	if f.error500 {
		writeError(w, errf(http.StatusInternalServerError, codeInternal, "injected fault: internal error"))
		return
	}

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.db.WriteBegun()
		defer s.db.WriteEnded()
	}
	c := &call{s: s, r: r, now: s.now()}
	seedErr := s.eng.Seeded()
	if err := s.db.Failed(); err != nil {
		writeError(w, errf(http.StatusInternalServerError, codeInternal, "%v", err))
		return
	}
	if seedErr != nil {
		writeError(w, errf(http.StatusInternalServerError, codeInternal, "the sandbox demo data could not be built (try another --seed): %v", seedErr))
		return
	}
	if r.Body != nil {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			writeError(w, badRequest(codeInvalidRequest, "request body could not be read: %v", err))
			return
		}
		if len(body) > maxBody {
			writeError(w, errf(http.StatusRequestEntityTooLarge, codeTooLarge, "request body is over 1 MiB; send less"))
			return
		}
		c.body = body
	}
	s.eng.AdvanceIfDue(c.now)

	rt, params, allowed := s.routes.match(r.Method, r.URL.Path)
	if rt == nil {
		if len(allowed) > 0 {
			methodNotAllowed(w, r.Method, r.URL.Path, allowed)
			return
		}
		writeError(w, notFound("path", r.URL.Path))
		return
	}
	c.params = params
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, badRequest(codeInvalidRequest, "query string is malformed: %v", err))
		return
	}
	c.query = q
	if rt.auth == authAccess {
		who, aerr := s.authenticate(c)
		if aerr != nil {
			w.Header().Set("WWW-Authenticate", `Bearer, X-API-Key`)
			writeError(w, aerr)
			return
		}
		c.who = who
	}
	err = rt.h(c)
	if ferr := s.db.Failed(); ferr != nil {
		// The handler's writes may not be stored: never acknowledge them.
		err = errf(http.StatusInternalServerError, codeInternal, "%v", ferr)
	}
	if err != nil {
		ae := answerOf(err)
		if f.dropAfterCommit {
			panic(http.ErrAbortHandler)
		}
		writeError(w, ae)
		return
	}
	if f.dropAfterCommit {
		panic(http.ErrAbortHandler)
	}
	c.write(w)
}

func (c *call) write(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range c.headers {
		h.Set(k, v)
	}
	data := c.raw
	if c.raw == nil {
		if c.value == nil {
			c.value = struct{}{}
		}
		var err error
		data, err = marshalJSON(c.value)
		if err != nil {
			writeError(w, errf(http.StatusInternalServerError, codeInternal, "encode response: %v", err))
			return
		}
		c.contentType = "application/json"
	}
	h.Set("Content-Type", c.contentType)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	if c.status == 0 {
		c.status = http.StatusOK
	}
	w.WriteHeader(c.status)
	_, _ = w.Write(data)
}

// caller is who the call is for the engine: its access, the sub-account
// it asks for, its clock reading.
func (c *call) caller() engine.Caller {
	return engine.Caller{Access: c.who, Sub: c.query.Get("subAccountId"), Now: c.now}
}
