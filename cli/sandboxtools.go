package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

// requestLog wraps a sandbox's handler to print one line per request:
// time, method, path (no query: it may name people), status, latency and
// which demo access made it. Credentials are never printed: the API key is
// only looked up to name its access.
func requestLog(h http.Handler, w io.Writer, creds sandbox.Credentials) http.Handler {
	names := map[string]string{}
	for _, a := range creds.Accesses {
		names[a.APIKey] = a.Name
	}
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: rw, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		access := "-"
		switch {
		case r.Header.Get("X-API-Key") != "":
			access = names[r.Header.Get("X-API-Key")]
			if access == "" {
				access = "unknown-key"
			}
		case strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "):
			access = "bearer"
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "%s %-6s %s %d %s access=%s\n", start.Format("15:04:05.000"), r.Method, r.URL.Path, rec.status,
			time.Since(start).Round(100*time.Microsecond), access)
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Forwarder relays every webhook delivery of a sandbox to a local URL, as
// the sandbox signed it (body and signature header untouched), and prints
// one line per delivery. It registers one webhook for every event ("*"),
// which hears the main account and every sub-account, pointing at a relay
// on loopback at relayPath. The webhook is removed when the forwarder
// closes, and one left by a forwarder that could not close (a kill, a
// crash) is taken over by the next one rather than doubled: a sandbox with
// --state keeps its webhooks across restarts.
type Forwarder struct {
	to     string
	out    io.Writer
	hc     *http.Client
	ln     net.Listener
	srv    *http.Server
	mu     sync.Mutex
	client *api.Client
	hookID string
}

// relayPath is the path of the relay's URL, by which a forwarder knows its
// webhook among the account's.
const relayPath = "/tesouro-forward-relay"

// forward starts relaying the deliveries of the sandbox whose credentials
// are creds to the URL to, printing on fac's stdout. The operator demo
// access registers the webhooks.
func forward(ctx context.Context, fac *Factory, creds sandbox.Credentials, to string) (*Forwarder, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("--forward-to: relay listener: %w", err)
	}
	f := &Forwarder{to: to, out: fac.Stdout, hc: &http.Client{Timeout: 10 * time.Second}, ln: ln}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.relay), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = f.srv.Serve(ln) }()

	acc, ok := creds.Access("operator")
	if !ok {
		f.srv.Close()
		return nil, fmt.Errorf("--forward-to: the sandbox has no operator access to register webhooks with")
	}
	conn, err := fac.demoConn(creds.BaseURL, acc, nil)
	if err != nil {
		f.srv.Close()
		return nil, err
	}
	relay := "http://" + ln.Addr().String() + relayPath
	f.client = conn.Client
	if f.hookID, err = f.claim(ctx, relay); err != nil {
		f.srv.Close()
		return nil, fmt.Errorf("--forward-to: register the relay webhook: %w", err)
	}
	return f, nil
}

// claim points the relay webhook at relay: one left by an earlier
// forwarder is reused (any more are deleted), else one is registered. One
// webhook of the main account hears every sub-account.
func (f *Forwarder) claim(ctx context.Context, relay string) (string, error) {
	hooks, err := f.client.ListWebhooks(ctx)
	if err != nil {
		return "", err
	}
	var mine []string
	for _, h := range hooks {
		if u, err := url.Parse(h.URL); err == nil && u.Path == relayPath && keystore.Loopback(u.Hostname()) {
			mine = append(mine, h.ID)
		}
	}
	if len(mine) == 0 {
		return f.client.RegisterWebhook(ctx, api.RegisterWebhookRequest{WebhookURL: relay, Subscriptions: []string{"*"}})
	}
	for _, id := range mine[1:] {
		if err := f.client.DeleteWebhook(ctx, id); err != nil {
			return "", err
		}
	}
	return mine[0], f.client.UpdateWebhook(ctx, api.UpdateWebhookRequest{WebhookID: mine[0], WebhookURL: relay, Subscriptions: []string{"*"}})
}

// Close removes the relay webhook and stops the relay. It must run while
// the sandbox still serves.
func (f *Forwarder) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := f.client.DeleteWebhook(ctx, f.hookID)
	if cerr := f.srv.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--forward-to: remove the relay webhook %s: %w", f.hookID, err)
	}
	return nil
}

func (f *Forwarder) relay(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	// The line names the event in either shape (wrapped, §8.6, or flat);
	// the body is relayed as it came whatever it reads as.
	what := "(not a webhook event)"
	if ev, err := api.ReadDelivery(body); err == nil {
		// Names from outside are shown escaped (termsafe), never obeyed.
		what = termsafe.Text(ev.Subscription + " " + ev.Type() + " " + ev.ID)
	}
	start := time.Now()
	status, result := f.deliver(r.Context(), r.Header, body)
	f.mu.Lock()
	fmt.Fprintf(f.out, "%s  --> %s [%s] %s (%s)\n", start.Format("15:04:05"), what, f.to, result, time.Since(start).Round(time.Millisecond))
	f.mu.Unlock()
	// The sandbox records what the local endpoint answered.
	w.WriteHeader(status)
}

func (f *Forwarder) deliver(ctx context.Context, h http.Header, body []byte) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.to, bytes.NewReader(body))
	if err != nil {
		return http.StatusBadGateway, "error: " + err.Error()
	}
	for _, k := range []string{"Content-Type", "Signature", "User-Agent"} {
		if v := h.Get(k); v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return http.StatusBadGateway, "error: " + err.Error()
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, fmt.Sprintf("%d", resp.StatusCode)
}
