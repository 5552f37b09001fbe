package widget

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A new filter query over a long list is searched a slice at a time: each
// slice searches whole chunks of the arena for about sliceBudget, shows
// the matches found so far, and asks for the next slice with a SearchMsg,
// so that a keystroke costs one slice and a frame, and the keys typed
// meanwhile are taken between slices. A list of spreadChunks chunks or
// fewer (some 100,000 rows) is searched at once.
const spreadChunks = 16

// sliceBudget is a variable so that tests can make every slice one step.
var sliceBudget = 8 * time.Millisecond

// search is a filter search under way: the chunks before next are
// searched and their matches are in the table's match.
type search struct {
	gen  uint64
	next int
	// follow is the row the cursor was on when the query changed, when
	// its text holds the query: the cursor goes back to it once the
	// search reaches it, unless it was moved meanwhile.
	follow string
}

// SearchMsg asks for the next slice of a filter search spread across
// frames. The root hands it back to its table with Continue; a search
// replaced or finished meanwhile ignores it.
type SearchMsg struct {
	t   *Table
	gen uint64
}

// Continue searches the next slice and asks for the one after, if any.
func (m SearchMsg) Continue() tea.Cmd {
	if m.t == nil || m.t.pending == nil || m.t.pending.gen != m.gen {
		return nil
	}
	m.t.searchSlice(sliceBudget)
	return m.t.nextSlice()
}

// Searching reports whether the filter's matches are still being searched
// for, and which share of the rows is searched so far.
func (t *Table) Searching() (done float64, ok bool) {
	if t.pending == nil {
		return 1, false
	}
	return float64(t.pending.next) / float64(max(len(t.text.chunks), 1)), true
}

// nextSlice is the command that asks for the next slice of the search
// under way; nil when none is.
func (t *Table) nextSlice() tea.Cmd {
	if t.pending == nil {
		return nil
	}
	msg := SearchMsg{t: t, gen: t.pending.gen}
	return func() tea.Msg { return msg }
}

// startSearch searches for the filter from the first chunk, a slice now
// and the rest in later slices.
func (t *Table) startSearch(follow string) {
	t.match = []int32{}
	t.pending = &search{gen: t.gen}
	if i, ok := t.lookup(follow); ok && follow != "" && t.holds(i, t.lfilter) {
		t.pending.follow = follow
	}
	t.searchSlice(sliceBudget)
}

// searchSlice searches whole chunks, as many at once as there are
// processors, until budget is spent or every chunk is searched.
func (t *Table) searchSlice(budget time.Duration) {
	s := t.pending
	start := time.Now()
	parts := runtime.GOMAXPROCS(0)
	for s.next < len(t.text.chunks) {
		to := min(s.next+parts, len(t.text.chunks))
		t.addMatches(t.searchChunks(t.lfilter, s.next, to, parts))
		s.next = to
		if budget > 0 && time.Since(start) >= budget {
			break
		}
	}
	if s.follow != "" {
		if i, ok := t.lookup(s.follow); ok {
			if v, ok := t.visiblePos(i); ok {
				t.moveTo(v)
				s.follow = ""
			}
		}
	}
	if s.follow == "" {
		t.followID()
	}
	if s.next >= len(t.text.chunks) {
		t.pending = nil
		t.remember(t.lfilter, t.match)
	}
	t.clampOffset()
}

// addMatches adds the ascending positions found in later chunks to the
// matches: after them, or merged when a row written again out of order
// lies among them.
func (t *Table) addMatches(found []int32) {
	switch {
	case len(found) == 0:
	case len(t.match) == 0 || found[0] > t.match[len(t.match)-1]:
		t.match = append(t.match, found...)
	default:
		t.match = mergeSorted(t.match, found)
	}
}

// finishSearch searches what is left of the search under way at once: for
// what needs every match now (the last row, every visible row).
func (t *Table) finishSearch() {
	if t.pending != nil {
		t.searchSlice(0)
	}
}

// narrowed is the matches that also hold lq, a query that extends the one
// they were found for.
func (t *Table) narrowed(lq string) []int32 {
	kept := make([]int32, 0, len(t.match)/2)
	for _, i := range t.match {
		if t.holds(int(i), lq) {
			kept = append(kept, i)
		}
	}
	return kept
}

// unsearched reports whether the text of the row at pos lies where the
// search under way has yet to reach: that search, not the row's change,
// decides whether it matches.
func (t *Table) unsearched(pos int) bool {
	return t.pending != nil && int(t.items[pos].off>>chunkBits) >= t.pending.next
}

// forgetMatch removes pos from the matches.
func (t *Table) forgetMatch(pos int) {
	if v, ok := slices.BinarySearch(t.match, int32(pos)); ok {
		t.match = slices.Delete(t.match, v, v+1)
	}
}

// SearchNote is what a count of the matches adds while they are still
// being searched for (" so far, searching 34 %"); "" once complete.
func (t *Table) SearchNote() string {
	done, ok := t.Searching()
	if !ok {
		return ""
	}
	return fmt.Sprintf(" so far, searching %d %%", int(done*100))
}
