package widget

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// longTable is a table whose rows fill more chunks than are searched at
// once, with every slice of a search made one step (two chunks) long.
func longTable(t *testing.T) (*Table, []Row) {
	t.Helper()
	old := sliceBudget
	sliceBudget = time.Nanosecond
	t.Cleanup(func() { sliceBudget = old })
	tb := NewTable(Column{Title: "A"}, Column{Title: "B"})
	tb.SetSize(60, 10)
	pad := strings.Repeat("padding ", 250)
	rows := make([]Row, (3*spreadChunks+1)*chunkSize/len(pad))
	for i := range rows {
		rows[i] = Row{ID: fmt.Sprint(i), Cells: []string{fmt.Sprintf("row %d", i), pad}}
	}
	tb.SetRows(rows)
	if len(tb.text.chunks) <= 3*spreadChunks {
		t.Fatalf("the rows fill %d chunks, want more than %d", len(tb.text.chunks), 3*spreadChunks)
	}
	return tb, rows
}

// wanted are the IDs of rows that hold q, in order.
func wanted(rows []Row, q string) []string {
	var ids []string
	for _, r := range rows {
		if Matches(r, q) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// shown are the IDs of the rows the table shows now, without finishing a
// search under way.
func shown(tb *Table) []string {
	ids := make([]string, tb.Visible())
	for v := range ids {
		ids[v] = tb.idAt(tb.at(v))
	}
	return ids
}

// drain hands the table its slices until the search is done, as the root
// does, and counts them.
func drain(t *testing.T, tb *Table, cmd func() SearchMsg) int {
	t.Helper()
	n := 0
	for cmd != nil {
		msg := cmd()
		n++
		next := msg.Continue()
		cmd = nil
		if next != nil {
			cmd = func() SearchMsg { return next().(SearchMsg) }
		}
		if n > 10_000 {
			t.Fatal("the search never ends")
		}
	}
	return n
}

func start(tb *Table, q string) func() SearchMsg {
	cmd := tb.SetFilter(q)
	if cmd == nil {
		return nil
	}
	return func() SearchMsg { return cmd().(SearchMsg) }
}

// TestLongListFilterIsSearchedInSlices: over a long list a new query
// answers with the first matches and a command for the rest; each slice
// shows more, the count says the search goes on, and the last slice leaves
// exactly the rows that hold the query, in order.
func TestLongListFilterIsSearchedInSlices(t *testing.T) {
	tb, rows := longTable(t)
	cmd := start(tb, "row 1")
	if cmd == nil {
		t.Fatal("a new query over a long list was searched at once")
	}
	if _, ok := tb.Searching(); !ok || !strings.Contains(tb.SearchNote(), "so far, searching") {
		t.Fatalf("the search under way is not told: %q", tb.SearchNote())
	}
	want := wanted(rows, "row 1")
	first := shown(tb)
	if len(first) == 0 || len(first) >= len(want) || !slices.Equal(first, want[:len(first)]) {
		t.Fatalf("the first slice shows %d rows, want the first few of %d in order", len(first), len(want))
	}
	if sel, _ := tb.Selected(); sel.ID != want[0] {
		t.Errorf("cursor on %q, want the first match %q", sel.ID, want[0])
	}
	if n := drain(t, tb, cmd); n < 2 {
		t.Errorf("%d slices, want several", n)
	}
	if got := shown(tb); !equalIDs(got, want) {
		t.Fatalf("after the last slice %d rows shown, want %d", len(got), len(want))
	}
	if _, ok := tb.Searching(); ok || tb.SearchNote() != "" {
		t.Error("the search still says it goes on")
	}
	// The finished query is remembered: going back to it is immediate.
	tb.SetFilter("row 2")
	if cmd := tb.SetFilter("row 1"); cmd != nil || !equalIDs(shown(tb), want) {
		t.Error("a query searched to the end was searched again")
	}
}

func equalIDs(a, b []string) bool { return slices.Equal(a, b) }

// TestSearchUnderWayTakesTheNextKeystrokeAndNewRows: a longer query typed
// while a search is under way narrows what was found and goes on; a query
// typed meanwhile stops the old slices; rows appended, and rows changed
// before and after where the search is, are each counted once.
func TestSearchUnderWayTakesTheNextKeystrokeAndNewRows(t *testing.T) {
	tb, rows := longTable(t)
	old := start(tb, "row 1")
	drainOne(old)
	cmd := start(tb, "row 12")
	if old().Continue() != nil {
		t.Error("a slice of the replaced query went on")
	}
	// A row in a chunk already searched stops matching; one far ahead
	// starts to; a new row is appended; one is written again longer
	// (out of order, at the end).
	done := tb.pending.next
	early, late := -1, -1
	for i, r := range rows {
		at := int(tb.items[i].off >> chunkBits)
		if early < 0 && at < done && strings.Contains(r.Cells[0], "row 12") {
			early = i
		}
		if at > done+2 && !strings.Contains(r.Cells[0], "row 12") {
			late = i
		}
	}
	if early < 0 || late < 0 {
		t.Fatalf("no rows to change (early %d, late %d)", early, late)
	}
	rows[early].Cells = []string{"gone", rows[early].Cells[1]}
	rows[late].Cells = []string{"row 12 now", rows[late].Cells[1]}
	longer := 5
	rows[longer].Cells = []string{"row 12 and longer than before", rows[longer].Cells[1] + "!"}
	added := Row{ID: "new", Cells: []string{"row 12 new", "x"}}
	rows = append(rows, added)
	tb.AppendRows([]Row{rows[early], rows[late], rows[longer], added})
	drain(t, tb, cmd)
	if got, want := shown(tb), wanted(rows, "row 12"); !equalIDs(got, want) {
		t.Fatalf("after changes under way: %d rows shown, want %d\n got %v\nwant %v", len(got), len(want), head(got), head(want))
	}
}

func drainOne(cmd func() SearchMsg) { cmd().Continue() }

func head(ids []string) []string { return ids[:min(len(ids), 12)] }

// TestSearchUnderWayKeepsTheRowFollowed: the row the cursor was on, when
// it holds the new query, gets the cursor back once the search reaches
// it; a cursor moved meanwhile stays where it was put; the last row (end)
// and every visible row finish the search first.
func TestSearchUnderWayKeepsTheRowFollowed(t *testing.T) {
	tb, rows := longTable(t)
	target := rows[len(rows)-10].ID
	if !tb.Select(target) {
		t.Fatal("cannot select the row")
	}
	q := rows[len(rows)-10].Cells[0][:len("row 1")]
	drain(t, tb, start(tb, q))
	if sel, _ := tb.Selected(); sel.ID != target {
		t.Errorf("after the search the cursor is on %s, want %s (the row it was on)", sel.ID, target)
	}

	tb.SetFilter("")
	tb.Select(target)
	cmd := start(tb, q)
	tb.Update(keyPress("down"))
	moved, _ := tb.Selected()
	drain(t, tb, cmd)
	if sel, _ := tb.Selected(); sel.ID != moved.ID {
		t.Errorf("a cursor moved during the search went from %s to %s", moved.ID, sel.ID)
	}

	tb.SetFilter("")
	start(tb, "row 3")
	tb.Update(keyPress("end"))
	want := wanted(rows, "row 3")
	if sel, _ := tb.Selected(); sel.ID != want[len(want)-1] {
		t.Errorf("end during a search went to %s, want the last match %s", sel.ID, want[len(want)-1])
	}
	tb.SetFilter("")
	start(tb, "row 4")
	if got := tb.VisibleRows(); len(got) != len(wanted(rows, "row 4")) {
		t.Errorf("VisibleRows during a search gave %d rows, want all %d", len(got), len(wanted(rows, "row 4")))
	}
}

// TestSearchUnderWaySaysSoWhenNothingFoundYet: the empty table says it is
// searching, not that nothing matches, until the search is done.
func TestSearchUnderWaySaysSoWhenNothingFoundYet(t *testing.T) {
	tb, _ := longTable(t)
	cmd := start(tb, "zzz")
	if v := tb.View(); !strings.Contains(v, "searching for “zzz”") {
		t.Fatalf("while searching the table shows:\n%s", v)
	}
	drain(t, tb, cmd)
	if v := tb.View(); !strings.Contains(v, "no rows match “zzz”") {
		t.Fatalf("after the search the table shows:\n%s", v)
	}
}

// idSource draws rows "row i" whose IDs are "key-i": the filter matches
// the IDs through IDHolds, though the text loaded does not hold them.
type idSource struct{ n int }

func (s idSource) Row(i int) Row                { return Row{Cells: []string{fmt.Sprintf("row %d", i), "x"}} }
func (s idSource) ID(i int) string              { return fmt.Sprintf("key-%d", i) }
func (s idSource) IDHolds(i int, q string) bool { return strings.Contains(s.ID(i), q) }

// TestFilterMatchesTheSourcesIDs: with an IDSource the filter finds rows
// by their IDs, searched at once or in slices, narrowed, and in rows
// added or changed afterwards; a row found by its text is listed once.
func TestFilterMatchesTheSourcesIDs(t *testing.T) {
	for _, long := range []bool{false, true} {
		old := sliceBudget
		sliceBudget = time.Nanosecond
		pad := "x"
		n := 2000
		if long {
			pad = strings.Repeat("padding ", 250)
			n = (2*spreadChunks + 1) * chunkSize / len(pad)
		}
		tb := NewTable(Column{Title: "A"})
		tb.SetSize(40, 10)
		tb.SetSource(idSource{n})
		rows := make([]Row, n)
		for i := range rows {
			text := fmt.Sprintf("row %d", i)
			if i == 7 {
				text = "key-1234 in the text too"
			}
			rows[i] = Row{ID: fmt.Sprintf("key-%d", i), Cells: []string{text, pad}}
		}
		tb.Load(rows, true, nil)
		byID := func(q string) []string {
			var ids []string
			for i, r := range rows {
				if strings.Contains(r.Cells[0], q) || strings.Contains(fmt.Sprintf("key-%d", i), q) {
					ids = append(ids, r.ID)
				}
			}
			return ids
		}
		for _, q := range []string{"key-123", "key-1234", "key-12", "ey-9", "row 5"} {
			cmd := tb.SetFilter(q)
			for cmd != nil {
				cmd = cmd().(SearchMsg).Continue()
			}
			if got, want := shown(tb), byID(q); !equalIDs(got, want) {
				t.Fatalf("long=%v /%s: %d rows %v, want %d %v", long, q, len(got), head(got), len(want), head(want))
			}
		}
		// A row appended is found by its ID; a row changed keeps being
		// found by it.
		q := fmt.Sprintf("key-%d", n)[:6]
		cmd := tb.SetFilter(q)
		for cmd != nil {
			cmd = cmd().(SearchMsg).Continue()
		}
		before := shown(tb)
		changed := before[0]
		tb.Load([]Row{{ID: fmt.Sprintf("key-%d", n), Cells: []string{"new", pad}}, {ID: changed, Cells: []string{"changed", pad}}}, false, nil)
		if got := shown(tb); len(got) != len(before)+1 || !slices.Contains(got, changed) || got[len(got)-1] != fmt.Sprintf("key-%d", n) {
			t.Fatalf("long=%v: after a new row and a changed one /%s shows %d rows (had %d), changed row listed: %v", long, q, len(got), len(before), slices.Contains(got, changed))
		}
		sliceBudget = old
	}
}
