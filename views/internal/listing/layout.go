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
	// LayoutMedium sits between Full and Narrow, for lists whose full
	// layout needs a little more than a common terminal: it drops the
	// columns the detail repeats and keeps the rest whole.
	LayoutMedium
)

// Layouts are a list's columns by width: Full from FullWidth cells, Medium
// (when it has columns) from MediumWidth, Narrow from NarrowWidth, Tiny below.
type Layouts struct {
	FullWidth, MediumWidth, NarrowWidth int
	Full, Medium, Narrow, Tiny          []widget.Column
}

// For is the layout of a list w cells wide.
func (ls Layouts) For(w int) Layout {
	switch {
	case w >= ls.FullWidth:
		return LayoutFull
	case ls.Medium != nil && w >= ls.MediumWidth:
		return LayoutMedium
	case w >= ls.NarrowWidth:
		return LayoutNarrow
	}
	return LayoutTiny
}

// Columns are the columns of layout l.
func (ls Layouts) Columns(l Layout) []widget.Column {
	switch l {
	case LayoutMedium:
		return ls.Medium
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

// Pick is the values of all at the indexes idx, in idx's order: the columns,
// or a row's cells, that a narrower layout keeps. An index past the end is
// skipped.
func Pick[T any](all []T, idx []int) []T {
	out := make([]T, 0, len(idx))
	for _, i := range idx {
		if i < len(all) {
			out = append(out, all[i])
		}
	}
	return out
}
