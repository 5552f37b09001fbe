package listing

import (
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// Table is a widget.Table of typed values: it keeps the Ts themselves, in
// the order shown, and draws each one's row with the screen's renderer, so
// a screen holds no list of its own beside the table and no index from row
// ids back to its records. The values sit at the positions of their rows,
// so the widget's index finds both (no second map for a hundred thousand
// rows).
type Table[T any] struct {
	*widget.Table
	items []T
	id    func(T) string
	row   func(T) widget.Row
	// text, when set (Lazy), is what the filter matches of a value: the
	// table keeps only that and draws the rows in view with row.
	text func(T) []string
}

// Lazy makes the table keep only the filter text of each value, text(v),
// which must not depend on the columns, and draw the rows in view with
// the renderer when they are drawn: a change of columns (Redraw) then
// costs what is visible, not what is loaded. The values are dropped.
// idHolds, when set, tells whether a value's id holds a (lower-cased)
// query: the filter matches ids with it beside the text, which then need
// not hold them, so that a long list keeps each id once, in its value.
func (t *Table[T]) Lazy(text func(T) []string, idHolds func(T, string) bool) {
	t.text = text
	t.items = nil
	if idHolds != nil {
		t.Table.SetSource(lazyIDSource[T]{lazySource[T]{t}, idHolds})
		return
	}
	t.Table.SetSource(lazySource[T]{t})
}

// lazySource draws a lazy table's values.
type lazySource[T any] struct{ t *Table[T] }

func (s lazySource[T]) Row(i int) widget.Row { return s.t.row(s.t.items[i]) }
func (s lazySource[T]) ID(i int) string      { return s.t.id(s.t.items[i]) }

// lazyIDSource is a lazySource whose ids the filter matches.
type lazyIDSource[T any] struct {
	lazySource[T]
	idHolds func(T, string) bool
}

func (s lazyIDSource[T]) IDHolds(i int, q string) bool { return s.idHolds(s.t.items[i], q) }

// NewTable is an empty table of Ts with cols; id names a T (the row's id)
// and row draws it.
func NewTable[T any](id func(T) string, row func(T) widget.Row, cols ...widget.Column) *Table[T] {
	return &Table[T]{Table: widget.NewTable(cols...), id: id, row: row}
}

// SetItems replaces every value; the cursor stays on the selected id when it
// is still listed.
func (t *Table[T]) SetItems(items []T) {
	t.items = make([]T, 0, len(items))
	t.load(items, true)
}

// AddItems adds values after the loaded ones; a value whose id is loaded
// replaces it in place (a page overlapping the previous one, a refreshed
// record), so an id is never listed twice.
func (t *Table[T]) AddItems(items []T) { t.load(items, false) }

// load gives the widget the rows of items and files each value at its
// row's position as soon as it is placed; of values with one id, the last
// is kept, as the widget keeps the last row.
func (t *Table[T]) load(items []T, reset bool) {
	t.Table.Load(t.rows(items), reset, func(i, pos int) {
		if pos == len(t.items) {
			t.items = append(t.items, items[i])
		} else {
			t.items[pos] = items[i]
		}
	})
}

// Put replaces the value with v's id, or adds v after the others.
func (t *Table[T]) Put(v T) { t.AddItems([]T{v}) }

// Remove drops the value with id.
func (t *Table[T]) Remove(id string) {
	i, ok := t.Table.Index(id)
	if !ok {
		return
	}
	t.SetItems(append(t.items[:i:i], t.items[i+1:]...))
}

func (t *Table[T]) rows(items []T) []widget.Row {
	rows := make([]widget.Row, len(items))
	for i, v := range items {
		if t.text != nil {
			rows[i] = widget.Row{Cells: t.text(v)}
		} else {
			rows[i] = t.row(v)
		}
		rows[i].ID = t.id(v)
	}
	return rows
}

// Redraw lays the table out with cols (a width that needs other columns) and
// draws every row again with the renderer.
func (t *Table[T]) Redraw(cols ...widget.Column) {
	t.Table.SetColumns(cols...)
	if t.text == nil {
		t.Table.SetRows(t.rows(t.items))
	}
}

// Items are the values in the order shown, the / filter aside. The slice
// is the table's: read it, do not keep it.
func (t *Table[T]) Items() []T { return t.items }

// Item is the value with id.
func (t *Table[T]) Item(id string) (T, bool) {
	i, ok := t.Table.Index(id)
	if !ok || i >= len(t.items) {
		var zero T
		return zero, false
	}
	return t.items[i], true
}

// Selected is the value under the cursor.
func (t *Table[T]) Selected() (T, bool) {
	i, ok := t.Table.SelectedIndex()
	if !ok || i >= len(t.items) {
		var zero T
		return zero, false
	}
	return t.items[i], true
}
