package httpapi

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// The lockout's memory stays at its capacity however many e-mails fail,
// evicting the least recently failed, and still locks an e-mail that keeps
// failing among them.
func TestThrottleIsBoundedAndLocks(t *testing.T) {
	var th throttle
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fail := func(mail string) *apiError {
		sh, k := th.shard(mail)
		defer sh.mu.Unlock()
		if err := sh.lockedOut(k, now); err != nil {
			return err
		}
		sh.failed(k, now)
		return nil
	}
	capacity := throttleShards * throttleShardCap
	for i := range 3 * capacity {
		if i%100 == 0 {
			// One e-mail fails all along: it stays the most recent.
			fail("victim@example.com")
		}
		fail(fmt.Sprintf("user%d@example.com", i))
		if n := th.size(); n > capacity {
			t.Fatalf("after %d e-mails the table holds %d, over its capacity %d", i+1, n, capacity)
		}
	}
	if n := th.size(); n < capacity*9/10 {
		t.Fatalf("the table holds %d of %d: eviction removes more than it must", n, capacity)
	}
	err := fail("victim@example.com")
	if err == nil || err.Status != http.StatusTooManyRequests {
		t.Fatalf("an e-mail that failed %d times among the flood is not locked: %v", 3*capacity/100, err)
	}
	// The first e-mails of the flood were evicted: one failure each is
	// forgotten, they are not locked.
	sh, k := th.shard("user0@example.com")
	_, kept := sh.m[k]
	sh.mu.Unlock()
	if kept {
		t.Fatal("the least recently failed e-mail was not evicted")
	}
}
