package tabbed

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Entry is one record as a list shows it.
type Entry struct {
	ID     string
	Name   string // what toasts and confirmations call it (an alias)
	Cells  []string
	Detail [][2]string // label, value; blank values are left out
	// Key is the account the record pays, written one way (an IBAN, a
	// CVU, a PIX key, a wallet on its chain): two records with the same
	// Key pay the same account. "" when it names none.
	Key string
}

// List is one tab: what it shows and how it loads. The rows, their paging
// and the dropping of stale answers are a listing.List of Entries that
// loads every page.
type List struct {
	Title string // the tab's label
	What  string // what a failed load says it listed
	Empty string // what the list says when there is nothing
	Cols  []widget.Column
	// Narrow are the columns kept on a narrow terminal.
	Narrow []int
	Load   Loader

	list   *listing.List[Entry]
	narrow bool
}

// Tab is the list itself, for the screens whose tabs embed it (see Tabs).
func (l *List) Tab() *List { return l }

// Tabs are the Lists that the screen's tabs embed, in order, for New.
func Tabs[T interface{ Tab() *List }](tabs []T) []*List {
	lists := make([]*List, len(tabs))
	for i, t := range tabs {
		lists[i] = t.Tab()
	}
	return lists
}

// Table is the list's table.
func (l *List) Table() *widget.Table { return l.list.Table.Table }

// Err is the error of the list's last load.
func (l *List) Err() error { return l.list.Err }

// Entries are the records loaded (every page: see build).
func (l *List) Entries() []Entry { return l.list.Items() }

// Loaded reports whether the list has loaded to its end.
func (l *List) Loaded() bool { return l.list.Loaded() && !l.list.Loading() && !l.list.More }

// Selected is the selected record.
func (l *List) Selected() (Entry, bool) { return l.list.Selected() }

// A Loader lists one page of the records of account acct, from cursor.
type Loader func(ctx context.Context, acct uuid.UUID, cursor string) (api.Page[Entry], error)

// Paged is the Loader of a paged list of Ts, each shown as an Entry.
func Paged[T any](page func(ctx context.Context, acct uuid.UUID, cursor string) (api.Page[T], error), show func(T) Entry) Loader {
	return func(ctx context.Context, acct uuid.UUID, cursor string) (api.Page[Entry], error) {
		p, err := page(ctx, acct, cursor)
		return api.Page[Entry]{Items: entries(p.Items, show), Cursor: p.Cursor}, err
	}
}

// Whole is the Loader of a list the service sends whole, in one answer.
func Whole[T any](load func(ctx context.Context, acct uuid.UUID) ([]T, error), show func(T) Entry) Loader {
	return func(ctx context.Context, acct uuid.UUID, _ string) (api.Page[Entry], error) {
		items, err := load(ctx, acct)
		return api.Page[Entry]{Items: entries(items, show)}, err
	}
}

func entries[T any](items []T, show func(T) Entry) []Entry {
	out := make([]Entry, 0, len(items))
	for _, it := range items {
		out = append(out, show(it))
	}
	return out
}

// build makes the list's rows: a listing.List for s that loads every page.
func (l *List) build(s *ui.Session) {
	load := l.Load
	l.list = listing.New(s, l.What, func(e Entry) string { return e.ID }, l.row,
		func(cursor string) (listing.PageCall[Entry], error) {
			acct := s.Account.ID
			return func(ctx context.Context) (api.Page[Entry], error) { return load(ctx, acct, cursor) }, nil
		}, l.Cols...)
	l.list.All = true
	l.list.SetEmpty(l.Empty)
	l.list.OnPage = func([]Entry) tea.Cmd { l.redraw(); return nil }
}

// minShared is the least room the column that takes the rest keeps when
// a fixed column grows to show its longest value.
const minShared = 24

// redraw lays the columns out for the entries loaded and the width: a
// fixed column grows, up to twice its width, to show its longest value
// whole (an alias is not cut while room is spare), as long as the column
// that takes the rest keeps minShared cells.
func (l *List) redraw() {
	cols, pick := l.Cols, []int(nil)
	if l.narrow {
		cols, pick = listing.Pick(l.Cols, l.Narrow), l.Narrow
	}
	cols = slices.Clone(cols)
	w, _ := l.list.Size()
	spare := w - 2 - max(len(cols)-1, 0) - minShared // the marker, the separators
	for _, c := range cols {
		spare -= c.Width
	}
	for i := range cols {
		if cols[i].Width == 0 || spare <= 0 {
			continue
		}
		widest := 0
		for _, e := range l.list.Items() {
			cells := e.Cells
			if pick != nil {
				cells = listing.Pick(e.Cells, pick)
			}
			if i < len(cells) {
				widest = max(widest, lipgloss.Width(cells[i]))
			}
		}
		grow := min(widest, 2*cols[i].Width) - cols[i].Width
		if grow > 0 {
			grow = min(grow, spare)
			cols[i].Width += grow
			spare -= grow
		}
	}
	l.list.Redraw(cols...)
}

func (l *List) row(e Entry) widget.Row {
	if l.narrow {
		return widget.Row{Cells: listing.Pick(e.Cells, l.Narrow)}
	}
	return widget.Row{Cells: e.Cells}
}

// setNarrow lays out the table for the width.
func (l *List) setNarrow(narrow bool) {
	l.narrow = narrow
	l.redraw()
}
