package api

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
)

// A client given no transport keeps a burst's connections for the next
// burst: four requests at once, twice, open four connections, not six
// (net/http's default keeps two and would open two more for the second
// burst, each a TLS handshake against the live service).
func TestBurstsReuseTheirConnections(t *testing.T) {
	var opened atomic.Int32
	var inFlight sync.WaitGroup
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inFlight.Done()
		<-release // every request of the burst is under way at once
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ticket":` + ticketJSON + `}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	auth, _ := edKey(t)
	c, err := New(srv.URL, auth)
	if err != nil {
		t.Fatal(err)
	}
	const burst = 4
	for round := range 2 {
		release = make(chan struct{})
		inFlight.Add(burst)
		var done sync.WaitGroup
		for range burst {
			done.Go(func() {
				if _, err := c.GetTicket(t.Context(), uuid.Nil, uuid.MustParse(ticketID)); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		inFlight.Wait()
		close(release)
		done.Wait()
	}
	if n := opened.Load(); n != burst {
		t.Fatalf("two bursts of %d requests opened %d connections, want %d", burst, n, burst)
	}
}
