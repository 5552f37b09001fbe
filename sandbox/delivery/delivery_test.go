package delivery

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// answer is one recorded answer to a try.
type answer struct {
	attempt uuid.UUID
	status  int
	at      time.Time
}

// testSender is a sender without an engine: what it records is kept.
func testSender(t *testing.T) (*Sender, func() []answer) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []answer
	s := &Sender{key: key, client: &http.Client{Timeout: TryTimeout}, pause: 20 * time.Millisecond, endpoints: map[string]*endpoint{}}
	s.record = func(d engine.Delivery, status int) {
		mu.Lock()
		got = append(got, answer{d.AttemptID, status, time.Now()})
		mu.Unlock()
	}
	return s, func() []answer {
		mu.Lock()
		defer mu.Unlock()
		return append([]answer(nil), got...)
	}
}

func run(t *testing.T, s *Sender) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		s.wg.Wait()
	})
	return ctx
}

// An endpoint that never answers holds at most MaxWaiting deliveries;
// past that the oldest waiting ones are dropped and recorded unanswered,
// while the one being tried stays.
func TestAnEndpointsQueueIsBounded(t *testing.T) {
	s, answers := testSender(t)
	stop := make(chan struct{})
	tried := make(chan struct{}, 1)
	dead := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		select {
		case tried <- struct{}{}:
		default:
		}
		<-stop
	}))
	t.Cleanup(dead.Close)
	t.Cleanup(func() { close(stop) })
	ctx := run(t, s)

	const extra = 50
	ids := make([]uuid.UUID, MaxWaiting+extra)
	s.enqueue(ctx, engine.Delivery{AttemptID: uuid.New(), URL: dead.URL, Body: []byte(`{}`)})
	<-tried // the first is being tried
	for i := range ids {
		ids[i] = uuid.New()
		s.enqueue(ctx, engine.Delivery{AttemptID: ids[i], URL: dead.URL, Body: []byte(`{}`)})
		if most, _ := s.Waiting(); most > MaxWaiting {
			t.Fatalf("%d deliveries wait for one endpoint, over %d", most, MaxWaiting)
		}
	}
	// The head plus MaxWaiting-1 wait; the extra+1 oldest behind the head
	// were dropped, each recorded with no answer.
	most, dropped := s.Waiting()
	if most != MaxWaiting || dropped != extra+1 {
		t.Errorf("waiting %d, dropped %d; want %d and %d", most, dropped, MaxWaiting, extra+1)
	}
	got := answers()
	if len(got) != extra+1 {
		t.Fatalf("%d recorded, want %d dropped", len(got), extra+1)
	}
	for i, a := range got {
		if a.attempt != ids[i] || a.status != 0 {
			t.Errorf("dropped #%d: %+v, want attempt %s unanswered", i, a, ids[i])
		}
	}
}

// A delivery the endpoint refuses is tried again after a pause that
// doubles, until it is accepted; one never accepted is tried Tries times.
func TestRefusedDeliveriesAreRetriedWithBackoff(t *testing.T) {
	s, answers := testSender(t)
	var mu sync.Mutex
	calls := 0
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n <= 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(flaky.Close)
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) }))
	t.Cleanup(refusing.Close)
	ctx := run(t, s)

	ok, never := uuid.New(), uuid.New()
	s.enqueue(ctx, engine.Delivery{AttemptID: ok, URL: flaky.URL, Body: []byte(`{}`)})
	s.enqueue(ctx, engine.Delivery{AttemptID: never, URL: refusing.URL, Body: []byte(`{}`)})
	deadline := time.Now().Add(10 * time.Second)
	of := func(id uuid.UUID) []answer {
		var out []answer
		for _, a := range answers() {
			if a.attempt == id {
				out = append(out, a)
			}
		}
		return out
	}
	for len(of(ok)) < 4 || len(of(never)) < Tries {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: %d and %d tries recorded", len(of(ok)), len(of(never)))
		}
		time.Sleep(10 * time.Millisecond)
	}
	a := of(ok)
	if a[0].status != 503 || a[2].status != 503 || a[3].status != 200 {
		t.Errorf("flaky endpoint's answers %+v, want 503 ×3 then 200", a)
	}
	if g1, g3 := a[1].at.Sub(a[0].at), a[3].at.Sub(a[2].at); g1 < s.pause || g3 < 4*s.pause {
		t.Errorf("pauses %v then %v; want at least %v, then doubled twice", g1, g3, s.pause)
	}
	time.Sleep(s.pause * 1 << Tries) // longer than one more pause would be
	if n := len(of(never)); n != Tries {
		t.Errorf("a never-accepted delivery was tried %d times, want %d", n, Tries)
	}
}

// TestRestKeepsToTheShares checks the rest of a signer while requests are
// served: never shorter than BusyShare of a core allows, then until the
// rest of the process spent what ProcessShare allows, and never longer
// than MinShare allows; where the process's CPU cannot be read, BusyShare
// alone.
func TestRestKeepsToTheShares(t *testing.T) {
	const took = time.Millisecond
	busyRest := 3 * took    // 1/BusyShare − 1
	processRest := 7 * took // 1/ProcessShare − 1
	longest := 49 * took    // 1/MinShare − 1
	for _, c := range []struct {
		name           string
		rested, others time.Duration
		measured, done bool
	}{
		{"within the core's share, the process busy", busyRest - took/10, 100 * took, true, false},
		{"past the core's share, the process spent enough", busyRest, processRest, true, true},
		{"past the core's share, the process spent too little", busyRest + 10*took, processRest - took/10, true, false},
		{"the process idle, at the longest rest", longest, 0, true, true},
		{"the process idle, before the longest rest", longest - took/10, 0, true, false},
		{"CPU not measured: the core's share alone", busyRest, 0, false, true},
		{"CPU not measured, within the core's share", busyRest - took/10, 0, false, false},
	} {
		if got := restDone(took, c.rested, c.others, c.measured); got != c.done {
			t.Errorf("%s: restDone = %v, want %v", c.name, got, c.done)
		}
	}
}

// TestRestEndsWhenNotBusy checks that a resting signer goes back to work
// as soon as requests stop being served, and does not rest at all when
// none are.
func TestRestEndsWhenNotBusy(t *testing.T) {
	s, _ := testSender(t)
	var mu sync.Mutex
	busy := true
	s.SetBusy(func() bool { mu.Lock(); defer mu.Unlock(); return busy })
	done := make(chan time.Duration)
	go func() {
		t0 := time.Now()
		s.rest(context.Background(), time.Second) // would rest 3 s or more while busy
		done <- time.Since(t0)
	}()
	select {
	case <-done:
		t.Fatal("the signer did not rest while requests were served")
	case <-time.After(50 * time.Millisecond):
	}
	mu.Lock()
	busy = false
	mu.Unlock()
	select {
	case d := <-done:
		if d > time.Second {
			t.Errorf("rested %v, past the end of the busy time", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the signer still rests after requests stopped")
	}
	t0 := time.Now()
	s.rest(context.Background(), time.Second)
	if d := time.Since(t0); d > 500*time.Millisecond {
		t.Errorf("rested %v with no request served", d)
	}
}
