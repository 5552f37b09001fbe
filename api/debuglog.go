package api

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// LogEvent is one line of the client's debug log: an HTTP exchange, or a
// step of the reconciliation of a ticket creation whose answer was lost.
// It carries no header and no body, so a signature, an API key, a bearer
// token, a refresh token or a password cannot reach the log through it;
// query values whose names suggest a secret are masked as well.
type LogEvent struct {
	Call      uint64        // numbers the logical call; its retries share it
	Attempt   int           // 1 for the first try
	Method    string        //
	Path      string        // path and query as sent, secrets masked
	Status    int           // 0 when no answer arrived
	Latency   time.Duration //
	RequestID string        // the service's X-Request-Id, when it sends one
	Err       string        // why no answer arrived
	Step      string        // set for reconciliation steps instead of an exchange
}

// String renders the event as one log line.
func (e LogEvent) String() string {
	if e.Step != "" {
		return fmt.Sprintf("call=%d reconcile: %s", e.Call, e.Step)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "call=%d attempt=%d %s %s", e.Call, e.Attempt, e.Method, e.Path)
	if e.Status != 0 {
		fmt.Fprintf(&b, " status=%d", e.Status)
	} else {
		b.WriteString(" status=none")
	}
	fmt.Fprintf(&b, " latency=%s", e.Latency.Round(100*time.Microsecond))
	if e.RequestID != "" {
		fmt.Fprintf(&b, " request-id=%s", e.RequestID)
	}
	if e.Err != "" {
		fmt.Fprintf(&b, " error=%q", e.Err)
	}
	return b.String()
}

// WithLogger reports every HTTP exchange and every reconciliation step to
// log (the --debug log). log must be safe for concurrent use.
func WithLogger(log func(LogEvent)) Option {
	return func(c *Client) error { c.logger = log; return nil }
}

// callIDs numbers logical calls across all clients of the process.
var callIDs atomic.Uint64

type callIDKey struct{}

// withCallID gives a logical call its number, kept by the lookups it makes
// while reconciling so that the log reads as one story.
func withCallID(ctx context.Context) (context.Context, uint64) {
	if id, ok := ctx.Value(callIDKey{}).(uint64); ok {
		return ctx, id
	}
	id := callIDs.Add(1)
	return context.WithValue(ctx, callIDKey{}, id), id
}

// logExchange reports one attempt.
func (c *Client) logExchange(id uint64, attempt int, cl call, target string, start time.Time, resp *response, err error) {
	if c.logger == nil {
		return
	}
	e := LogEvent{Call: id, Attempt: attempt + 1, Method: cl.method, Path: maskedPath(target), Latency: time.Since(start)}
	if resp != nil {
		e.Status = resp.status
		e.RequestID = resp.header.Get("X-Request-Id")
	}
	if err != nil {
		e.Err = err.Error()
	}
	c.logger(e)
}

// logStep reports a reconciliation step.
func (c *Client) logStep(ctx context.Context, format string, args ...any) {
	if c.logger == nil {
		return
	}
	_, id := withCallID(ctx)
	c.logger(LogEvent{Call: id, Step: fmt.Sprintf(format, args...)})
}

// secretParams are query parameter names whose values are masked.
var secretParams = []string{"token", "password", "secret", "signature", "key", "session"}

// maskedPath returns the path and query of target with secret-looking query
// values replaced, and the payment-session id (a credential by itself: it
// lets anyone create a ticket) masked.
func maskedPath(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return "(unparsable URL)"
	}
	q := u.Query()
	for k := range q {
		lk := strings.ToLower(k)
		for _, s := range secretParams {
			if strings.Contains(lk, s) {
				q[k] = []string{"REDACTED"}
				break
			}
		}
	}
	p := u.EscapedPath()
	if rest, ok := strings.CutPrefix(p, pathPaymentSession); ok {
		_, tail, _ := strings.Cut(rest, "/")
		p = pathPaymentSession + "REDACTED/" + tail
	}
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}
