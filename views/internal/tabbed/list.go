package tabbed

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// requestTimeout bounds every call of a tabbed screen.
const requestTimeout = 20 * time.Second

// maxPages bounds how many pages a list loads; these lists are short, and a
// runaway cursor must not loop forever.
const maxPages = 40

// requestSeq numbers list loads across every screen: the root rebuilds
// screens when the account changes, and a late answer for the old account
// must never match a load of the new one.
var requestSeq atomic.Int64

// Entry is one record as a list shows it.
type Entry struct {
	ID     string
	Name   string // what toasts and confirmations call it (an alias)
	Cells  []string
	Detail [][2]string // label, value; blank values are left out
}

// List is one tab: what it shows, how it loads, and what it holds now.
type List struct {
	Title string // the tab's label
	What  string // what a failed load says it listed
	Empty string // what the list says when there is nothing
	Cols  []widget.Column
	// Narrow are the columns kept on a narrow terminal.
	Narrow []int
	Load   Loader

	table   *widget.Table
	entries map[string]Entry
	order   []string // entry ids in the service's order
	gen     int      // the latest load; older answers are dropped
	loading bool
	loaded  bool
	err     error
	// selectID is selected once the next load brings it (a new record).
	selectID string
}

// Table is the list's table.
func (l *List) Table() *widget.Table { return l.table }

// Err is the error of the list's last load.
func (l *List) Err() error { return l.err }

// Selected is the selected record.
func (l *List) Selected() (Entry, bool) {
	row, ok := l.table.Selected()
	if !ok {
		return Entry{}, false
	}
	return l.entries[row.ID], true
}

// A Loader lists the records of the operated account.
type Loader func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]Entry, error)

// Paged is the Loader of a paged list: it fetches every page, up to
// maxPages, and shows each record. On an error the pages read before it are
// still shown.
func Paged[T any](page func(ctx context.Context, svc api.Service, acct uuid.UUID, cursor string) (api.Page[T], error), show func(T) Entry) Loader {
	return func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]Entry, error) {
		var items []T
		cursor := ""
		for range maxPages {
			p, err := page(ctx, svc, acct, cursor)
			if err != nil {
				return Entries(items, err, show)
			}
			items = append(items, p.Items...)
			if !p.More() {
				break
			}
			cursor = p.Cursor
		}
		return Entries(items, nil, show)
	}
}

// Entries shows every record of a load; err passes through.
func Entries[T any](items []T, err error, show func(T) Entry) ([]Entry, error) {
	out := make([]Entry, 0, len(items))
	for _, it := range items {
		out = append(out, show(it))
	}
	return out, err
}

type loadedMsg struct {
	list, gen int
	entries   []Entry
	err       error
}

// Load fetches list i again; the command keeps the account and the
// generation it was issued for.
func (f *Frame) Load(i int) tea.Cmd {
	l := f.lists[i]
	l.gen = int(requestSeq.Add(1))
	l.loading = true
	gen := l.gen
	return f.Call(func(ctx context.Context, svc api.Service, acct uuid.UUID) tea.Msg {
		es, err := l.Load(ctx, svc, acct)
		if err != nil {
			err = fmt.Errorf("list %s: %w", l.What, err)
		}
		return loadedMsg{list: i, gen: gen, entries: es, err: err}
	})
}

// Call runs fn in a command bounded by requestTimeout, with the service and
// the operated account as they are now.
func (f *Frame) Call(fn func(ctx context.Context, svc api.Service, acct uuid.UUID) tea.Msg) tea.Cmd {
	svc, acct := f.s.Client, f.s.Account.ID
	return f.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		return fn(ctx, svc, acct)
	})
}

func (f *Frame) loaded(msg loadedMsg) tea.Cmd {
	if msg.list < 0 || msg.list >= len(f.lists) {
		return nil
	}
	l := f.lists[msg.list]
	if msg.gen != l.gen {
		return nil // an older load answered late
	}
	l.loading, l.err = false, msg.err
	if msg.err != nil && len(msg.entries) == 0 {
		return nil
	}
	l.loaded = true
	l.entries = make(map[string]Entry, len(msg.entries))
	l.order = l.order[:0]
	for _, e := range msg.entries {
		if _, dup := l.entries[e.ID]; !dup {
			l.order = append(l.order, e.ID)
		}
		l.entries[e.ID] = e
	}
	l.setRows(f.narrow)
	if l.selectID != "" && l.table.Select(l.selectID) {
		l.selectID = ""
	}
	return f.s.Refreshed()
}

// setRows lays out the table for the width and fills it.
func (l *List) setRows(narrow bool) {
	if narrow {
		l.table.SetColumns(pick(l.Cols, l.Narrow)...)
	} else {
		l.table.SetColumns(l.Cols...)
	}
	rows := make([]widget.Row, 0, len(l.order))
	for _, id := range l.order {
		cells := l.entries[id].Cells
		if narrow {
			cells = pick(cells, l.Narrow)
		}
		rows = append(rows, widget.Row{ID: id, Cells: cells})
	}
	l.table.SetRows(rows)
}

func pick[T any](all []T, idx []int) []T {
	out := make([]T, 0, len(idx))
	for _, i := range idx {
		if i < len(all) {
			out = append(out, all[i])
		}
	}
	return out
}
