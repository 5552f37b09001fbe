// Package httpapi serves the engine over HTTP, as spec/service.md describes
// the interface: the routes (routes.go, router.go), the request pipeline
// (this file: faults, the body limit, the lifecycle's due work, routing,
// authentication), API-key signatures, replay and the login flow with its
// lockout (auth.go, replay.go), the decoding and validation of requests
// (decode.go and each resource's file), the wire shapes, which are its own
// (written from the contract, not a client's), and the error → status
// mapping of §4 (errors.go). Each resource has one file: its handlers,
// what its requests and answers look like, and the checks of its fields.
//
// Records the service shows as it keeps them (tickets, beneficiaries,
// compliance records) are package records' shapes; a ticket is answered
// from the JSON it is stored as. Everything else on the wire is declared
// here. A handler reads and checks its request, calls one engine
// operation (which takes the lock and commits before it returns), and
// makes the answer from what the operation returned.
package httpapi

import (
	"crypto/rand"
	"crypto/rsa"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/faults"
	"github.com/tesouro-treasury/tesouro/sandbox/team"
)

// maxBody is the largest request body accepted (§4: 413 above).
const maxBody = 1 << 20

// Server serves the engine's interface: it is an http.Handler.
type Server struct {
	eng    *engine.Engine
	clock  func() time.Time
	faults *faults.Faults
	routes router

	// replays remembers the API-key requests of the skew window (replay.go).
	replays replayGuard
	// logins is the memory of the JWT login flow (auth.go).
	logins *logins
	jwtKey []byte

	// webhookKey verifies the deliveries the sandbox signs (GET
	// /v2/public-key, the sandbox's own receiver).
	webhookKey *rsa.PublicKey

	// team is the team administration: API keys, second factors,
	// invitations, the outbox (package team).
	team *team.Team
	// inflight counts the requests being served; lastServed is when the
	// last one was answered (Unix ns, real time): Busy.
	inflight, lastServed atomic.Int64
}

// Config is what a Server serves with: its clock (nil: time.Now), the
// faults it injects, and the public key of the webhook deliveries.
type Config struct {
	Now        func() time.Time
	Faults     *faults.Faults
	WebhookKey *rsa.PublicKey
	// Team administers the accesses and API keys (required).
	Team *team.Team
}

// New serves eng.
func New(eng *engine.Engine, cfg Config) *Server {
	s := &Server{eng: eng, clock: cfg.Now, faults: cfg.Faults, logins: newLogins(), webhookKey: cfg.WebhookKey, team: cfg.Team}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.faults == nil {
		s.faults = &faults.Faults{}
	}
	s.jwtKey = make([]byte, 32)
	_, _ = rand.Read(s.jwtKey)
	s.routeAll()
	return s
}

// now is the clock in UTC.
func (s *Server) now() time.Time { return s.clock().UTC() }

// SetReplayGuard turns the refusal of a replayed signature on or off. Only
// the throughput benchmarks turn it off: they send requests signed ahead
// of time, many per millisecond of a frozen clock.
func (s *Server) SetReplayGuard(on bool) { s.replays.off = !on }

// ServeHTTP is the request pipeline: faults, body limit, lifecycle,
// routing, authentication, the handler, then the response.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.inflight.Add(1)
	defer func() {
		s.lastServed.Store(time.Now().UnixNano())
		s.inflight.Add(-1)
	}()
	s.serve(w, r)
}

// busyAfter is how long after its last answer the interface still counts
// as busy: a client's next request usually follows within it.
const busyAfter = 50 * time.Millisecond

// Busy reports whether requests are being served, or were a moment ago:
// the background work that may wait (signing webhook deliveries) then
// keeps to a share of the machine.
func (s *Server) Busy() bool {
	return s.inflight.Load() > 0 || time.Now().UnixNano()-s.lastServed.Load() < int64(busyAfter)
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
	sid    string         // the JWT session of a bearer call ("" for an API key)

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

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	f := s.faults.Pick()
	if s.injectFault(w, r, f) {
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.eng.WriteBegun()
		defer s.eng.WriteEnded()
	}
	c := &call{s: s, r: r, now: s.now()}
	// While the demo history is built, who the caller is, its accounts
	// and their balances are answered from the present the history ends
	// in (engine/present.go); every other request waits for the history.
	early := r.Method == http.MethodGet && presentPaths[r.URL.Path] && s.eng.Presenting(c.now)
	if err := s.admit(c, early); err != nil {
		writeError(w, err)
		return
	}
	if !early {
		s.eng.AdvanceIfDue(c.now)
	}
	rt := s.findRoute(w, c)
	if rt == nil {
		return
	}
	err := rt.h(c)
	if ferr := s.eng.Failed(); ferr != nil {
		// The handler's writes may not be stored: never acknowledge them.
		err = errf(http.StatusInternalServerError, codeInternal, "%v", ferr)
	}
	if err != nil {
		ae := answerOf(err)
		if f.DropAfterCommit {
			panic(http.ErrAbortHandler)
		}
		writeError(w, ae)
		return
	}
	if f.DropAfterCommit {
		panic(http.ErrAbortHandler)
	}
	c.write(w)
}

// injectFault plays the faults drawn for a request that act before it is
// read: latency, a dropped connection, throttling, an internal error. It
// reports whether the request has been answered (or abandoned).
func (s *Server) injectFault(w http.ResponseWriter, r *http.Request, f faults.Set) bool {
	if f.Latency > 0 {
		select {
		case <-time.After(f.Latency):
		case <-r.Context().Done():
			return true
		}
	}
	if f.Drop {
		panic(http.ErrAbortHandler)
	}
	if f.RateLimit {
		w.Header().Set("Retry-After", "1")
		writeError(w, errf(http.StatusTooManyRequests, codeRateLimited, "too many requests; retry after 1 second"))
		return true
	}
	if f.Error500 {
		writeError(w, errf(http.StatusInternalServerError, codeInternal, "injected fault: internal error"))
		return true
	}
	return false
}

// presentPaths are the reads answered while the demo history is built:
// what a client asks first, which the history does not change.
var presentPaths = map[string]bool{"/v2/account/access-info": true, "/v2/accounts": true, "/v2/account/balances": true}

// admit refuses a request the sandbox cannot serve (its storage failed,
// its demo data could not be built) and reads the request's body, within
// its limit. Unless early (a read of the present), it waits for the demo
// history to be built.
func (s *Server) admit(c *call, early bool) *apiError {
	var seedErr error
	if !early {
		seedErr = s.eng.Seeded()
	}
	if err := s.eng.Failed(); err != nil {
		return errf(http.StatusInternalServerError, codeInternal, "%v", err)
	}
	if seedErr != nil {
		return errf(http.StatusInternalServerError, codeInternal, "the sandbox demo data could not be built (try another --seed): %v", seedErr)
	}
	if c.r.Body != nil {
		body, err := io.ReadAll(io.LimitReader(c.r.Body, maxBody+1))
		if err != nil {
			return badRequest(codeInvalidRequest, "request body could not be read: %v", err)
		}
		if len(body) > maxBody {
			return errf(http.StatusRequestEntityTooLarge, codeTooLarge, "request body is over 1 MiB; send less")
		}
		c.body = body
	}
	return nil
}

// findRoute finds the request's route, reads its query and authenticates the
// caller the route asks for. It answers the request itself and returns nil
// when any of that fails.
func (s *Server) findRoute(w http.ResponseWriter, c *call) *route {
	r := c.r
	rt, params, allowed := s.routes.match(r.Method, r.URL.Path)
	if rt == nil {
		if len(allowed) > 0 {
			methodNotAllowed(w, r.Method, r.URL.Path, allowed)
			return nil
		}
		writeError(w, notFound("path", r.URL.Path))
		return nil
	}
	c.params = params
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, badRequest(codeInvalidRequest, "query string is malformed: %v", err))
		return nil
	}
	c.query = q
	if rt.auth == authAccess {
		who, aerr := s.authenticate(c)
		if aerr != nil {
			w.Header().Set("WWW-Authenticate", `Bearer, X-API-Key`)
			writeError(w, aerr)
			return nil
		}
		c.who = who
	}
	return rt
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

// writable refuses writes by view-only and frozen accesses, as the service
// does before it reads a write's fields.
func (c *call) writable() error {
	if c.who == nil {
		return nil
	}
	return c.who.MayWrite(c.now)
}
