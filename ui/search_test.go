package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// TestRootHandsASearchSliceBackToItsTable: the slices of a / filter search
// over a long list reach their table through the root, whichever screen
// holds it, until every row is searched.
func TestRootHandsASearchSliceBackToItsTable(t *testing.T) {
	tb := widget.NewTable(widget.Column{Title: "A"}, widget.Column{Title: "B"})
	tb.SetSize(60, 10)
	pad := strings.Repeat("padding ", 250)
	rows := make([]widget.Row, 20_000) // some 40 MB of text: a long list
	for i := range rows {
		rows[i] = widget.Row{ID: fmt.Sprint(i), Cells: []string{fmt.Sprintf("row %d", i), pad}}
	}
	tb.SetRows(rows)
	r := New(Options{})
	cmd := tb.SetFilter("row 1999")
	if cmd == nil {
		t.Skip("this machine searched the whole list in one slice")
	}
	for n := 0; cmd != nil; n++ {
		if n > 1000 {
			t.Fatal("the search never ends")
		}
		_, cmd = r.Update(cmd())
	}
	if _, ok := tb.Searching(); ok {
		t.Fatal("the root dropped a slice: the search stays under way")
	}
	if got := tb.Visible(); got != 11 { // 1999 and 19990–19999
		t.Fatalf("%d rows match, want 11", got)
	}
}
