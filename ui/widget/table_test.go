package widget

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func rowsN(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{ID: fmt.Sprintf("id-%d", i), Cells: []string{fmt.Sprintf("row %d", i), "PAID", fmt.Sprintf("%d.00", i)}}
	}
	return rows
}

func testTable(w, h int) *Table {
	t := NewTable(Column{Title: "Name", Width: 10}, Column{Title: "Status"}, Column{Title: "Amount", Width: 8, Right: true})
	t.SetSize(w, h)
	return t
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func press(t *Table, keys ...string) {
	for _, k := range keys {
		t.Update(keyPress(k))
	}
}

func selectedID(t *testing.T, tb *Table) string {
	t.Helper()
	r, ok := tb.Selected()
	if !ok {
		t.Fatal("no row selected")
	}
	return r.ID
}

// checkFrame asserts the view is exactly w×h cells.
func checkFrame(t *testing.T, view string, w, h int) []string {
	t.Helper()
	lines := strings.Split(view, "\n")
	if h == 0 {
		if view != "" {
			t.Fatalf("zero-height view is %q", view)
		}
		return nil
	}
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, view)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, got, w, l)
		}
	}
	return lines
}

func TestTableRendersOnlyTheWindow(t *testing.T) {
	tb := testTable(40, 6)
	tb.SetRows(rowsN(1000))
	lines := checkFrame(t, tb.View(), 40, 6)
	if !strings.Contains(lines[0], "Name") || !strings.Contains(lines[0], "Amount") {
		t.Fatalf("header missing: %q", lines[0])
	}
	if !strings.HasPrefix(ansi.Strip(lines[1]), "▶ row 0") {
		t.Fatalf("first row is not selected with a marker: %q", lines[1])
	}
	if strings.Contains(tb.View(), "row 5 ") {
		t.Fatal("row 5 drawn although only 5 rows fit")
	}
	press(tb, "G")
	v := ansi.Strip(tb.View())
	if !strings.Contains(v, "▶ row 999") || strings.Contains(v, "row 994 ") {
		t.Fatalf("end of list not drawn as the window:\n%s", v)
	}
	if got := selectedID(t, tb); got != "id-999" {
		t.Fatalf("selected %s after G, want id-999", got)
	}
}

func TestTableNavigation(t *testing.T) {
	tb := testTable(40, 6) // 5 body rows
	tb.SetRows(rowsN(20))
	steps := []struct {
		key  string
		want string
	}{
		{"j", "id-1"}, {"down", "id-2"}, {"k", "id-1"}, {"up", "id-0"}, {"up", "id-0"},
		{"pgdown", "id-5"}, {"pgdown", "id-10"}, {"pgup", "id-5"}, {"G", "id-19"},
		{"down", "id-19"}, {"g", "id-0"}, {"end", "id-19"}, {"home", "id-0"},
	}
	for _, s := range steps {
		press(tb, s.key)
		if got := selectedID(t, tb); got != s.want {
			t.Fatalf("after %q selected %s, want %s", s.key, got, s.want)
		}
	}
}

func TestTableCursorFollowsIDAcrossSetRows(t *testing.T) {
	tb := testTable(40, 6)
	tb.SetRows(rowsN(10))
	press(tb, "j", "j", "j") // id-3
	// A new row arrives at the top (newest first): the cursor must stay on id-3.
	rows := append([]Row{{ID: "new", Cells: []string{"fresh", "PENDING", "1.00"}}}, rowsN(10)...)
	tb.SetRows(rows)
	if got := selectedID(t, tb); got != "id-3" {
		t.Fatalf("cursor moved to %s after an insert above it, want id-3", got)
	}
	// The selected row disappears: the cursor keeps its position.
	rows = append(rows[:4:4], rows[5:]...)
	tb.SetRows(rows)
	if got := selectedID(t, tb); got != "id-4" {
		t.Fatalf("after removing the selected row selected %s, want id-4 (same position)", got)
	}
	tb.SetRows(nil)
	if _, ok := tb.Selected(); ok {
		t.Fatal("a row is selected in an empty table")
	}
	checkFrame(t, tb.View(), 40, 6)
	if !strings.Contains(tb.View(), "no rows") {
		t.Fatalf("empty table does not say so:\n%s", tb.View())
	}
}

func TestTableAppendRowsReplacesKnownIDs(t *testing.T) {
	tb := testTable(40, 6)
	tb.SetRows(rowsN(5))
	press(tb, "G")
	more := rowsN(8)[3:] // overlaps id-3, id-4
	more[1].Cells = []string{"row 4", "FAILED", "4.00"}
	tb.AppendRows(more)
	if tb.Len() != 8 {
		t.Fatalf("Len = %d after an overlapping page, want 8", tb.Len())
	}
	if got := selectedID(t, tb); got != "id-4" {
		t.Fatalf("cursor on %s, want id-4", got)
	}
	r, _ := tb.Selected()
	if r.Cells[1] != "FAILED" {
		t.Fatalf("replaced row not updated: %v", r.Cells)
	}
	if !strings.Contains(tb.View(), "FAILED") {
		t.Fatal("render cache kept the old content of a changed row")
	}
}

func TestTableFilter(t *testing.T) {
	tb := testTable(40, 8)
	rows := rowsN(30)
	rows[7].Cells[1] = "\x1b[31mFailed\x1b[0m" // styled cell: matched on its text only
	rows[21].Cells[1] = "FAILED"
	tb.SetRows(rows)
	press(tb, "j", "j") // id-2
	tb.SetFilter("fai")
	if tb.Visible() != 2 || tb.Len() != 30 {
		t.Fatalf("Visible/Len = %d/%d, want 2/30", tb.Visible(), tb.Len())
	}
	if got := selectedID(t, tb); got != "id-7" {
		t.Fatalf("selected %s, want the first match id-7", got)
	}
	tb.SetFilter("faiLED") // narrowing
	if tb.Visible() != 2 {
		t.Fatalf("narrowed filter shows %d rows, want 2", tb.Visible())
	}
	press(tb, "j")
	tb.SetFilter("31m") // escape codes are not text
	if tb.Visible() != 0 {
		t.Fatalf("filter matched escape codes: %d rows", tb.Visible())
	}
	v := tb.View()
	checkFrame(t, v, 40, 8)
	if !strings.Contains(v, "no rows match") {
		t.Fatalf("no-match state not shown:\n%s", v)
	}
	tb.SetFilter("fa")
	if got := selectedID(t, tb); got != "id-21" {
		t.Fatalf("cursor did not come back to id-21, got %s", got)
	}
	tb.AppendRows([]Row{{ID: "x", Cells: []string{"late", "failed", "1"}}, {ID: "y", Cells: []string{"late", "PAID", "1"}}})
	if tb.Visible() != 3 {
		t.Fatalf("appended matching row not shown: %d visible", tb.Visible())
	}
	tb.SetFilter("")
	if tb.Visible() != 32 || selectedID(t, tb) != "id-21" {
		t.Fatalf("clearing the filter: %d visible, selected %s", tb.Visible(), selectedID(t, tb))
	}
	if !tb.Select("id-3") || selectedID(t, tb) != "id-3" {
		t.Fatal("Select(id-3) failed")
	}
	if tb.Select("nope") {
		t.Fatal("Select of an unknown id succeeded")
	}
}

func TestTableNearEnd(t *testing.T) {
	tb := testTable(40, 6)
	tb.SetRows(rowsN(50))
	if tb.NearEnd(5) {
		t.Fatal("NearEnd at the top of 50 rows")
	}
	tb.Select("id-44")
	if !tb.NearEnd(5) {
		t.Fatal("not NearEnd 5 rows from the end")
	}
	tb.Select("id-43")
	if tb.NearEnd(5) {
		t.Fatal("NearEnd 6 rows from the end")
	}
}

func TestTableWidthsAreDisplayWidths(t *testing.T) {
	tb := NewTable(Column{Title: "City", Width: 6}, Column{Title: "Note"})
	tb.SetSize(30, 4)
	tb.SetRows([]Row{
		{ID: "a", Cells: []string{"東京都庁舎", "São Paulo — ação"}},
		{ID: "b", Cells: []string{"ok", strings.Repeat("x", 100)}},
	})
	lines := checkFrame(t, tb.View(), 30, 4)
	if !strings.Contains(lines[2], "…") {
		t.Fatalf("long cell not truncated with an ellipsis: %q", lines[2])
	}
	// Changing the width renders cached rows again at the new width.
	tb.SetSize(50, 4)
	checkFrame(t, tb.View(), 50, 4)
}

func TestTableTinySizesDoNotPanic(t *testing.T) {
	tb := testTable(0, 0)
	tb.SetRows(rowsN(3))
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {2, 2}, {5, 1}, {40, 12}, {3, 3}, {-1, -4}} {
		tb.SetSize(sz[0], sz[1])
		press(tb, "G", "k", "pgdown", "pgup")
		checkFrame(t, tb.View(), max(sz[0], 0), max(sz[1], 0))
	}
}

func TestTableSelectionVisibleWithoutColour(t *testing.T) {
	tb := testTable(40, 4)
	tb.SetRows(rowsN(3))
	press(tb, "j")
	lines := strings.Split(ansi.Strip(tb.View()), "\n")
	if !strings.HasPrefix(lines[2], "▶") || strings.HasPrefix(lines[1], "▶") {
		t.Fatalf("marker not on the selected row only:\n%s", strings.Join(lines, "\n"))
	}
}

func TestTableGivesRowsBackAsTheyCame(t *testing.T) {
	tb := testTable(60, 6)
	rows := []Row{
		{ID: "a", Cells: []string{"MixedCase ABC xyz", "PAID", "1,000.00 BRL"}},
		{ID: "b", Cells: []string{"São Paulo ÉCOLE", "", "東京"}},
		{ID: "c", Cells: []string{"\x1b[1mBold\x1b[0m", "tab\there", "line\nbreak"}, Disabled: true},
		{ID: "d", Cells: []string{"lower only", "x", "y"}},
	}
	tb.SetRows(rows)
	want := [][]string{
		{"MixedCase ABC xyz", "PAID", "1,000.00 BRL"},
		{"São Paulo ÉCOLE", "", "東京"},
		{"\x1b[1mBold\x1b[0m", "tab here", "line break"},
		{"lower only", "x", "y"},
	}
	for i, r := range rows {
		if !tb.Select(r.ID) {
			t.Fatalf("select %s", r.ID)
		}
		got, _ := tb.Selected()
		if strings.Join(got.Cells, "|") != strings.Join(want[i], "|") || got.Disabled != r.Disabled {
			t.Fatalf("row %s came back as %q (disabled %v), want %q", r.ID, got.Cells, got.Disabled, want[i])
		}
	}
	tb.SetFilter("école")
	if tb.Visible() != 1 {
		t.Fatalf("non-ASCII case-insensitive match: %d rows", tb.Visible())
	}
	tb.SetFilter("bold")
	if tb.Visible() != 1 {
		t.Fatalf("styled text not matched: %d rows", tb.Visible())
	}
}

func TestTableFilterBackspaceAndNewRows(t *testing.T) {
	tb := testTable(40, 8)
	tb.SetRows(rowsN(200))
	for _, q := range []string{"1", "19", "199", "19", "1"} {
		tb.SetFilter(q)
		want := 0
		for i := range 200 {
			if strings.Contains(fmt.Sprintf("row %d", i), q) {
				want++
			}
		}
		if tb.Visible() != want {
			t.Fatalf("filter %q shows %d rows, want %d", q, tb.Visible(), want)
		}
	}
	// New rows after a query: going back to it must see them.
	tb.SetFilter("19")
	tb.AppendRows([]Row{{ID: "n", Cells: []string{"row 1999", "PAID", "1"}}})
	tb.SetFilter("199")
	tb.SetFilter("19")
	if tb.Visible() != 13 {
		t.Fatalf("after a new row, /19 shows %d rows, want 13", tb.Visible())
	}
}

// TestTableSearchAgreesWithStrings: the search through whole chunks finds
// exactly the rows whose text holds the query, after rows were replaced by
// shorter text (in place) and longer text (out of order) too.
func TestTableSearchAgreesWithStrings(t *testing.T) {
	texts := []string{"", "a", "abc", "6f1c2a0e-1b7e", "aaaaab", "são paulo", "PAID", "1,000.00 BRL"}
	tb := NewTable(Column{Title: "A"}, Column{Title: "B"})
	var rows []Row
	for i := range 40_000 {
		// The third cell takes the text past one chunk, and makes "a" a
		// query most rows hold (searched row by row).
		rows = append(rows, Row{ID: fmt.Sprint(i), Cells: []string{texts[i%len(texts)], fmt.Sprint(i), "padding padding padding padding"}})
	}
	tb.SetRows(rows)
	if len(tb.text.chunks) < 2 {
		t.Fatalf("the rows fill %d chunk(s): the test needs more than one", len(tb.text.chunks))
	}
	for i := 0; i < len(rows); i += 7 {
		rows[i].Cells[0] = texts[(i+3)%len(texts)] + strings.Repeat("z", i%3)
		tb.AppendRows([]Row{rows[i]})
	}
	queries := []string{"a", "b", "ab", "abc", "bc", "aab", "paid", "0e-1", "x", "são", "ão p", "brl", "z", "zz", "1\x1f", "\x1fa", "z\x00", "99", "7z", "ding", "g\x1fp"}
	for _, q := range queries {
		tb.SetFilter(q)
		var want []string
		for _, r := range rows {
			if Matches(r, q) {
				want = append(want, r.ID)
			}
		}
		got := tb.VisibleRows()
		if len(got) != len(want) {
			t.Fatalf("filter %q: %d rows, want %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i] {
				t.Fatalf("filter %q: row %d is %s, want %s", q, i, got[i].ID, want[i])
			}
		}
		tb.SetFilter("")
	}
}

func TestTableIndexFollowsSetAndAppend(t *testing.T) {
	tb := NewTable(Column{Title: "A"})
	tb.SetRows([]Row{{ID: "a", Cells: []string{"1"}}, {ID: "b", Cells: []string{"2"}}, {ID: "a", Cells: []string{"3"}}})
	tb.AppendRows([]Row{{ID: "c", Cells: []string{"4"}}, {ID: "b", Cells: []string{"5"}}})
	for id, want := range map[string]int{"a": 0, "b": 1, "c": 2} {
		if i, ok := tb.Index(id); !ok || i != want {
			t.Fatalf("Index(%q) = %d, %v; want %d", id, i, ok, want)
		}
	}
	if _, ok := tb.Index("z"); ok || tb.Len() != 3 {
		t.Fatal("an unknown id is indexed, or a row was listed twice")
	}
}
