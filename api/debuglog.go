package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// The debug trace (--debug, TESOURO_DEBUG=api) records every HTTP exchange
// with its method, full URL, status, latency, request id, and the headers
// and bodies of the request and of the answer; and every step of the
// reconciliation of a ticket creation whose answer was lost. It goes to a
// log/slog logger at debug level.
//
// Everything the trace writes passes through this file's redaction first,
// so that no secret reaches a log: a header, query parameter or JSON field
// whose name suggests a secret (secretName) has its value replaced by
// REDACTED, as has any value that is a private key PEM or a JWT wherever it
// stands, and the payment-session id of a path (a credential by itself: it
// lets anyone create a ticket). A body that is not JSON is redacted as text,
// and shown only when it is text.

// Redacted replaces a secret in the trace.
const Redacted = "REDACTED"

// maxTraceBody bounds how much of one body the trace shows.
const maxTraceBody = 16 << 10

// WithTrace sends the debug trace to l, at debug level. A nil l traces
// nothing.
func WithTrace(l *slog.Logger) Option {
	return func(c *Client) error { c.trace = l; return nil }
}

// callIDs numbers logical calls across all clients of the process.
var callIDs atomic.Uint64

type callIDKey struct{}

// withCallID gives a logical call its number, kept by the lookups it makes
// while reconciling so that the trace reads as one story.
func withCallID(ctx context.Context) (context.Context, uint64) {
	if id, ok := ctx.Value(callIDKey{}).(uint64); ok {
		return ctx, id
	}
	id := callIDs.Add(1)
	return context.WithValue(ctx, callIDKey{}, id), id
}

// exchange is one attempt of a call, as the trace records it.
type exchange struct {
	call, attempt int
	cl            call
	target        string      // the URL as sent
	sent          http.Header // the request's headers as signed
	body          []byte      // the request's body
	start         time.Time
	resp          *response
	err           error
}

// traceExchange records one attempt.
func (c *Client) traceExchange(ctx context.Context, x exchange) {
	if c.trace == nil {
		return
	}
	attrs := []slog.Attr{
		slog.Int("call", x.call), slog.Int("attempt", x.attempt+1),
		slog.String("method", x.cl.method), slog.String("url", RedactURL(x.target)),
	}
	if x.resp != nil {
		attrs = append(attrs, slog.Int("status", x.resp.status))
	} else {
		attrs = append(attrs, slog.String("status", "none"))
	}
	attrs = append(attrs, slog.Duration("latency", time.Since(x.start).Round(100*time.Microsecond)))
	if x.resp != nil {
		if id := x.resp.header.Get("X-Request-Id"); id != "" {
			attrs = append(attrs, slog.String("request_id", id))
		}
	}
	if x.err != nil {
		attrs = append(attrs, slog.String("error", redactText(x.err.Error())))
	}
	attrs = append(attrs, slog.Attr{Key: "request", Value: slog.GroupValue(messageAttrs(x.sent, "application/json", x.body)...)})
	if x.resp != nil {
		attrs = append(attrs, slog.Attr{Key: "response", Value: slog.GroupValue(messageAttrs(x.resp.header, x.resp.header.Get("Content-Type"), x.resp.body)...)})
	}
	c.trace.LogAttrs(ctx, slog.LevelDebug, "http", attrs...)
}

// traceStep records a reconciliation step.
func (c *Client) traceStep(ctx context.Context, format string, args ...any) {
	if c.trace == nil {
		return
	}
	_, id := withCallID(ctx)
	c.trace.LogAttrs(ctx, slog.LevelDebug, "reconcile", slog.Int("call", int(id)), slog.String("step", redactText(fmt.Sprintf(format, args...))))
}

// messageAttrs are the redacted headers and body of a request or answer.
func messageAttrs(h http.Header, contentType string, body []byte) []slog.Attr {
	var attrs []slog.Attr
	if len(h) > 0 {
		var hs []slog.Attr
		for _, k := range slices.Sorted(maps.Keys(h)) {
			v := strings.Join(h[k], ", ")
			if secretName(k) {
				v = Redacted
			}
			hs = append(hs, slog.String(k, v))
		}
		attrs = append(attrs, slog.Attr{Key: "header", Value: slog.GroupValue(hs...)})
	}
	if len(body) > 0 {
		attrs = append(attrs, slog.String("body", RedactBody(contentType, body)))
	}
	return attrs
}

// secretWords mark a name (of a header, a query parameter or a JSON field)
// whose value is a secret: API keys and signatures, bearer, access, refresh
// and e-mailed tokens, passwords, one-time codes, private keys, cookies,
// sessions. Names are compared in lower case without '-' and '_'. The list
// errs on the side of hiding: a PIX key or a quote token is hidden too.
var secretWords = []string{"password", "passwd", "secret", "signature", "token", "key", "session", "authorization", "cookie", "credential", "otp"}

// secretName reports whether a value called name must not be traced. A
// name that says when a secret changed or what kind it is
// (passwordUpdatedAt, pixKeyType) holds no secret.
func secretName(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(name))
	if strings.HasSuffix(n, "at") && (strings.HasSuffix(name, "At") || strings.HasSuffix(name, "_at")) || strings.HasSuffix(n, "type") {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// jwtLike matches a JSON web token; pemKey a private key in PEM. The
// patterns are compiled at their first use: only a traced client redacts,
// and compiling them cost every start of the process half a millisecond.
var (
	jwtLike = lazyRegexp(`eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)
	pemKey  = lazyRegexp(`(?s)-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(-----END [A-Z ]*PRIVATE KEY-----|$)`)
	// namedSecret matches name=value, name: value and "name":"value" where
	// the name is secret-looking, in text that is not JSON.
	namedSecret = lazyRegexp(`(?i)([A-Za-z0-9_.-]*(?:` + strings.Join(secretWords, "|") + `)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)([^\s"'&,;<>]+)`)
)

// lazyRegexp compiles expr at the first call of the function it returns.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// secretValue reports whether a string is a secret whatever it is called.
func secretValue(s string) bool {
	return jwtLike().MatchString(s) || pemKey().MatchString(s)
}

// redactText masks the secrets of free text: named values, JWTs and
// private keys.
func redactText(s string) string {
	s = pemKey().ReplaceAllString(s, Redacted)
	s = jwtLike().ReplaceAllString(s, Redacted)
	return namedSecret().ReplaceAllString(s, "${1}"+Redacted)
}

// RedactURL returns raw (an absolute URL, or a path with its query) with
// secret-looking query values masked and a payment-session id masked.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	head := ""
	if u.Scheme != "" || u.Host != "" {
		head = u.Scheme + "://" + u.Host
	}
	return head + maskedPath(u)
}

// maskedPath returns the path and query of u with secret-looking query
// values replaced, and the payment-session id (a credential by itself: it
// lets anyone create a ticket) masked.
func maskedPath(u *url.URL) string {
	q := u.Query()
	for k, vs := range q {
		if secretName(k) {
			q[k] = []string{Redacted}
			continue
		}
		for i, v := range vs {
			if secretValue(v) {
				vs[i] = Redacted
			}
		}
	}
	p := u.EscapedPath()
	if rest, ok := strings.CutPrefix(p, pathPaymentSession); ok {
		_, tail, _ := strings.Cut(rest, "/")
		p = pathPaymentSession + Redacted + "/" + tail
	}
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

// RedactBody returns a body as the trace shows it: JSON with every secret
// value masked, other text redacted as text, anything else as its size and
// type; at most maxTraceBody bytes of it.
func RedactBody(contentType string, body []byte) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	var out string
	switch {
	case json.Valid(body):
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return fmt.Sprintf("(%d bytes of JSON that cannot be read back: not shown)", len(body))
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(redactJSON(v)); err != nil {
			return fmt.Sprintf("(%d bytes of JSON: not shown)", len(body))
		}
		out = strings.TrimSuffix(b.String(), "\n")
	case utf8.Valid(body) && (mt == "" || strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "json") || strings.HasSuffix(mt, "x-www-form-urlencoded")):
		out = redactText(string(body))
	default:
		if mt == "" {
			mt = "binary data"
		}
		return fmt.Sprintf("(%d bytes of %s)", len(body), mt)
	}
	if len(out) > maxTraceBody {
		cut := maxTraceBody
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = fmt.Sprintf("%s…(%d bytes more)", out[:cut], len(out)-cut)
	}
	return out
}

// redactJSON masks the values of secret-looking fields, and secret-looking
// strings anywhere, in a decoded JSON value.
func redactJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if secretName(k) && e != nil {
				t[k] = Redacted
				continue
			}
			t[k] = redactJSON(e)
		}
	case []any:
		for i, e := range t {
			t[i] = redactJSON(e)
		}
	case string:
		if secretValue(t) {
			return Redacted
		}
	}
	return v
}
