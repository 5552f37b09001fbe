package httpapi

import (
	"crypto/sha256"
	"net/http"
	"sync"
	"time"
)

// Replay (spec/service.md §7.5): an API-key signature is accepted once.
// A captured request sent again within the skew window, when its
// timestamp still passes, is 401 REPLAYED; past the window the timestamp
// check refuses it anyway, so only that window needs remembering.
//
// What is remembered is the signed message (key, timestamp, method, URI,
// body), not the signature bytes: an ECDSA signature can be re-encoded
// (s or n−s, DER or raw r‖s) into other bytes that verify the same
// message, and that must not make a captured request new again.
//
// The memory is not stored: a restart forgets it, which re-opens at most
// the 30 s window of requests signed before the restart.

const codeReplayed = "REPLAYED"

type replayGuard struct {
	// off lets the throughput benchmarks send requests signed ahead of
	// time, many per millisecond of a frozen clock; nothing else sets it.
	off  bool
	mu   sync.Mutex
	seen map[[sha256.Size]byte]time.Time // message hash → its timestamp
	// order is the hashes by arrival, so that expired ones are dropped
	// without scanning the map on every request.
	order []replayEntry
}

type replayEntry struct {
	sum [sha256.Size]byte
	ts  time.Time
}

// admit records the message signed at ts and reports whether it is new.
// Entries whose timestamp left the window (now − maxSkew) are dropped.
func (g *replayGuard) admit(key string, tsRaw, method, uri string, body []byte, ts, now time.Time) bool {
	if g.off {
		return true
	}
	h := sha256.New()
	// Lengths between the parts, so that no two splits hash alike.
	for _, part := range [][]byte{[]byte(key), []byte(tsRaw), []byte(method), []byte(uri)} {
		h.Write([]byte{byte(len(part) >> 8), byte(len(part))})
		h.Write(part)
	}
	h.Write(body)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.seen == nil {
		g.seen = map[[sha256.Size]byte]time.Time{}
	}
	g.expire(now)
	if _, dup := g.seen[sum]; dup {
		return false
	}
	g.seen[sum] = ts
	g.order = append(g.order, replayEntry{sum, ts})
	return true
}

// expire forgets the messages whose timestamps the skew check now refuses
// by itself. Arrival order is close to timestamp order; an entry that
// arrived early with a later timestamp only delays the ones behind it.
func (g *replayGuard) expire(now time.Time) {
	cut := now.Add(-maxSkew)
	n := 0
	for n < len(g.order) && g.order[n].ts.Before(cut) {
		delete(g.seen, g.order[n].sum)
		n++
	}
	if n > 0 {
		g.order = append(g.order[:0], g.order[n:]...)
	}
}

func replayed() *apiError {
	return errf(http.StatusUnauthorized, codeReplayed, "this signature was already used: each request needs a fresh X-API-Timestamp and X-API-Signature (re-sign a retry)")
}
