package listing

import "github.com/tesouro-treasury/tesouro/ui/widget"

// Layout is which columns a list shows at its width.
type Layout int

const (
	// LayoutFull shows every column.
	LayoutFull Layout = iota
	// LayoutNarrow keeps what an operator reads first (status, what is
	// received, a date).
	LayoutNarrow
	// LayoutTiny is LayoutNarrow with a shorter date, so that amounts are
	// never cut.
	LayoutTiny
)

// Layouts are a list's columns by width: Full from FullWidth cells, Narrow
// from NarrowWidth, Tiny below.
type Layouts struct {
	FullWidth, NarrowWidth int
	Full, Narrow, Tiny     []widget.Column
}

// For is the layout of a list w cells wide.
func (ls Layouts) For(w int) Layout {
	switch {
	case w >= ls.FullWidth:
		return LayoutFull
	case w >= ls.NarrowWidth:
		return LayoutNarrow
	}
	return LayoutTiny
}

// Columns are the columns of layout l.
func (ls Layouts) Columns(l Layout) []widget.Column {
	switch l {
	case LayoutNarrow:
		return ls.Narrow
	case LayoutTiny:
		return ls.Tiny
	}
	return ls.Full
}

// Fit is a resize of a list with layouts: it sets *cur to the layout of
// w cells and, when that changed, redraws t with its columns.
func (ls Layouts) Fit(cur *Layout, w int, t interface{ Redraw(...widget.Column) }) {
	if l := ls.For(w); l != *cur {
		*cur = l
		t.Redraw(ls.Columns(l)...)
	}
}
