// Package delivery sends the webhook deliveries the engine queues once
// their events are committed: one signed POST each (RSA-PSS SHA-256 over
// the raw body, base64 in the signature header, spec/service.md §6), and
// records what the receiver answered. Each endpoint (webhook URL) has its
// own queue, sent in order by a goroutine of its own while it holds
// deliveries, so a slow or dead endpoint delays only itself: a delivery
// it does not accept is tried again with a growing pause, up to Tries
// times, and at most MaxWaiting deliveries wait for one endpoint (past
// that the oldest waiting is dropped, its attempt left unanswered). A
// delivery to the sandbox's own receiver on a loopback address is served
// in process, so the demo webhooks work without any network. Verify is
// the receiver's side of the signature.
//
// Signing (RSA, about a millisecond of a core each) is the costly part,
// and it is kept off the request path and bounded: a body is signed once,
// for every webhook that hears its event and every try; at most Signers
// signatures are computed at a time, whatever the number of endpoints;
// and while the interface is serving requests (the busy function of
// SetBusy) the signers keep to BusyShare of one core and to ProcessShare
// of the CPU the process gets (on a machine shared with other work the
// process may get much less than its cores), so that a burst of requests
// is answered at the rate of the requests alone and its deliveries
// follow, in order, as soon as the burst leaves the room.
package delivery

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// SignatureHeader carries a delivery's signature.
const SignatureHeader = "signature"

// The delivery policy [decided: the service documents none].
const (
	// Tries is how many times a delivery is sent before it is given up:
	// an answer outside 2xx, or none within TryTimeout, is a failure.
	Tries = 6
	// TryTimeout bounds one try.
	TryTimeout = 5 * time.Second
	// FirstPause is the pause after a first failure; it doubles after each
	// one, up to MaxPause.
	FirstPause = 500 * time.Millisecond
	MaxPause   = 30 * time.Second
	// MaxWaiting is how many deliveries may wait for one endpoint; a new
	// one past it drops the oldest waiting (not the one being tried). It
	// holds the deliveries of a burst of several thousand tickets while
	// signing keeps to BusyShare (a body is a few kB).
	MaxWaiting = 16384
	// BusyShare is the share of one core the signers take while requests
	// are being served.
	BusyShare = 0.25
	// ProcessShare is the most of the process's CPU the signers take while
	// requests are being served: a signer that signed rests until the
	// rest of the process spent (1/ProcessShare − 1) times the signature's
	// time. On an idle machine the process's two cores make this about
	// BusyShare of one; on a machine shared with other processes it keeps
	// the signers from taking most of the little CPU the process gets.
	ProcessShare = 0.125
	// MinShare is the least share of one core the signers keep while
	// requests are served: a signer never rests longer than this allows,
	// so deliveries advance even while requests in flight spend no CPU.
	MinShare = 0.02
)

// Signers is how many deliveries are signed at once: half the cores
// (at least one).
var Signers = max(1, runtime.GOMAXPROCS(0)/2)

// Sender sends an engine's deliveries.
type Sender struct {
	eng *engine.Engine
	key *rsa.PrivateKey
	// receiver is the sandbox's own receiver, served in process.
	receiver http.Handler
	client   *http.Client
	// record notes what a try was answered (0: nothing, or dropped
	// unsent): the engine's Answered.
	record func(engine.Delivery, int)
	// pause is FirstPause (shorter in tests).
	pause time.Duration
	// signers holds a token per signature being computed (Signers);
	// busy reports whether requests are being served (SetBusy).
	signers chan struct{}
	busy    func() bool

	mu        sync.Mutex
	endpoints map[string]*endpoint
	dropped   int
	wg        sync.WaitGroup
}

// endpoint is the queue of one webhook URL; its head is being tried while
// busy.
type endpoint struct {
	queue []engine.Delivery
	busy  bool
}

// New is a sender of eng's deliveries, signed with key; receiver serves
// the ones addressed to the sandbox's own receiver on loopback.
func New(eng *engine.Engine, key *rsa.PrivateKey, receiver http.Handler) *Sender {
	s := &Sender{eng: eng, key: key, receiver: receiver, client: &http.Client{Timeout: TryTimeout},
		pause: FirstPause, endpoints: map[string]*endpoint{}, signers: make(chan struct{}, Signers)}
	s.record = eng.Answered
	return s
}

// SetBusy gives the function that reports whether the interface is
// serving requests: while it is, signing keeps to BusyShare of a core.
// Call it before Run.
func (s *Sender) SetBusy(busy func() bool) { s.busy = busy }

// Run takes deliveries as they are queued until ctx is done, into their
// endpoint's queue; it returns when every endpoint's goroutine stopped.
func (s *Sender) Run(ctx context.Context) {
	out := s.eng.Outbox()
	for {
		for d, ok := out.Pop(); ok; d, ok = out.Pop() {
			s.enqueue(ctx, d)
		}
		select {
		case <-ctx.Done():
			s.wg.Wait()
			return
		case <-out.Wake():
		}
	}
}

// enqueue adds d to its endpoint's queue, dropping the oldest waiting
// delivery when MaxWaiting already wait, and starts the endpoint's
// goroutine if it is idle.
func (s *Sender) enqueue(ctx context.Context, d engine.Delivery) {
	s.mu.Lock()
	ep := s.endpoints[d.URL]
	if ep == nil {
		ep = &endpoint{}
		s.endpoints[d.URL] = ep
	}
	var drop engine.Delivery
	dropping := len(ep.queue) >= MaxWaiting
	if dropping {
		i := 0
		if ep.busy {
			i = 1 // the head is being tried
		}
		drop = ep.queue[i]
		ep.queue = slices.Delete(ep.queue, i, i+1)
		s.dropped++
	}
	ep.queue = append(ep.queue, d)
	start := !ep.busy
	ep.busy = true
	s.mu.Unlock()
	if dropping {
		s.record(drop, 0)
	}
	if start {
		s.wg.Add(1)
		go s.drain(ctx, d.URL, ep)
	}
}

// drain sends an endpoint's deliveries in order until its queue is empty
// (or ctx is done).
func (s *Sender) drain(ctx context.Context, u string, ep *endpoint) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(ep.queue) == 0 || ctx.Err() != nil {
			ep.busy = false
			if len(ep.queue) == 0 {
				delete(s.endpoints, u)
			}
			s.mu.Unlock()
			return
		}
		d := ep.queue[0]
		s.mu.Unlock()
		s.deliver(ctx, d)
		s.mu.Lock()
		ep.queue[0] = engine.Delivery{}
		ep.queue = ep.queue[1:]
		s.mu.Unlock()
	}
}

// deliver tries d until the endpoint accepts it (2xx) or Tries failed,
// pausing longer after each failure, and records each answer.
func (s *Sender) deliver(ctx context.Context, d engine.Delivery) {
	sig := s.signature(ctx, d)
	if ctx.Err() != nil {
		return
	}
	pause := s.pause
	for try := 1; ; try++ {
		status := s.send(ctx, d, sig)
		if ctx.Err() != nil {
			return
		}
		s.record(d, status)
		if status >= 200 && status < 300 || try == Tries {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, MaxPause)
	}
}

// signature is d's signature, computed once for its body (d.Sig): by one
// of the Signers, which, while the interface is busy, then rests so as to
// spend no more than BusyShare of a core signing.
func (s *Sender) signature(ctx context.Context, d engine.Delivery) string {
	sign := func() string {
		if s.signers == nil {
			return Sign(s.key, d.Body)
		}
		select {
		case s.signers <- struct{}{}:
		case <-ctx.Done():
			return ""
		}
		defer func() { <-s.signers }()
		t0 := time.Now()
		sig := Sign(s.key, d.Body)
		s.rest(ctx, time.Since(t0))
		return sig
	}
	if d.Sig != nil {
		return d.Sig.Of(sign)
	}
	return sign()
}

// restStep is how often a resting signer looks again at the process's CPU
// and whether requests are still served.
const restStep = 2 * time.Millisecond

// rest keeps a signer whose last signature took took to the shares
// of BusyShare, ProcessShare and MinShare while the interface is busy
// (restDone); it returns at once when it is not, and as soon as it stops
// being busy.
func (s *Sender) rest(ctx context.Context, took time.Duration) {
	if s.busy == nil || !s.busy() {
		return
	}
	start := time.Now()
	cpu0, measured := processCPU()
	tick := time.NewTicker(min(restStep, max(took, 100*time.Microsecond)))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		cpu, _ := processCPU()
		if !s.busy() || restDone(took, time.Since(start), cpu-cpu0, measured) {
			return
		}
	}
}

// restDone reports whether a signer whose signature took took has
// rested enough after rested of wall time, while the process spent
// others of CPU (measured: whether the process's CPU can be read; where it
// cannot, BusyShare alone decides): at least what keeps it to BusyShare of
// a core, then until the process spent what keeps it to ProcessShare of
// the process's CPU, and never more than what keeps it to MinShare.
func restDone(took, rested, others time.Duration, measured bool) bool {
	scale := func(share float64) time.Duration { return time.Duration(float64(took) * (1/share - 1)) }
	switch {
	case rested >= scale(MinShare):
		return true
	case rested < scale(BusyShare):
		return false
	}
	return !measured || others >= scale(ProcessShare)
}

// Waiting is how many deliveries wait for the endpoint that has the most,
// and how many were dropped for an endpoint that had MaxWaiting.
func (s *Sender) Waiting() (most, dropped int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ep := range s.endpoints {
		most = max(most, len(ep.queue))
	}
	return most, s.dropped
}

// Sign is a delivery's signature: RSA-PSS SHA-256 over the raw body,
// base64 (standard).
func Sign(key *rsa.PrivateKey, body []byte) string {
	h := sha256.Sum256(body)
	sig, err := rsa.SignPSS(rand.Reader, key, crypto.SHA256, h[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(sig)
}

// Verify reports whether signature (the header's value) signs body with
// the key pub is the public half of.
func Verify(pub *rsa.PublicKey, body []byte, signature string) bool {
	sig, err := base64.StdEncoding.DecodeString(signature)
	h := sha256.Sum256(body)
	return err == nil && rsa.VerifyPSS(pub, crypto.SHA256, h[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) == nil
}

// send posts one delivery, signed sig, and returns the HTTP status (0: no
// answer).
func (s *Sender) send(ctx context.Context, d engine.Delivery, sig string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, sig)
	req.Header.Set("User-Agent", "tesouro-sandbox-webhooks")
	if u, err := url.Parse(d.URL); err == nil && u.Path == engine.ReceiverPath && IsLoopback(u.Hostname()) {
		req.RequestURI = u.RequestURI()
		status, _, _ := ServeInProcess(s.receiver, req)
		return status
	}
	ctx, cancel := context.WithTimeout(ctx, TryTimeout)
	defer cancel()
	resp, err := s.client.Do(req.WithContext(ctx))
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// IsLoopback reports whether a host is this machine's.
func IsLoopback(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
