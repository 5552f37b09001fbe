package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Client talks to the service over HTTP. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	auth      Authenticator
	hc        *http.Client
	userAgent string
	timeout   time.Duration
	retry     RetryPolicy
	maxBody   int64
	maxPDF    int64
	reconcile ReconcilePolicy
	sleep     func(ctx context.Context, d time.Duration) error
	trace     *slog.Logger
}

// Option configures a Client.
type Option func(*Client) error

// WithHTTPClient sets the HTTP client (transport, proxy, TLS). The client
// is copied: Tesouro never follows redirects, because a redirected write
// could be sent twice and credential headers could leak to another host.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error {
		if hc == nil {
			return errors.New("WithHTTPClient: nil *http.Client")
		}
		cp := *hc
		c.hc = &cp
		return nil
	}
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) error { c.userAgent = ua; return nil }
}

// WithTimeout bounds every single HTTP exchange (each retry has its own).
func WithTimeout(d time.Duration) Option {
	return func(c *Client) error {
		if d <= 0 {
			return fmt.Errorf("WithTimeout: %s is not a positive duration", d)
		}
		c.timeout = d
		return nil
	}
}

// WithRetryPolicy replaces DefaultRetryPolicy for idempotent reads.
func WithRetryPolicy(p RetryPolicy) Option {
	return func(c *Client) error {
		if p.MaxRetries < 0 {
			return errors.New("WithRetryPolicy: negative MaxRetries")
		}
		c.retry = p
		return nil
	}
}

// WithMaxResponseBytes bounds a JSON response body (default 8 MiB).
func WithMaxResponseBytes(n int64) Option {
	return func(c *Client) error {
		if n <= 0 {
			return errors.New("WithMaxResponseBytes: limit must be positive")
		}
		c.maxBody = n
		return nil
	}
}

// WithReconcilePolicy sets how CreateTicket looks a ticket up after its
// answer was lost.
func WithReconcilePolicy(p ReconcilePolicy) Option {
	return func(c *Client) error { c.reconcile = p; return nil }
}

// Defaults.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultUserAgent = "tesouro"
	defaultMaxBody   = 8 << 20
	defaultMaxPDF    = 32 << 20
)

// New builds a client for baseURL (scheme and host, optionally a path
// prefix). It refuses plain http:// unless the host is loopback
// (127.0.0.0/8, ::1, localhost): credentials and money never cross a
// network in clear. auth may be nil for the public endpoints only.
func New(baseURL string, auth Authenticator, opts ...Option) (*Client, error) {
	u, err := parseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base: u, auth: auth, userAgent: DefaultUserAgent, timeout: DefaultTimeout,
		retry: DefaultRetryPolicy, maxBody: defaultMaxBody, maxPDF: defaultMaxPDF,
		reconcile: DefaultReconcilePolicy, sleep: sleepCtx,
	}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.hc == nil {
		c.hc = &http.Client{Transport: newTransport()}
	}
	c.hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c, nil
}

// idleConnsPerHost is how many connections to the service a client keeps
// open between requests. The dashboard asks several things at once (a
// screen's first loads, the poll of the tickets that may still move, G's
// pages read ahead): with net/http's default of two, every such burst
// opened connections (each a TLS handshake with the service) only to close
// them after one answer.
const idleConnsPerHost = 8

// newTransport is the HTTP transport of a client that was given none:
// net/http's default, keeping idleConnsPerHost connections open.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = idleConnsPerHost
	return t
}

// BaseURL returns the base URL the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %w", raw, err)
	}
	if u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("base URL %q: give an absolute https:// URL such as https://api.example.com:8443", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q: remove the user, query or fragment part", raw)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("base URL %q: plain http is allowed only on loopback (127.0.0.1, ::1, localhost); use https", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// isLoopback reports whether host is 127.0.0.0/8, ::1 or localhost.
func isLoopback(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// call is one logical request.
type call struct {
	method string
	path   string // escaped, starting with /v2
	query  url.Values
	body   any  // marshalled once; nil for no body
	public bool // no credentials (login, refresh, public key, payment session)
	pdf    bool // the answer is a document, not JSON
}

// response is a complete answer.
type response struct {
	status int
	header http.Header
	body   []byte
	// usedCredential is the Authorization header the attempt carried, so
	// that a bearer refresh after a 401 can tell a stale token from the
	// current one.
	usedCredential string
}

// transportError is a failure with no complete answer. sent tells whether
// the request may have reached the service (its headers were written).
type transportError struct {
	method, path string
	sent         bool
	status       int // non-zero when the status line arrived but the body did not
	err          error
}

func (e *transportError) Error() string {
	if errors.Is(e.err, context.Canceled) {
		return fmt.Sprintf("%s %s: cancelled before the answer arrived", e.method, e.path)
	}
	if e.status != 0 {
		return fmt.Sprintf("%s %s: HTTP %d, then the answer was cut short: %v", e.method, e.path, e.status, e.err)
	}
	return fmt.Sprintf("%s %s: no answer from the service: %v; check the network and the base URL", e.method, e.path, e.err)
}

func (e *transportError) Unwrap() error { return e.err }

// Is matches ErrNoAnswer.
func (e *transportError) Is(target error) bool { return target == ErrNoAnswer }

// idempotent reports whether a failed attempt may be repeated blindly.
func idempotent(method string) bool { return method == http.MethodGet || method == http.MethodHead }

// do sends a call: it builds the URL and body once, signs exactly the bytes
// sent, retries idempotent reads, refreshes credentials once on a 401, and
// returns the complete answer whatever its status.
func (c *Client) do(ctx context.Context, cl call) (*response, error) {
	var body []byte
	if cl.body != nil {
		b, err := json.Marshal(cl.body)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encode body: %w", cl.method, cl.path, err)
		}
		body = b
	}
	// cl.path is already escaped segment by segment, so the URL is written
	// out as a string rather than through url.URL.Path (which would escape
	// it a second time).
	target := c.base.Scheme + "://" + c.base.Host + c.base.EscapedPath() + cl.path
	if len(cl.query) > 0 {
		target += "?" + cl.query.Encode()
	}

	ctx, callID := withCallID(ctx)
	reauthed, replays := false, 0
	for attempt := 0; ; attempt++ {
		start := time.Now()
		var headers *http.Header
		if c.trace != nil {
			headers = new(http.Header)
		}
		resp, err := c.attempt(ctx, cl, target, body, headers)
		if headers != nil {
			c.traceExchange(ctx, exchange{call: int(callID), attempt: attempt, cl: cl, target: target, sent: *headers, body: body, start: start, resp: resp, err: err})
		}
		if err != nil {
			var te *transportError
			if errors.As(err, &te) && idempotent(cl.method) && attempt < c.retry.MaxRetries && ctx.Err() == nil {
				if serr := c.sleep(ctx, c.retry.backoff(attempt)); serr != nil {
					return nil, err
				}
				continue
			}
			return nil, err
		}
		if resp.status == http.StatusUnauthorized && !reauthed && !cl.public {
			if ra, ok := c.auth.(Reauthenticator); ok {
				reauthed = true
				if rerr := c.reauthenticate(ctx, ra, resp); rerr != nil {
					e := newStatusError(cl.method, cl.path, resp.status, resp.header, resp.body)
					return nil, fmt.Errorf("%w (renewing the session failed: %v; log in again)", e, rerr)
				}
				attempt--
				continue
			}
		}
		// A read refused as a replay was seen by the service already: Go's
		// transport re-sends an idempotent request, headers and all, when a
		// reused connection breaks before the answer, and the service
		// refuses the copy. That re-send is the transport's, not a retry of
		// ours, so it is made again signed afresh without spending the
		// retry budget; a write is never re-sent this way. The bound is
		// its own (maxReplayResigns): each copy refused proves the service
		// answered the read once, and a read asked again changes nothing,
		// so on a link that drops answers often (a third of them, in the
		// sandbox's fault tests) the read is asked until one answer
		// arrives rather than failing a batch on the third lost answer.
		if resp.status == http.StatusUnauthorized && idempotent(cl.method) && replays < maxReplayResigns && newStatusError(cl.method, cl.path, resp.status, resp.header, resp.body).Code == CodeReplayed {
			replays++
			attempt--
			continue
		}
		if retryable(resp.status) && idempotent(cl.method) && attempt < c.retry.MaxRetries {
			wait := c.retry.backoff(attempt)
			if ra := parseRetryAfter(resp.header.Get("Retry-After"), time.Now()); ra > 0 {
				if ra > c.retry.MaxRetryAfter {
					return resp, nil // the caller's error carries RetryAfter
				}
				wait = ra
			}
			if serr := c.sleep(ctx, wait); serr != nil {
				return resp, nil
			}
			continue
		}
		return resp, nil
	}
}

// maxReplayResigns bounds how many times one read refused as REPLAYED is
// signed afresh and sent again (see do).
const maxReplayResigns = 10

// staleAware is implemented by BearerAuth: it refreshes only when the
// credential that failed is still the current one, so that concurrent 401s
// cause one refresh.
type staleAware interface {
	reauthenticateIfCurrent(ctx context.Context, used string, refresh func(ctx context.Context, refreshToken string) (*Tokens, error)) error
}

func (c *Client) reauthenticate(ctx context.Context, ra Reauthenticator, resp *response) error {
	if sa, ok := ra.(staleAware); ok {
		return sa.reauthenticateIfCurrent(ctx, resp.usedCredential, c.RefreshTokens)
	}
	return ra.Reauthenticate(ctx, c.RefreshTokens)
}

// attempt makes one HTTP exchange under its own timeout. When headers is
// not nil it receives the request's headers as signed, for the trace.
func (c *Client) attempt(ctx context.Context, cl call, target string, body []byte, headers *http.Header) (*response, error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var sent atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{WroteHeaders: func() { sent.Store(true) }})

	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, cl.method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", cl.method, cl.path, err)
	}
	if cl.pdf {
		req.Header.Set("Accept", "application/pdf")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	if !cl.public {
		if c.auth == nil {
			return nil, fmt.Errorf("%s %s: no credentials configured for this client", cl.method, cl.path)
		}
		if err := c.auth.Authenticate(&Request{Method: cl.method, RequestURI: req.URL.RequestURI(), Body: body, Header: req.Header}); err != nil {
			return nil, fmt.Errorf("%s %s: sign request: %w", cl.method, cl.path, err)
		}
	}
	used := req.Header.Get("Authorization")
	if headers != nil {
		*headers = req.Header.Clone()
	}

	hr, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &transportError{method: cl.method, path: cl.path, sent: sent.Load(), err: ctx.Err()}
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("timed out after %s: %w", c.timeout, context.DeadlineExceeded)
		}
		return nil, &transportError{method: cl.method, path: cl.path, sent: sent.Load(), err: err}
	}
	defer hr.Body.Close()
	limit := c.maxBody
	if cl.pdf {
		limit = c.maxPDF
	}
	data, err := io.ReadAll(io.LimitReader(hr.Body, limit+1))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("timed out after %s: %w", c.timeout, context.DeadlineExceeded)
		}
		return nil, &transportError{method: cl.method, path: cl.path, sent: true, status: hr.StatusCode, err: err}
	}
	if int64(len(data)) > limit {
		return nil, &Error{Status: hr.StatusCode, Method: cl.method, Path: cl.path, malformed: true,
			Message: fmt.Sprintf("response body larger than %d bytes", limit)}
	}
	return &response{status: hr.StatusCode, header: hr.Header, body: data, usedCredential: used}, nil
}

// json sends a call and decodes a 2xx answer into out (nil: ignore the
// body). Any other status becomes an *Error.
func (c *Client) json(ctx context.Context, cl call, out any) error {
	resp, err := c.do(ctx, cl)
	if err != nil {
		return err
	}
	return c.decode(cl, resp, out)
}

func (c *Client) decode(cl call, resp *response, out any) error {
	if resp.status < 200 || resp.status > 299 {
		return newStatusError(cl.method, cl.path, resp.status, resp.header, resp.body)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(resp.body, out); err != nil {
		return malformedError(cl.method, cl.path, resp.status, resp.body, err)
	}
	return nil
}

// envelope decodes {key: value} into out. A missing key is malformed.
func (c *Client) envelope(ctx context.Context, cl call, key string, out any) error {
	resp, err := c.do(ctx, cl)
	if err != nil {
		return err
	}
	return c.decodeEnvelope(cl, resp, key, out)
}

func (c *Client) decodeEnvelope(cl call, resp *response, key string, out any) error {
	var env map[string]json.RawMessage
	if err := c.decode(cl, resp, &env); err != nil {
		return err
	}
	return unwrap(cl, resp, env, key, out)
}

// lenientObject is object for a resource that may also come bare, as the
// object itself instead of {key: {...}}.
func lenientObject[T any](ctx context.Context, c *Client, cl call, key string) (*T, error) {
	resp, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	var env map[string]json.RawMessage
	if err := c.decode(cl, resp, &env); err != nil {
		return nil, err
	}
	var v T
	_, wrapped := env[key]
	_, bare := env[keyID]
	if bare && !wrapped {
		err = c.decode(cl, resp, &v)
	} else {
		err = unwrap(cl, resp, env, key, &v)
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// unwrap decodes env[key] into out. A missing key is malformed.
func unwrap(cl call, resp *response, env map[string]json.RawMessage, key string, out any) error {
	raw, ok := env[key]
	if !ok {
		return malformedError(cl.method, cl.path, resp.status, resp.body, fmt.Errorf("no %q in the answer", key))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return malformedError(cl.method, cl.path, resp.status, resp.body, fmt.Errorf("%s: %w", key, err))
	}
	return nil
}

// object sends a call whose answer is {key: {...}} and returns the object.
func object[T any](ctx context.Context, c *Client, cl call, key string) (*T, error) {
	var v T
	if err := c.envelope(ctx, cl, key, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// list sends a call whose answer is {key: [...]} and returns the items,
// empty rather than nil when the service sends null.
func list[T any](ctx context.Context, c *Client, cl call, key string) ([]T, error) {
	var out []T
	if err := c.envelope(ctx, cl, key, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = []T{}
	}
	return out, nil
}

// page decodes {key: [...], cursor} into a Page.
func page[T any](ctx context.Context, c *Client, cl call, key string) (Page[T], error) {
	resp, err := c.do(ctx, cl)
	if err != nil {
		return Page[T]{}, err
	}
	return decodePage[T](c, cl, resp, key)
}

// pageJSON reads a page as encoding/json's Unmarshal does: names matched
// whatever their case, a name given twice, invalid UTF-8 replaced.
var pageJSON = jsonv1.DefaultOptionsV1()

func decodePage[T any](c *Client, cl call, resp *response, key string) (Page[T], error) {
	if err := c.decode(cl, resp, nil); err != nil {
		return Page[T]{}, err
	}
	malformed := func(err error) (Page[T], error) {
		// An answer that is no JSON at all is told as such, whatever
		// part of it the pass below had reached.
		var env map[string]json.RawMessage
		if syntax := json.Unmarshal(resp.body, &env); syntax != nil {
			err = syntax
		}
		return Page[T]{}, malformedError(cl.method, cl.path, resp.status, resp.body, err)
	}
	// The page is read in one pass, its list decoded where it lies: a
	// page of tickets is some 100 KB, and a history of a million is
	// 20,000 pages. The decoder is encoding/json/v2's (the module that
	// mirrors it until Go 1.27 ships it) with v1's semantics, the same
	// reading as json.Unmarshal, at about half its cost: v1 scans each
	// value once to find its end and again to decode it.
	dec := jsontext.NewDecoder(bytes.NewBuffer(resp.body), pageJSON) // read in place, not copied
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return malformed(fmt.Errorf("the answer is not an object"))
	}
	var p Page[T]
	found := false
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return malformed(err)
		}
		switch tok.String() {
		case key:
			// Of a name given twice the last counts, as in any object.
			p.Items, found = nil, true
			if err := jsonv2.UnmarshalDecode(dec, &p.Items, pageJSON); err != nil {
				return malformed(fmt.Errorf("%s: %w", key, err))
			}
		case keyCursor:
			var cur *string
			if err := jsonv2.UnmarshalDecode(dec, &cur, pageJSON); err != nil {
				return malformed(fmt.Errorf("cursor: %w", err))
			}
			p.Cursor = ""
			if cur != nil {
				p.Cursor = *cur
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return malformed(err)
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil { // the closing brace
		return malformed(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return malformed(fmt.Errorf("data after the answer"))
	}
	if !found {
		return malformed(fmt.Errorf("no %q list in the answer", key))
	}
	if p.Items == nil {
		p.Items = []T{}
	}
	return p, nil
}

// Unanswered names the request an error left without an answer (the
// service unreachable, the connection dropped, a deadline passed): its
// method and path, and ok false when err is no such error.
func Unanswered(err error) (method, path string, ok bool) {
	var te *transportError
	if errors.As(err, &te) {
		return te.method, te.path, true
	}
	return "", "", false
}
