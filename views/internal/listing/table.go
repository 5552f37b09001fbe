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
}

// NewTable is an empty table of Ts with cols; id names a T (the row's id)
// and row draws it.
func NewTable[T any](id func(T) string, row func(T) widget.Row, cols ...widget.Column) *Table[T] {
	return &Table[T]{Table: widget.NewTable(cols...), id: id, row: row}
}

// SetItems replaces every value; the cursor stays on the selected id when it
// is still listed.
func (t *Table[T]) SetItems(items []T) {
	t.Table.SetRows(t.rows(items))
	t.items = make([]T, t.Table.Len())
	t.file(items)
}

// AddItems adds values after the loaded ones; a value whose id is loaded
// replaces it in place (a page overlapping the previous one, a refreshed
// record), so an id is never listed twice.
func (t *Table[T]) AddItems(items []T) {
	t.Table.AppendRows(t.rows(items))
	t.items = append(t.items, make([]T, t.Table.Len()-len(t.items))...)
	t.file(items)
}

// file puts each value at its row's position; of values with one id, the
// last is kept, as the widget keeps the last row.
func (t *Table[T]) file(items []T) {
	for _, v := range items {
		if i, ok := t.Table.Index(t.id(v)); ok {
			t.items[i] = v
		}
	}
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
		rows[i] = t.row(v)
		rows[i].ID = t.id(v)
	}
	return rows
}

// Redraw lays the table out with cols (a width that needs other columns) and
// draws every row again with the renderer.
func (t *Table[T]) Redraw(cols ...widget.Column) {
	t.Table.SetColumns(cols...)
	t.Table.SetRows(t.rows(t.items))
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
	r, ok := t.Table.Selected()
	if !ok {
		var zero T
		return zero, false
	}
	return t.Item(r.ID)
}
