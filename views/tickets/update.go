package tickets

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Update implements ui.Screen.
func (m *Model) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case pageMsg:
		return m, m.onPage(msg)
	case detailMsg:
		return m, m.onDetail(msg)
	case tickMsg:
		return m, m.onTick(msg)
	case refreshMsg:
		m.onRefresh(msg)
		return m, nil
	case receiptMsg:
		return m, m.onReceipt(msg)
	case exportMsg:
		return m, m.onExport(msg)
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
	case ui.FilterMsg:
		m.table.SetFilter(msg.Query)
		return m, nil
	case ui.ThemeChangedMsg:
		listing.Style(m.s.Styles(), m.table, m.bar)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	if m.bar.Active() {
		return m, listing.UpdateForm(m.bar, msg, m.reset)
	}
	return m, nil
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.bar.Active() {
		return listing.UpdateForm(m.bar, msg, m.reset)
	}
	m.syncKeys()
	if m.detail != nil {
		return m.detailKey(msg)
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Open):
		rec, _ := m.selected()
		return m.openDetail(rec.ID)
	case key.Matches(msg, k.Filters):
		return m.bar.Open()
	case key.Matches(msg, k.ClearFilters):
		m.bar.Clear()
		return m.reset()
	case key.Matches(msg, k.Reload):
		return m.reset()
	case key.Matches(msg, k.Export):
		return m.export()
	case key.Matches(msg, k.Receipt):
		rec, _ := m.selected()
		return m.receipt(rec.ID)
	case key.Matches(msg, k.Copy):
		rec, _ := m.selected()
		return ui.Copy("ticket id", rec.ID.String())
	}
	return tea.Batch(m.table.Update(msg), m.prefetch())
}

// reset drops the loaded list and asks for the first page under the
// applied filter. Answers to earlier requests are ignored from now on.
func (m *Model) reset() tea.Cmd {
	m.listGen++
	m.reloadReq = 0
	m.recs = nil
	m.byID = make(map[uuid.UUID]int)
	m.table.SetRows(nil)
	if m.bar.Empty() {
		m.table.SetEmpty("no tickets in " + m.s.AccountName())
	} else {
		m.table.SetEmpty("no tickets match these filters (x clears them)")
	}
	m.pager.Reset()
	m.relayout()
	return m.fetch()
}

// fetch asks for the next page. The query, the request id and the account
// are fixed now, by value.
func (m *Model) fetch() tea.Cmd {
	q, err := valuesOf(m.bar).query(m.s.Account.ID, m.pager.Cursor, m.loc())
	if err != nil {
		m.pager.Fail(err)
		m.relayout()
		return nil
	}
	return listing.Fetch(&m.pager, m.s, "list tickets", m.s.Client.ListTickets, q)
}

// prefetch asks for the next page when the cursor nears the last loaded
// row and no page is on its way already.
func (m *Model) prefetch() tea.Cmd { return m.pager.Ahead(m.table, m.fetch) }

func (m *Model) onPage(msg pageMsg) tea.Cmd {
	if msg.Req != 0 && msg.Req == m.reloadReq {
		return m.onReload(msg)
	}
	if !m.pager.Take(msg, m.s.Account.ID) {
		return nil // an answer to a request made before a filter or account change
	}
	if msg.Err == nil {
		rows := make([]widget.Row, 0, len(msg.Page.Items))
		for i := range msg.Page.Items {
			rec := newRecord(&msg.Page.Items[i])
			if j, ok := m.byID[rec.ID]; ok {
				m.recs[j] = rec
			} else {
				m.byID[rec.ID] = len(m.recs)
				m.recs = append(m.recs, rec)
			}
			rows = append(rows, m.row(rec))
		}
		m.table.AppendRows(rows)
	}
	m.relayout()
	return m.pager.Next(m.s, m.table, msg, m.fetch)
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
	if len(m.recs) == 0 {
		// Nothing shown to keep: a page asked for before the write may
		// still be on its way, and must not be taken.
		return tea.Batch(detail, m.reset())
	}
	q, err := valuesOf(m.bar).query(m.s.Account.ID, "", m.loc())
	if err != nil {
		return detail
	}
	m.reloadReq = listing.NextID()
	req, account, client := m.reloadReq, m.s.Account.ID, m.s.Client
	m.relayout()
	return tea.Batch(detail, listing.Request(m.s, func(ctx context.Context) tea.Msg {
		page, err := client.ListTickets(ctx, q)
		if err != nil {
			err = fmt.Errorf("list tickets: %w", err)
		}
		return pageMsg{Req: req, Account: account, Page: page, Err: err}
	}))
}

// onReload puts the fresh first page in place of the rows it covers. The
// service lists newest first: loaded rows older than the page's last one
// stay (they are further pages, and the next page still starts after
// them); rows the page should hold but does not are gone or no longer
// match the filters.
func (m *Model) onReload(msg pageMsg) tea.Cmd {
	m.reloadReq = 0
	if msg.Account != m.s.Account.ID {
		return nil
	}
	if msg.Err != nil {
		m.pager.Fail(msg.Err)
		m.relayout()
		return nil
	}
	items := msg.Page.Items
	more := msg.Page.More()
	recs := make([]*record, 0, len(items)+len(m.recs))
	byID := make(map[uuid.UUID]int, cap(recs))
	for i := range items {
		rec := newRecord(&items[i])
		if j, dup := byID[rec.ID]; dup {
			recs[j] = rec
			continue
		}
		byID[rec.ID] = len(recs)
		recs = append(recs, rec)
	}
	kept := 0
	if more && len(recs) > 0 {
		last := recs[len(recs)-1].created
		for _, r := range m.recs {
			if _, ok := byID[r.ID]; !ok && r.created <= last {
				byID[r.ID] = len(recs)
				recs = append(recs, r)
				kept++
			}
		}
	}
	if kept == 0 {
		m.pager.Cursor, m.pager.More = msg.Page.Cursor, more
	}
	// A next page on its way continued the old list: ask again if needed.
	m.pager.Req, m.pager.Loading, m.pager.Err = 0, false, nil
	m.recs, m.byID = recs, byID
	m.table.SetRows(m.rows(recs))
	m.relayout()
	return tea.Batch(m.s.Refreshed(), m.prefetch())
}

// openDetail opens the detail pane of a ticket and fetches it whole.
func (m *Model) openDetail(id uuid.UUID) tea.Cmd {
	m.detail = &detailPane{id: id, loading: true}
	m.detailReq = listing.NextID()
	return listing.Request(m.s, getTicket(m.s.Client, m.detailReq, m.s.Account.ID, id))
}

// openByID answers ":ticket ID".
func (m *Model) openByID(raw string) tea.Cmd {
	raw = strings.ToLower(strings.TrimSpace(raw))
	id, err := uuid.Parse(raw)
	if err != nil {
		// The lists show an id's first 8 characters: accept such a prefix
		// when exactly one loaded ticket has it.
		var found []uuid.UUID
		for _, r := range m.recs {
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
	m.table.Select(id.String())
	return m.openDetail(id)
}

func (m *Model) onDetail(msg detailMsg) tea.Cmd {
	d := m.detail
	if d == nil || msg.req != m.detailReq || msg.account != m.s.Account.ID {
		return nil
	}
	d.loading = false
	if msg.err != nil {
		if errors.Is(msg.err, api.ErrNotFound) {
			msg.err = fmt.Errorf("ticket %s was not found in %s: check the id, or switch to the account it belongs to (S)", msg.id, m.s.AccountName())
		}
		d.err = msg.err
		return nil
	}
	d.err, d.ticket = nil, msg.ticket
	m.update(msg.ticket)
	return nil
}

// update replaces the record of a ticket that is listed.
func (m *Model) update(t *api.Ticket) {
	i, ok := m.byID[t.ID]
	if !ok {
		return
	}
	rec := newRecord(t)
	m.recs[i] = rec
	m.table.AppendRows([]widget.Row{m.row(rec)})
}

func (m *Model) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	d, k := m.detail, m.keys
	switch {
	case key.Matches(msg, k.Back):
		m.detail = nil
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
	m.detail.Scroll, m.detail.receipt, m.detail.ticket = old.Scroll, old.receipt, old.ticket
	return cmd
}

func (m *Model) receipt(id uuid.UUID) tea.Cmd {
	return tea.Batch(
		ui.Toast(ui.ToastInfo, "Downloading the receipt of "+id.String()[:8]+"…"),
		listing.Request(m.s, saveReceipt(m.s.Client, m.s.StateDir, m.s.Account.ID, id)),
	)
}

func (m *Model) onReceipt(msg receiptMsg) tea.Cmd {
	if msg.account != m.s.Account.ID {
		return nil
	}
	if msg.err != nil {
		return ui.Toast(ui.ToastError, "Receipt not saved: "+msg.err.Error())
	}
	if m.detail != nil && m.detail.id == msg.id {
		m.detail.receipt = msg.path
	}
	m.note, m.notePath = "receipt saved to ", msg.path
	m.relayout()
	return ui.Toast(ui.ToastSuccess, "Receipt saved to "+msg.path)
}

// export writes the rows the list shows (the / filter applies) to CSV.
func (m *Model) export() tea.Cmd {
	rows := m.table.VisibleRows()
	recs := make([]*record, 0, len(rows))
	for _, r := range rows {
		if id, err := uuid.Parse(r.ID); err == nil {
			if i, ok := m.byID[id]; ok {
				recs = append(recs, m.recs[i])
			}
		}
	}
	return m.s.Request(exportCSV(m.id, m.s.StateDir, m.s.Now(), recs))
}

func (m *Model) onExport(msg exportMsg) tea.Cmd {
	if msg.screen != m.id {
		return nil
	}
	if msg.err != nil {
		return ui.Toast(ui.ToastError, "Export failed: "+msg.err.Error())
	}
	m.note, m.notePath = fmt.Sprintf("exported %d rows to ", msg.rows), msg.path
	m.relayout()
	return ui.Toast(ui.ToastSuccess, fmt.Sprintf("Exported %d tickets to %s", msg.rows, msg.path))
}

// onTick refreshes the unfinished tickets in view of the user: the open
// detail and the newest unfinished rows.
func (m *Model) onTick(msg tickMsg) tea.Cmd {
	if msg.screen != m.id {
		return nil
	}
	next := m.tick(m.id)
	if m.refreshing {
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
	now := m.s.Now()
	for _, r := range m.recs {
		if len(ids) >= refreshMax {
			break
		}
		if moving(r, now) {
			add(r.ID)
		}
	}
	if len(ids) == 0 {
		return next
	}
	m.refreshing = true
	return tea.Batch(next, listing.Request(m.s, refreshTickets(m.s.Client, m.id, m.listGen, m.s.Account.ID, ids)))
}

func (m *Model) onRefresh(msg refreshMsg) {
	if msg.screen != m.id {
		return
	}
	m.refreshing = false
	if msg.account != m.s.Account.ID {
		return
	}
	for _, t := range msg.tickets {
		if d := m.detail; d != nil && d.id == t.ID && !d.loading {
			d.ticket = t
		}
		if msg.gen == m.listGen {
			m.update(t)
		}
	}
}

// relayout gives the table the room left by the header lines, which
// depends on whether a note or an error is shown.
func (m *Model) relayout() { m.SetSize(m.width, m.height) }

// moving reports whether a listed ticket may still change on its own: it is
// being processed, or it waits for funds and has not expired for long (one
// more look shows it EXPIRED). Long-dead PENDING rows are not polled.
func moving(r *record, now time.Time) bool {
	switch r.Status() {
	case api.TicketProcessing:
		return true
	case api.TicketPending:
		exp := r.ExpiresAt()
		return exp.IsZero() || now.Before(exp.Add(time.Minute))
	}
	return false
}
