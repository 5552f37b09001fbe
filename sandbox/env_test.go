package sandbox_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// clock is a fake clock the tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().UTC().Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// clockAuth signs with the api package's signer at the fake clock's time,
// so that tests may move the sandbox clock by hours.
type clockAuth struct {
	key *api.APIKeyAuth
	now func() time.Time
}

func (a clockAuth) Authenticate(r *api.Request) error {
	ts := strconv.FormatInt(a.now().UnixMilli(), 10)
	sig, err := a.key.Sign([]byte(ts), r.Method, r.RequestURI, r.Body)
	if err != nil {
		return err
	}
	r.Header.Set("X-API-Key", a.key.APIKey())
	r.Header.Set("X-API-Timestamp", ts)
	r.Header.Set("X-API-Signature", sig)
	return nil
}

// env is a sandbox on a fake clock served over real HTTP.
type env struct {
	t     testing.TB
	run   *sandbox.Running
	clock *clock
	subs  []uuid.UUID

	// stampMu guards lastStamp: see stamp.
	stampMu   sync.Mutex
	lastStamp time.Time
}

// stamp is the time a test request is signed at: the fake clock, moved a
// millisecond past the previous stamp when the clock has not moved, so
// that two identical requests at one frozen instant are two requests and
// not a replay (the sandbox accepts a signed message once).
func (e *env) stamp() time.Time {
	now := e.clock.Now()
	e.stampMu.Lock()
	defer e.stampMu.Unlock()
	if !now.After(e.lastStamp) && e.lastStamp.Sub(now) < 20*time.Second {
		now = e.lastStamp.Add(time.Millisecond)
	}
	e.lastStamp = now
	return now
}

func newEnv(t testing.TB, cfg sandbox.Config) *env {
	t.Helper()
	clk := newClock()
	if cfg.Now == nil {
		cfg.Now = clk.Now
	}
	run, err := sandbox.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	e := &env{t: t, run: run, clock: clk}
	for _, s := range run.Creds.SubAccounts {
		e.subs = append(e.subs, uuid.MustParse(s.ID))
	}
	return e
}

// as is an api client for a demo access, signing at the sandbox clock
// (e.stamp).
func (e *env) as(name string, opts ...api.Option) *api.Client {
	e.t.Helper()
	cred, ok := e.run.Creds.Access(name)
	if !ok {
		e.t.Fatalf("no demo access %q", name)
	}
	key, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	opts = append([]api.Option{api.WithTimeout(10 * time.Second)}, opts...)
	c, err := api.New(e.run.BaseURL, clockAuth{key: key, now: e.stamp}, opts...)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func (e *env) cred(name string) sandbox.AccessCredential {
	c, _ := e.run.Creds.Access(name)
	return c
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// wantCode checks that err is an *api.Error with that status and code.
func wantCode(t testing.TB, err error, status int, code string) *api.Error {
	t.Helper()
	var ae *api.Error
	if !errors.As(err, &ae) {
		t.Fatalf("want %d %s, got %v", status, code, err)
	}
	if ae.Status != status || ae.Code != code {
		t.Fatalf("want %d %s, got %d %s: %s", status, code, ae.Status, ae.Code, ae.Message)
	}
	if ae.Message == "" {
		t.Fatalf("%d %s without a message", status, code)
	}
	return ae
}

// errOf is the error of a call whose value does not matter.
func errOf[T any](_ T, err error) error { return err }

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func dec(s string) decimal.NullDecimal {
	return decimal.NullDecimal{Decimal: decimal.RequireFromString(s), Valid: true}
}

func statusOf(err error) int {
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae.Status
	}
	if err == nil {
		return http.StatusOK
	}
	return -1
}
