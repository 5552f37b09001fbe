package httpapi

import (
	"container/list"
	"crypto/sha256"
	"net/http"
	"sync"
	"time"
)

// throttle is the login lockout's memory (§7.5): the recent failures per
// e-mail, bounded whatever is sent. An e-mail is kept as its SHA-256 (the
// login refuses one longer than validate.MaxEmail before it gets here),
// with at most maxLoginFailures failure times, in one of throttleShards
// tables of throttleShardCap e-mails each, the least recently failed
// evicted first. A failed login locks its e-mail's shard alone, never a
// lock every login shares.
//
// Eviction forgets the failures of an e-mail that failed least recently
// once throttleShards × throttleShardCap (16,384) others failed since: a
// sandbox's lockout is the service's rule to test against, not a defence.
type throttle struct {
	shards [throttleShards]throttleShard
}

const (
	throttleShards   = 16
	throttleShardCap = 1024
)

type throttleShard struct {
	mu  sync.Mutex
	m   map[[sha256.Size]byte]*list.Element
	lru list.List // of *throttleEntry, the most recently failed at the front
}

type throttleEntry struct {
	key   [sha256.Size]byte
	fails []time.Time // oldest first, at most maxLoginFailures
}

// shard is the locked table of mail (lower-cased) and its key; the caller
// unlocks it.
func (t *throttle) shard(mail string) (*throttleShard, [sha256.Size]byte) {
	k := sha256.Sum256([]byte(mail))
	sh := &t.shards[k[0]%throttleShards]
	sh.mu.Lock()
	return sh, k
}

// recent drops the failures of k older than the window and returns the
// rest. The caller holds sh.mu.
func (sh *throttleShard) recent(k [sha256.Size]byte, now time.Time) []time.Time {
	el, ok := sh.m[k]
	if !ok {
		return nil
	}
	e := el.Value.(*throttleEntry)
	kept := e.fails[:0]
	for _, at := range e.fails {
		if now.Sub(at) < loginWindow {
			kept = append(kept, at)
		}
	}
	if len(kept) == 0 {
		sh.lru.Remove(el)
		delete(sh.m, k)
		return nil
	}
	e.fails = kept
	return kept
}

// lockedOut is the 429 for a locked e-mail, or nil. The caller holds sh.mu.
func (sh *throttleShard) lockedOut(k [sha256.Size]byte, now time.Time) *apiError {
	f := sh.recent(k, now)
	if len(f) < maxLoginFailures {
		return nil
	}
	wait := f[len(f)-maxLoginFailures].Add(loginWindow).Sub(now)
	e := errf(http.StatusTooManyRequests, codeLoginLocked, "%d wrong passwords or e-mail tokens for this e-mail within 15 minutes; try again in %s", len(f), wait.Round(time.Second))
	e.retryAfter = wait
	return e
}

// failed counts a wrong password or e-mail token. The caller holds sh.mu.
func (sh *throttleShard) failed(k [sha256.Size]byte, now time.Time) {
	if sh.m == nil {
		sh.m = map[[sha256.Size]byte]*list.Element{}
	}
	f := sh.recent(k, now)
	if el, ok := sh.m[k]; ok {
		e := el.Value.(*throttleEntry)
		e.fails = append(f, now)
		if len(e.fails) > maxLoginFailures {
			e.fails = append(e.fails[:0], e.fails[len(e.fails)-maxLoginFailures:]...)
		}
		sh.lru.MoveToFront(el)
		return
	}
	if sh.lru.Len() >= throttleShardCap {
		old := sh.lru.Back()
		sh.lru.Remove(old)
		delete(sh.m, old.Value.(*throttleEntry).key)
	}
	sh.m[k] = sh.lru.PushFront(&throttleEntry{key: k, fails: []time.Time{now}})
}

// size is the number of e-mails remembered.
func (t *throttle) size() int {
	n := 0
	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()
		n += sh.lru.Len()
		sh.mu.Unlock()
	}
	return n
}
