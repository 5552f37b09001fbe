package ui

import (
	"strings"
	"testing"
)

// When the service stops answering, the footer says so within two
// heartbeats (what failed, since when) and nothing above it moves; when
// it answers again the banner goes by itself, with no key pressed, and
// every screen is told to load again.
func TestServiceGoneIsToldAndRecoveredWithoutAKey(t *testing.T) {
	h := newHarness(t, nil)
	before := strings.Split(plain(h.view()), "\n")
	h.fake.down = true
	h.advance(heartbeatEvery)
	h.advance(heartbeatEvery)
	after := strings.Split(plain(h.view()), "\n")
	if len(after) != len(before) {
		t.Fatalf("the layout changed: %d lines, then %d", len(before), len(after))
	}
	foot := after[len(after)-1]
	if !strings.Contains(foot, "No answer from the service since") || !strings.Contains(foot, "values shown are the last good ones") {
		t.Fatalf("no banner in the footer:\n%s", plain(h.view()))
	}
	for i := range len(before) - 1 {
		if before[i] != after[i] {
			t.Fatalf("line %d moved:\n%q\n%q", i, before[i], after[i])
		}
	}
	ov := h.screen("overview")
	n := len(ov.msgs)
	h.fake.down = false
	h.advance(heartbeatEvery)
	if v := plain(h.view()); strings.Contains(v, "No answer from the service") {
		t.Fatalf("the banner stayed once the service answered:\n%s", v)
	}
	reloaded := false
	for _, m := range ov.msgs[n:] {
		if c, ok := m.(ChangedMsg); ok && c.What.Has(ChangedBalances) && c.What.Has(ChangedTickets) {
			reloaded = true
		}
	}
	if !reloaded {
		t.Fatal("the screens were not told to load again")
	}
}
