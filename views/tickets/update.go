package tickets

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Update implements ui.Screen.
func (m *Model) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if msg, ok := msg.(pageMsg); ok && m.reload.Take(msg) {
		return m, m.onReload(msg)
	}
	if cmd, ok := m.list.Handle(msg); ok {
		m.relayout() // the header shows the error, if any
		for _, k := range m.list.Held() {
			cmd = tea.Batch(cmd, m.onKey(k))
		}
		return m, cmd
	}
	switch msg := msg.(type) {
	case detailMsg:
		if m.detail == nil || !m.detailSlot.Take(msg) {
			return m, nil
		}
		return m, m.onDetail(msg)
	case eventsMsg:
		if m.eventsSlot.Take(msg) {
			m.onEvents(msg)
		}
		return m, nil
	case canceledMsg:
		if !m.s.Owns(msg) {
			return m, nil
		}
		return m, m.onCanceled(msg.Value)
	case tickMsg:
		if !m.ticking.Take(msg) {
			return m, nil // the tick of a screen this one replaced
		}
		if !m.behind.Due() {
			return m, nil
		}
		return m, m.onTick()
	case ui.ShownMsg:
		if !m.behind.Shown(msg, m.ID()) {
			return m, nil
		}
		return m, m.onTick()
	case refreshMsg:
		if m.refresh.Take(msg) {
			return m, m.onRefresh(msg.Value)
		}
		return m, nil
	case receiptMsg:
		if !m.s.Owns(msg) {
			return m, nil
		}
		return m, m.onReceipt(msg)
	case exportPageMsg:
		if m.exp == nil || !m.expSlot.Take(msg) {
			return m, nil
		}
		return m, m.onExportPage(msg)
	case ui.NavigateMsg:
		if msg.Screen == m.ID() && msg.ID != "" {
			m.bar.Close()
			return m, m.openByID(msg.ID)
		}
		return m, nil
	case ui.ChangedMsg:
		if msg.For(m.s, ui.ChangedTickets) {
			return m, m.refreshList()
		}
		return m, nil
	case tea.KeyPressMsg:
		if m.detail == nil && !m.bar.Active() && m.list.Defer(msg) {
			return m, nil // for when the first page comes
		}
		return m, m.onKey(msg)
	}
	return m, m.list.Rest(msg)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.syncKeys()
	if m.detail != nil {
		return m.detailKey(msg)
	}
	k := m.keys
	if cmd, ok := m.list.FilterKey(msg, k.Filters, k.ClearFilters); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Open):
		rec, _ := m.selected()
		return m.openDetail(rec.ID)
	case key.Matches(msg, k.Reload):
		return m.reset()
	case key.Matches(msg, k.StopExport):
		return m.stopExport()
	case key.Matches(msg, k.Export):
		return m.startExport()
	case key.Matches(msg, k.Cancel):
		return m.confirmCancel()
	case key.Matches(msg, k.Receipt):
		rec, _ := m.selected()
		return m.receipt(rec.ID)
	case key.Matches(msg, k.Copy):
		rec, _ := m.selected()
		return ui.Copy("ticket id", rec.ID.String())
	}
	return m.list.Key(msg)
}

// reset drops the loaded list and asks for the first page under the
// applied filter. Answers to earlier requests are ignored from now on,
// the live refresh asked for the rows dropped among them: the next tick
// asks for the new rows (a reset with the detail open, after a write,
// fetches the detail anew; see refreshList).
func (m *Model) reset() tea.Cmd {
	m.stopStream()
	m.reload.Cancel()
	m.refresh.Cancel()
	m.watched, m.watchAll = map[uuid.UUID]watch{}, false
	if m.bar.Empty() {
		m.list.SetEmpty("no tickets in " + m.s.AccountName())
	} else {
		m.list.SetEmpty("no tickets match these filters (x clears them)")
	}
	cmd := m.list.Reload()
	m.relayout()
	return cmd
}

// query is the request of the page at cursor under the applied filter;
// the query and the account are fixed now, by value. While G loads to the
// end the pages come from a read-ahead (see aheadCall); any other request
// stops it.
func (m *Model) query(cursor string) (listing.PageCall[*record], error) {
	q, err := valuesOf(m.bar).query(m.s.Account.ID, cursor, m.loc())
	if err != nil {
		return nil, err
	}
	switch {
	case m.list.LoadingToEnd() && cursor != "":
		return m.aheadCall(q), nil
	case cursor != "":
		m.stopStream() // a page the list asks for itself
	}
	// A first page is a refresh (after a write, or when the service
	// answers again), which G's loading goes on after, or a reset, which
	// stops the stream itself.
	svc := m.svc
	return func(ctx context.Context) (api.Page[*record], error) { return records(svc.ListTickets(ctx, q)) }, nil
}

// refreshList loads the list again after a write, under the applied
// filters, without dropping what is shown: the rows stay until the fresh
// first page replaces them, and the cursor stays on its ticket. The open
// detail is fetched again, keeping its scroll.
func (m *Model) refreshList() tea.Cmd {
	var detail tea.Cmd
	if m.detail != nil {
		detail = m.openDetailKeepScroll()
	}
	if m.list.Len() == 0 {
		// Nothing shown to keep: a page asked for before the write may
		// still be on its way, and must not be taken.
		return tea.Batch(detail, m.reset())
	}
	call, err := m.query("")
	if err != nil {
		return detail
	}
	cmd := ui.Fetch(m.s, &m.reload, 0, func(ctx context.Context) (api.Page[*record], error) {
		p, err := call(ctx)
		if err != nil {
			err = fmt.Errorf("list tickets: %w", err)
		}
		return p, err
	})
	m.relayout()
	return tea.Batch(detail, cmd)
}

// onReload puts the fresh first page in place of the rows it covers. The
// service lists newest first: loaded rows older than the page's last one
// stay (they are further pages, and the next page still starts after
// them); rows the page should hold but does not are gone or no longer
// match the filters.
func (m *Model) onReload(msg pageMsg) tea.Cmd {
	if msg.Err != nil {
		m.list.Fail(msg.Err)
		m.relayout()
		return nil
	}
	recs, more := msg.Value.Items, msg.Value.More()
	fresh := make(map[uuid.UUID]bool, len(recs))
	for _, r := range recs {
		fresh[r.ID] = true
	}
	kept := 0
	if more && len(recs) > 0 {
		last := recs[len(recs)-1].created
		for _, r := range m.list.Items() {
			if !fresh[r.ID] && r.created <= last {
				fresh[r.ID] = true
				recs = append(recs, r)
				kept++
			}
		}
	}
	cursor := m.list.Cursor
	if kept == 0 {
		cursor = msg.Value.Cursor
	} else {
		more = m.list.More
	}
	// A next page on its way continued the old list: Replace drops it and
	// asks again if needed. G's loading to the end goes on from where it
	// was: a reload of every screen (the service answering again after a
	// request went unanswered) must not stop it short of the end.
	toEnd := m.list.LoadingToEnd()
	next := m.list.Replace(recs, cursor, more)
	if toEnd && more {
		next = tea.Batch(next, m.list.LoadToEnd())
	}
	m.relayout()
	return tea.Batch(m.s.Refreshed(), next)
}

// openDetail opens the detail pane of a ticket and fetches it whole, with
// its webhook events.
func (m *Model) openDetail(id uuid.UUID) tea.Cmd {
	m.detail = &detailPane{id: id, loading: true}
	svc, account := m.svc, m.s.Account.ID
	return tea.Batch(ui.Fetch(m.s, &m.detailSlot, 0, func(ctx context.Context) (*api.Ticket, error) {
		t, err := svc.GetTicket(ctx, account, id)
		if err != nil {
			err = fmt.Errorf("get ticket %s: %w", id, err)
		}
		return t, err
	}), m.loadEvents())
}

// openByID answers ":ticket ID".
func (m *Model) openByID(raw string) tea.Cmd {
	raw = strings.ToLower(strings.TrimSpace(raw))
	id, err := uuid.Parse(raw)
	if err != nil {
		// The lists show an id's first 8 characters: accept such a prefix
		// when exactly one loaded ticket has it.
		var found []uuid.UUID
		for _, r := range m.list.Items() {
			if len(raw) >= 4 && strings.HasPrefix(r.ID.String(), raw) {
				found = append(found, r.ID)
			}
		}
		switch len(found) {
		case 1:
			id = found[0]
		case 0:
			return ui.Toast(ui.ToastError, fmt.Sprintf("no loaded ticket starts with %q: type the whole id (y on a ticket copies it)", raw))
		default:
			return ui.Toast(ui.ToastError, fmt.Sprintf("%d loaded tickets start with %q: type more of the id", len(found), raw))
		}
	}
	m.list.Table.Table.Select(id.String())
	return m.openDetail(id)
}

// onDetail takes the ticket the open detail pane awaited.
func (m *Model) onDetail(msg detailMsg) tea.Cmd {
	d := m.detail
	d.loading = false
	if msg.Err != nil {
		d.err = msg.Err
		if errors.Is(msg.Err, api.ErrNotFound) {
			d.err = fmt.Errorf("ticket %s was not found in %s: check the id, or switch to the account it belongs to (S)", d.id, m.s.AccountName())
		}
		return nil
	}
	d.err, d.ticket = nil, msg.Value
	m.update(msg.Value)
	return nil
}

// update replaces the record of a ticket that is listed, and reports
// whether the ticket moved: its record changed, or it was not listed.
func (m *Model) update(t *api.Ticket) (moved bool) {
	if t == nil {
		return false
	}
	old, ok := m.list.Item(t.ID.String())
	if !ok {
		return true
	}
	r := newRecord(t)
	m.list.Put(r)
	m.taken([]*record{r}) // a status may have grown (PARTIAL-FAILED)
	return *old != *r
}

func (m *Model) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	d, k := m.detail, m.keys
	switch {
	case key.Matches(msg, k.Back):
		m.detail = nil
		m.eventsSlot.Cancel()
	case key.Matches(msg, k.Cancel):
		return m.confirmCancel()
	case key.Matches(msg, k.Receipt):
		return m.receipt(d.id)
	case key.Matches(msg, k.Copy):
		return ui.Copy("ticket id", d.id.String())
	case key.Matches(msg, k.Reload):
		return m.openDetailKeepScroll()
	default:
		d.Key(msg, k.Scroll, m.height)
	}
	return nil
}

func (m *Model) openDetailKeepScroll() tea.Cmd {
	old := m.detail
	cmd := m.openDetail(old.id)
	d := m.detail
	d.Scroll, d.receipt, d.ticket, d.refused = old.Scroll, old.receipt, old.ticket, old.refused
	// The events shown stay until the fresh ones replace them.
	d.events, d.eventsMore, d.eventsLoaded = old.events, old.eventsMore, old.eventsLoaded
	return cmd
}

func (m *Model) receipt(id uuid.UUID) tea.Cmd {
	return tea.Batch(
		ui.Toast(ui.ToastInfo, "Downloading the receipt of "+id.String()[:8]+"…"),
		call(m.s, saveReceipt(m.svc, m.exportDir, m.s.Account.ID, id)),
	)
}

func (m *Model) onReceipt(msg receiptMsg) tea.Cmd {
	if msg.Err != nil {
		return ui.Toast(ui.ToastError, "Receipt not saved: "+ui.ErrorText(msg.Err))
	}
	r := msg.Value
	if m.detail != nil && m.detail.id == r.id {
		m.detail.receipt = r.path
	}
	m.note, m.notePath = "receipt saved to ", r.path
	m.relayout()
	return ui.Toast(ui.ToastSuccess, "Receipt saved to "+r.path)
}

// onTick refreshes the unfinished tickets in view of the user: the open
// detail and the newest unfinished rows.
func (m *Model) onTick() tea.Cmd {
	next := m.tick()
	if m.refresh.Waiting() {
		return next
	}
	var ids []uuid.UUID
	seen := make(map[uuid.UUID]bool)
	add := func(id uuid.UUID) {
		if !seen[id] && len(ids) < refreshMax {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if d := m.detail; d != nil && d.ticket != nil && !d.ticket.Status.Final() {
		add(d.id)
	}
	if rec, ok := m.selected(); ok && !rec.Status().Final() {
		add(rec.ID)
	}
	for _, r := range m.movingNow() {
		add(r.ID)
	}
	if len(ids) == 0 {
		return next
	}
	return tea.Batch(next, ui.Fetch(m.s, &m.refresh, 0, refreshTickets(m.svc, m.s.Account.ID, ids)))
}

func (m *Model) onRefresh(msg refreshed) tea.Cmd {
	var events tea.Cmd
	now := m.s.Now()
	for _, t := range msg.tickets {
		w, watched := m.watched[t.ID]
		if d := m.detail; d != nil && d.id == t.ID && !d.loading {
			if d.ticket == nil || d.ticket.Status != t.Status || !d.ticket.UpdatedAt.Equal(t.UpdatedAt.Time) {
				events = m.loadEvents() // it moved: a new event was recorded
			}
			d.ticket = t
		}
		if moved := m.update(t); watched {
			m.watched[t.ID] = w.read(now, moved)
		}
	}
	return events
}

// relayout gives the table the room left by the header lines, which
// depends on whether a note or an error is shown.
func (m *Model) relayout() { m.SetSize(m.width, m.height) }

// movingNow are the listed tickets that may still change on their own
// and are due to be read, the newest (first listed) first, up to
// refreshMax: looked for among the watched ones, which are forgotten once
// gone from the list or still (a ticket stops moving only by a new
// record, which is watched again if it moves, or by time). Past watchMax
// of them the newest refreshMax moving ones of the whole list are the
// watched ones, kept with their waits from one tick to the next.
func (m *Model) movingNow() []*record {
	now := m.s.Now()
	if m.watchAll {
		var out []*record
		newest := make(map[uuid.UUID]watch, refreshMax)
		for _, r := range m.list.Items() {
			if len(newest) == refreshMax {
				break
			}
			if !moving(r, now) {
				continue
			}
			w, ok := m.watched[r.ID]
			if !ok {
				w = newWatch(r, now)
			}
			newest[r.ID] = w
			if w.isDue(now) {
				out = append(out, r)
			}
		}
		m.watched = newest
		return out
	}
	type listed struct {
		r   *record
		pos int
	}
	var found []listed
	for id, w := range m.watched {
		pos, ok := m.list.Table.Table.Index(id.String())
		if !ok {
			delete(m.watched, id)
			continue
		}
		switch r := m.list.Items()[pos]; {
		case !moving(r, now):
			delete(m.watched, id)
		case w.isDue(now):
			found = append(found, listed{r, pos})
		}
	}
	slices.SortFunc(found, func(a, b listed) int { return a.pos - b.pos })
	out := make([]*record, 0, min(len(found), refreshMax))
	for _, f := range found[:min(len(found), refreshMax)] {
		out = append(out, f.r)
	}
	return out
}

// moving reports whether a listed ticket may still change on its own: it is
// being processed, or it waits for funds and has not expired for long (one
// more look shows it CANCELED). Long-dead UNPAID rows are not polled.
func moving(r *record, now time.Time) bool {
	switch r.status {
	case codeProcessing, codePending, codeOnHold:
		return true
	case codeUnpaid:
		exp := r.ExpiresAt()
		return exp.IsZero() || now.Before(exp.Add(time.Minute))
	}
	return false
}

// The codes of the statuses moving looks for: a refresh tick walks every
// loaded ticket, compared by code rather than by name.
var (
	codeProcessing = codeOf(string(api.TicketProcessing))
	codePending    = codeOf(string(api.TicketPending))
	codeOnHold     = codeOf(string(api.TicketOnHold))
	codeUnpaid     = codeOf(string(api.TicketUnpaid))
)

// call runs fn as a request of s whose answer any screen of s may take
// (checked with Session.Owns): files written, downloads.
func call[T any](s *ui.Session, fn func(context.Context) (T, error)) tea.Cmd {
	_, cmd := ui.Call(s, 0, fn)
	return cmd
}
