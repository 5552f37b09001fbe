package sandbox

import (
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// While the demo history is built, the embedded dashboard's first
// questions (who it is, which accounts, their balances) are answered at
// once, and the answers are what the built sandbox answers; a list that
// needs the history waits for it.
func TestEarlyAnswersAreTheBuiltSandboxs(t *testing.T) {
	at := time.Date(2026, 3, 2, 15, 4, 5, 0, time.UTC)
	hold := make(chan struct{})
	var release sync.Once
	r, err := Start(Config{Seed: 1, Now: func() time.Time { return at }, AnswerBeforeHistory: true, HoldHistory: hold}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	t.Cleanup(func() { release.Do(func() { close(hold) }) })

	// Each request is signed a millisecond after the last (the server's
	// clock stands still), so that asking again is not a replay.
	var tick atomic.Int64
	clientClock := func() time.Time { return at.Add(time.Duration(tick.Add(1)) * time.Millisecond) }
	paths := []string{"/v2/account/access-info", "/v2/accounts", "/v2/account/balances"}
	for _, s := range r.Creds.SubAccounts {
		paths = append(paths, "/v2/account/balances?subAccountId="+url.QueryEscape(s.ID))
	}
	ask := func() map[string]string {
		out := map[string]string{}
		for _, a := range r.Creds.Accesses {
			c := newRawClient(t, r.BaseURL, a, clientClock)
			for _, p := range paths {
				status, body := c.do("GET", p, nil)
				out[a.Name+" "+p] = string(rune('0'+status/100)) + " " + string(body)
			}
		}
		return out
	}

	op, _ := r.Creds.Access("operator")
	tickets := make(chan int, 1)
	go func() {
		status, _ := newRawClient(t, r.BaseURL, op, clientClock).do("GET", "/v2/account/tickets/", nil)
		tickets <- status
	}()
	early := ask()
	select {
	case status := <-tickets:
		t.Fatalf("the ticket list was answered (%d) while the history was held", status)
	default:
	}
	for _, p := range paths {
		if v := early["operator "+p]; v[0] != '2' {
			t.Errorf("operator %s while the history is held: %s", p, v)
		}
	}

	release.Do(func() { close(hold) })
	if err := r.seeded(); err != nil {
		t.Fatal(err)
	}
	if status := <-tickets; status != 200 {
		t.Errorf("the ticket list asked during the history: %d", status)
	}
	built := ask()
	for k, v := range early {
		if built[k] != v {
			t.Errorf("%s: answered %s while the history was built, %s once built", k, v, built[k])
		}
	}
}
