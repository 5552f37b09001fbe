package api_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tesouro-treasury/tesouro/api"
)

// The sandbox accepts a signed message once (401 REPLAYED), as the service
// does. A read that met a 5xx is retried, and the retry must be signed
// afresh: here the sandbox serves the first attempt (so it has seen that
// signature) and a proxy in front of it answers 503 instead; the retry then
// succeeds only if it carries a new timestamp and signature.
func TestRetryAfter5xxIsSignedAfresh(t *testing.T) {
	r := startSandbox(t, "")
	var mu sync.Mutex
	var stamps, sigs []string
	var statuses []int
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rec := httptest.NewRecorder()
		r.Handler().ServeHTTP(rec, req)
		mu.Lock()
		defer mu.Unlock()
		stamps = append(stamps, req.Header.Get("X-API-Timestamp"))
		sigs = append(sigs, req.Header.Get("X-API-Signature"))
		statuses = append(statuses, rec.Code)
		if len(stamps) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(proxy.Close)

	ac, _ := r.Creds.Access("operator") // Ed25519: the same message always signs the same
	auth, err := api.NewAPIKeyAuth(ac.APIKey, []byte(ac.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(proxy.URL, auth, api.WithRetryPolicy(api.RetryPolicy{MaxRetries: 2, BaseDelay: 0, MaxDelay: 0}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Balances(context.Background(), [16]byte{}); err != nil {
		t.Fatalf("read after one 503: %v (sandbox answered %v)", err, statuses)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(stamps) != 2 || statuses[0] != 200 || statuses[1] != 200 {
		t.Fatalf("attempts %d, sandbox statuses %v; want the first served (then hidden by the 503) and the retry served", len(stamps), statuses)
	}
	if stamps[0] == stamps[1] || sigs[0] == sigs[1] {
		t.Errorf("the retry reused timestamp %s / its signature", stamps[0])
	}
}

// Identical reads in a burst (a screen and its prefetch) never share a
// signed message, even within one millisecond.
func TestBurstOfIdenticalReadsIsNotAReplay(t *testing.T) {
	r := startSandbox(t, "")
	c := clientAs(t, r, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Balances(ctx, [16]byte{})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Go's transport re-sends a read, headers and all, when a reused
// connection breaks before the answer; the service then says REPLAYED.
// Here a proxy plays that: it delivers the first attempt twice and returns
// the second answer. The client signs the read again and gets its answer;
// a write refused as a replay is never re-sent.
func TestReadRefusedAsReplayIsSignedAgain(t *testing.T) {
	r := startSandbox(t, "")
	var mu sync.Mutex
	seen := map[string]int{}
	var writes int
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		serve := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			cp := req.Clone(req.Context())
			cp.Body = io.NopCloser(bytes.NewReader(body))
			r.Handler().ServeHTTP(rec, cp)
			return rec
		}
		mu.Lock()
		first := seen[req.Method] == 0
		seen[req.Method]++
		if req.Method != http.MethodGet {
			writes++
		}
		mu.Unlock()
		rec := serve()
		if first {
			rec = serve() // the same bytes again
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(proxy.Close)
	ac, _ := r.Creds.Access("operator")
	auth, err := api.NewAPIKeyAuth(ac.APIKey, []byte(ac.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(proxy.URL, auth, api.WithRetryPolicy(api.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Balances(context.Background(), [16]byte{}); err != nil {
		t.Fatalf("read: %v", err)
	}
	mu.Lock()
	if seen[http.MethodGet] != 2 {
		t.Errorf("%d read attempts, want the replayed one and a fresh one", seen[http.MethodGet])
	}
	mu.Unlock()
	_, err = c.RegisterWebhook(context.Background(), api.RegisterWebhookRequest{WebhookURL: "https://hooks.example/x", Subscriptions: []string{"TICKET"}})
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Code != api.CodeReplayed {
		t.Fatalf("write refused as a replay: %v, want the REPLAYED error", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if writes != 1 {
		t.Errorf("the write was sent %d times by the client, want 1", writes)
	}
}

// TestTheNextProcessIsNotAReplay: a burst of identical reads (a screen
// polling its balances from 8 goroutines), then the same read by another
// process of the same access. The first process's stamps never ran ahead of
// the clock, so the second one's are its own: not one is refused as a
// replay.
func TestTheNextProcessIsNotAReplay(t *testing.T) {
	r := startSandbox(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var replays atomic.Int64
	count := api.WithTrace(slog.New(statusCounter{status: http.StatusUnauthorized, n: &replays}))
	first := clientAs(t, r, "operator", count)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 250 {
				if _, err := first.Balances(ctx, uuid.Nil); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	second := clientAs(t, r, "operator", count) // a new signer: another process
	for i := range 200 {
		if _, err := second.Balances(ctx, uuid.Nil); err != nil {
			t.Fatalf("read %d of the next process: %v", i, err)
		}
	}
	if n := replays.Load(); n != 0 {
		t.Errorf("%d reads were refused as replays", n)
	}
}

// statusCounter is a trace handler that counts the exchanges answered with
// status.
type statusCounter struct {
	status int
	n      *atomic.Int64
}

func (statusCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h statusCounter) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "status" && a.Value.Kind() == slog.KindInt64 && a.Value.Int64() == int64(h.status) {
			h.n.Add(1)
		}
		return true
	})
	return nil
}
func (h statusCounter) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h statusCounter) WithGroup(string) slog.Handler      { return h }
