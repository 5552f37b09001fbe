// Package tickets is the ticket browser: the whole ticket history of the
// operated account with server-side filters, cursor pages fetched ahead of
// the cursor (G loads them all), a detail pane with every block of a
// ticket and its webhook events, cancelling an UNPAID ticket, PDF receipts
// of paid tickets, CSV export of every ticket the filters match, live
// refresh of the tickets that are still moving, and a reload of the list
// when another screen created or moved a ticket (ui.ChangedMsg).
package tickets

import (
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Model is the ticket browser screen.
type Model struct {
	s   *ui.Session
	svc Service

	list *listing.List[*record]
	bar  *widget.FilterBar
	// ahead is G's read-ahead of pages, while it loads to the end.
	ahead *readAheads
	// watched are the loaded tickets that may still change on their own
	// (see moving), as their records came, each with when it is read
	// next: what a refresh tick looks through, rather than every loaded
	// ticket. Past watchMax of them (a list where most tickets move) the
	// tick walks the list instead, until the list is loaded again
	// (watchAll), and watched holds the newest moving ones it found.
	watched  map[uuid.UUID]watch
	watchAll bool
	// reload awaits a refresh that keeps the rows on screen until the
	// fresh first page replaces them (after a write).
	reload ui.Slot
	layout listing.Layout
	// cols are the columns shown; statusNeed, inNeed and outNeed the
	// widest status and input and output amounts loaded, in cells: the
	// columns are sized so that no amount is cut.
	cols                        []widget.Column
	statusNeed, inNeed, outNeed int

	detail     *detailPane
	detailSlot ui.Slot
	eventsSlot ui.Slot
	// ticking awaits the next tick of the live refresh, refresh that
	// refresh's answer: a list reset (filter, reload) drops an answer asked
	// for the rows it replaced.
	ticking, refresh ui.Slot
	// behind holds the refresh ticks while another screen is shown:
	// shown again after one came due, the screen refreshes at once and
	// the ticks start over.
	behind ui.Behind

	// The last file written, shown under the count: what, then where.
	note, notePath string
	// exp is the CSV export under way (nil for none), expSlot awaits its
	// next page; exportDir says where exports go (export_dir, else the
	// current directory).
	exp       *exportRun
	expSlot   ui.Slot
	exportDir func() (string, error)

	width, height int
	keys          keyMap
}

type keyMap struct {
	Open, Back, Filters, ClearFilters, Reload, Export, StopExport, Receipt, Copy, Cancel key.Binding
	Scroll                                                                               listing.ScrollKeys
}

func newKeys() keyMap {
	return keyMap{
		Open:         ui.Binding("enter", "details", "enter"),
		Back:         ui.Binding("esc", "back to the list", "esc", "backspace"),
		Filters:      ui.Binding("f", "server filters", "f"),
		ClearFilters: ui.Binding("x", "clear filters", "x"),
		Reload:       ui.Binding("r", "reload", "r"),
		Export:       ui.Binding("e", "export CSV", "e"),
		StopExport:   ui.Binding("esc", "stop export", "esc"),
		Receipt:      ui.Binding("d", "download receipt", "d"),
		Copy:         ui.Binding("y", "copy id", "y"),
		Cancel:       ui.Binding("c", "cancel ticket", "c"),
		Scroll:       listing.NewScrollKeys(),
	}
}

// New builds the ticket browser for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Model{
		s:    s,
		svc:  svc,
		bar:  newFilterBar(),
		keys: newKeys(),

		exportDir: defaultExportDir,
		ahead:     new(readAheads),
		watched:   map[uuid.UUID]watch{},
	}
	m.list = listing.New(s, "tickets", func(r *record) string { return r.ID.String() }, m.row, m.query, columns(amountWidth, amountWidth)...)
	// The filter matches the full row's cells whatever the columns: a
	// resize that changes them draws only the rows in view. The ID is
	// matched from the record, where it is kept in 16 bytes, rather than
	// kept again as text.
	m.list.Lazy(func(r *record) []string { return r.row(m.loc()).Cells[1:] }, (*record).idHolds)
	m.list.OnPage = m.taken
	m.list.SetEmpty("no tickets")
	m.list.SetBar(m.bar, m.reset)
	m.bar.SetCheck(listing.CheckCreated(m.loc))
	return m
}

// loc is the time zone dates are shown and typed in.
func (m *Model) loc() *time.Location {
	return m.s.Now().Location()
}

// ID implements ui.Screen.
func (m *Model) ID() string { return "tickets" }

// Title implements ui.Screen.
func (m *Model) Title() string { return "Tickets" }

// Init loads the first page and starts the live refresh.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.reset(), m.tick())
}

// Capturing is true while the filter form is open.
func (m *Model) Capturing() bool { return m.bar.Active() }

// Busy implements ui.Screen: an export under way is stopped by quitting
// or switching account, so the root asks first.
func (m *Model) Busy() bool { return m.exp != nil }

// End implements ui.Ender: an export under way when the session ends (an
// account switch, the program's end) is stopped and its partial file
// removed, and the user told.
func (m *Model) End() string {
	if m.exp == nil {
		return ""
	}
	n := m.exp.rows
	m.abortExport()
	return fmt.Sprintf("Tickets export stopped after %d tickets; nothing was saved", n)
}

// Filterable says the list takes the / filter.
func (m *Model) Filterable() bool { return true }

// SetSize implements ui.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.fit()
	m.list.SetTableSize(m.width, max(m.height-len(m.header(m.width)), 0))
	m.bar.SetWidth(m.width)
}

// fit lays the list out for its width and the widest amounts loaded.
func (m *Model) fit() {
	l, cols := listColumns(m.width, m.statusNeed, m.inNeed, m.outNeed)
	if l == m.layout && slices.Equal(cols, m.cols) {
		return
	}
	m.layout, m.cols = l, cols
	m.list.Redraw(cols...)
}

// measure widens the columns for records (a page, a refreshed ticket)
// whose status or amounts need more room than the ones loaded before.
// taken notes records just filed in the list: the room their cells need,
// and those that may still change on their own, for the refresh tick.
func (m *Model) taken(recs []*record) tea.Cmd {
	now := m.s.Now()
	for _, r := range recs {
		if !m.watchAll && moving(r, now) {
			if _, ok := m.watched[r.ID]; !ok {
				m.watched[r.ID] = newWatch(r, now)
			}
			if len(m.watched) > watchMax {
				m.watchAll, m.watched = true, map[uuid.UUID]watch{}
			}
		}
	}
	return m.measure(recs)
}

// watchMax bounds how many moving tickets are watched one by one.
const watchMax = 1024

// watch is when a watched ticket is read next (due) and how long after the
// read before (wait): refreshEvery for a ticket that just moved, twice as
// long after each read that finds it as it was, up to refreshStill; for
// one just listed, see newWatch. A ticket the user has under the cursor
// or open is read at every tick whatever its wait.
type watch struct {
	due  time.Time
	wait time.Duration
}

// newWatch watches r, found moving at now. Its first wait is as long as
// it has existed, from refreshEvery to refreshStill: one made seconds ago
// (the ticket just created on the Quote) may move any second; one made an
// hour ago and still moving (a bank transfer under way, a charge awaiting
// its payer) seldom does in the next five.
func newWatch(r *record, now time.Time) watch {
	wait := refreshEvery
	if created := r.CreatedAt(); !created.IsZero() {
		wait = min(max(now.Sub(created), refreshEvery), refreshStill)
	}
	return watch{due: now.Add(wait), wait: wait}
}

// isDue reports whether w's ticket is read at a tick at now: due before
// the next tick counts, since its wait was counted from the answer, which
// comes a little after the tick that asked.
func (w watch) isDue(now time.Time) bool { return !w.due.After(now.Add(refreshEvery / 2)) }

// read is w after a read of its ticket at now that found it moved or not.
func (w watch) read(now time.Time, moved bool) watch {
	if moved {
		w.wait = refreshEvery
	} else {
		w.wait = min(2*w.wait, refreshStill)
	}
	w.due = now.Add(w.wait)
	return w
}

func (m *Model) measure(recs []*record) tea.Cmd {
	st, in, out := m.statusNeed, m.inNeed, m.outNeed
	for _, r := range recs {
		s, i, o := r.widths()
		st, in, out = max(st, s), max(in, i), max(out, o)
	}
	if st != m.statusNeed || in != m.inNeed || out != m.outNeed {
		m.statusNeed, m.inNeed, m.outNeed = st, in, out
		m.fit()
	}
	return nil
}

// row lays a record out in the list's current columns.
func (m *Model) row(r *record) widget.Row {
	return r.rowFor(m.layout, m.loc(), m.s.Now())
}

// selected is the record under the cursor.
func (m *Model) selected() (*record, bool) { return m.list.Selected() }

// KeyMap returns the bindings live right now.
func (m *Model) KeyMap() []key.Binding {
	m.syncKeys()
	k := m.keys
	return m.list.Bindings(m.detail != nil, []key.Binding{k.Back, k.Cancel, k.Receipt, k.Copy, k.Reload}, k.Scroll,
		k.Open, k.Filters, k.ClearFilters, k.Reload, k.Export, k.StopExport, k.Cancel, k.Receipt, k.Copy)
}

// syncKeys enables the bindings whose action makes sense now.
func (m *Model) syncKeys() {
	k := &m.keys
	rec, hasSel := m.selected()
	k.Open.SetEnabled(hasSel)
	k.ClearFilters.SetEnabled(!m.bar.Empty())
	k.Export.SetEnabled(m.list.Loaded() && m.exp == nil)
	k.StopExport.SetEnabled(m.exp != nil)
	_, _, cancelable := m.cancelTarget()
	k.Cancel.SetEnabled(cancelable)
	if d := m.detail; d != nil {
		k.Receipt.SetEnabled(d.ticket != nil && d.ticket.Status == api.TicketPaid)
		k.Copy.SetEnabled(true)
	} else {
		k.Receipt.SetEnabled(hasSel && rec.Status() == api.TicketPaid)
		k.Copy.SetEnabled(hasSel)
	}
}
