package sandbox

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox/delivery"
)

// One endpoint that never answers does not hold up the deliveries to
// another (issue 27, item 9): the healthy endpoint receives each event
// promptly while the dead one's deliveries are retried, and the outbox
// stays within its bound.
func TestDeadEndpointDoesNotDelayAHealthyOne(t *testing.T) {
	r := startTest(t, Config{Seed: 5})
	op := r.client(t, "operator")

	stop := make(chan struct{})
	var deadMu sync.Mutex
	tries := map[string]int{} // event id → requests received
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		if ev, err := api.ReadDelivery(b); err == nil {
			deadMu.Lock()
			tries[ev.ID]++
			deadMu.Unlock()
		}
		<-stop // never answers while the test runs
	}))
	t.Cleanup(dead.Close)
	t.Cleanup(func() { close(stop) })

	var mu sync.Mutex
	arrived := map[string]time.Time{} // ticket id → TICKET-CREATED received
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		if ev, err := api.ReadDelivery(b); err == nil && ev.Type() == "TICKET-CREATED" {
			mu.Lock()
			if _, seen := arrived[ev.Subject()]; !seen {
				arrived[ev.Subject()] = time.Now()
			}
			mu.Unlock()
		}
	}))
	t.Cleanup(healthy.Close)
	op.json(http.MethodPost, "/v2/notifications/webhooks/", map[string]any{"webhookUrl": dead.URL + "/dead", "subscriptions": []string{"*"}}, 200, nil)
	op.json(http.MethodPost, "/v2/notifications/webhooks/", map[string]any{"webhookUrl": healthy.URL + "/ok", "subscriptions": []string{"*"}}, 200, nil)

	const n = 12
	var worst time.Duration
	for i := range n {
		created := time.Now()
		id := pixTicket(op, "")
		deadline := created.Add(15 * time.Second)
		for {
			mu.Lock()
			at, ok := arrived[id]
			mu.Unlock()
			if ok {
				worst = max(worst, at.Sub(created))
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("ticket %d (%s): no delivery to the healthy endpoint within 15 s", i, id)
			}
			time.Sleep(5 * time.Millisecond)
		}
		if most, _ := r.Server.sender.Waiting(); most > delivery.MaxWaiting {
			t.Errorf("%d deliveries wait for one endpoint, over the bound %d", most, delivery.MaxWaiting)
		}
	}
	t.Logf("healthy endpoint beside a dead one: slowest of %d deliveries took %v", n, worst.Round(time.Millisecond))
	if worst > 2*time.Second {
		t.Errorf("the healthy endpoint waited %v for a delivery, want under 2 s", worst)
	}

	// The dead endpoint's first delivery is tried again.
	deadline := time.Now().Add(20 * time.Second)
	for {
		deadMu.Lock()
		most := 0
		for _, c := range tries {
			most = max(most, c)
		}
		deadMu.Unlock()
		if most >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no delivery to the dead endpoint was retried within 20 s (%d events tried)", len(tries))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
