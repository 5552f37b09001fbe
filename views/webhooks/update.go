package webhooks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
	case hooksMsg:
		if msg.req == m.hooksReq && msg.account == m.s.Account.ID {
			m.hooks, m.hooksErr, m.hooksLoaded = msg.hooks, msg.err, true
			m.relayout()
		}
		return m, nil
	case detailMsg:
		if d := m.detail; d != nil && msg.req == m.detailReq && msg.account == m.s.Account.ID {
			d.loading, d.attempt, d.err = false, msg.attempt, msg.err
			if msg.err != nil && errors.Is(msg.err, api.ErrNotFound) {
				d.err = fmt.Errorf("attempt %s was not found in %s: it may belong to another account (S switches)", d.id, m.s.AccountName())
			}
			if msg.attempt != nil {
				m.replace(*msg.attempt)
			}
		}
		return m, nil
	case ackMsg:
		return m, m.onAck(msg)
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
	k := m.keys
	if d := m.detail; d != nil {
		switch {
		case key.Matches(msg, k.Back):
			m.detail = nil
		case key.Matches(msg, k.Copy):
			return ui.Copy("attempt id", d.id)
		case key.Matches(msg, k.Ack):
			return m.confirmAck([]api.WebhookAttempt{*d.attempt})
		case key.Matches(msg, k.Up):
			d.Offset--
		case key.Matches(msg, k.Down):
			d.Offset++
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		a, _ := m.selected()
		return m.openDetail(a.ID)
	case key.Matches(msg, k.Mark):
		a, _ := m.selected()
		if m.marked[a.ID] {
			delete(m.marked, a.ID)
		} else {
			m.marked[a.ID] = true
		}
		m.table.AppendRows([]widget.Row{m.row(a)})
		return nil
	case key.Matches(msg, k.Ack):
		return m.confirmAck(m.ackTargets())
	case key.Matches(msg, k.Unacked):
		m.unacked = !m.unacked
		return m.reset()
	case key.Matches(msg, k.Filters):
		return m.bar.Open()
	case key.Matches(msg, k.Clear):
		m.bar.Clear()
		m.unacked = false
		return m.reset()
	case key.Matches(msg, k.Reload):
		return tea.Batch(m.reset(), m.fetchHooks())
	case key.Matches(msg, k.Copy):
		a, _ := m.selected()
		return ui.Copy("attempt id", a.ID)
	}
	return tea.Batch(m.table.Update(msg), m.prefetch())
}

// confirmAck asks before acknowledging; the question repeats what is
// acknowledged and where.
func (m *Model) confirmAck(targets []api.WebhookAttempt) tea.Cmd {
	if len(targets) == 0 {
		return ui.Toast(ui.ToastInfo, "Nothing to acknowledge: the selected attempts are acknowledged already")
	}
	ids := make([]string, len(targets))
	var body strings.Builder
	fmt.Fprintf(&body, "Mark %d delivery attempt(s) of %s as acknowledged:\n", len(targets), m.s.AccountName())
	for i, a := range targets {
		ids[i] = a.ID
		if i < 5 {
			fmt.Fprintf(&body, "  %s  HTTP %d\n    to %s\n", a.ID, a.ResponseStatus, a.WebhookURL)
		}
	}
	if len(targets) > 5 {
		fmt.Fprintf(&body, "  … and %d more\n", len(targets)-5)
	}
	title := "Acknowledge 1 attempt?"
	if len(targets) > 1 {
		title = fmt.Sprintf("Acknowledge %d attempts?", len(targets))
	}
	return ui.Confirm(title, strings.TrimRight(body.String(), "\n"), acknowledge(m.s, m.s.Account.ID, ids))
}

func (m *Model) onAck(msg ackMsg) tea.Cmd {
	if msg.account != m.s.Account.ID {
		return nil
	}
	if msg.err != nil {
		return ui.Toast(ui.ToastError, msg.err.Error()+" — nothing was changed; press a to try again")
	}
	for _, id := range msg.ids {
		delete(m.marked, id)
		if i, ok := m.byID[id]; ok {
			a := m.attempts[i]
			a.Acknowledged = true
			m.replace(a)
		}
		if d := m.detail; d != nil && d.id == id && d.attempt != nil {
			d.attempt.Acknowledged = true
		}
	}
	text := fmt.Sprintf("Acknowledged %d webhook attempt(s)", len(msg.ids))
	if msg.jerr != nil {
		return ui.Toast(ui.ToastError, text+", but the journal entry failed: "+msg.jerr.Error())
	}
	cmds := []tea.Cmd{ui.Toast(ui.ToastSuccess, text)}
	if m.unacked {
		// They no longer match the filter.
		cmds = append(cmds, m.reset())
	}
	return tea.Batch(cmds...)
}

// replace updates a listed attempt and its row.
func (m *Model) replace(a api.WebhookAttempt) {
	i, ok := m.byID[a.ID]
	if !ok {
		return
	}
	m.attempts[i] = a
	m.table.AppendRows([]widget.Row{m.row(&a)})
}

func (m *Model) openDetail(id string) tea.Cmd {
	m.detail = &detailPane{id: id, loading: true}
	if i, ok := m.byID[id]; ok {
		a := m.attempts[i]
		m.detail.attempt = &a
	}
	m.detailReq = listing.NextID()
	req, account, client := m.detailReq, m.s.Account.ID, m.s.Client
	return listing.Request(m.s, func(ctx context.Context) tea.Msg {
		a, err := client.GetWebhookAttempt(ctx, account, id)
		if err != nil {
			err = fmt.Errorf("get webhook attempt %s: %w", id, err)
		}
		return detailMsg{req: req, account: account, attempt: a, err: err}
	})
}

// reset drops the list and asks for its first page under the applied
// filter; answers to earlier requests are ignored from now on.
func (m *Model) reset() tea.Cmd {
	m.attempts = nil
	m.byID = map[string]int{}
	m.marked = map[string]bool{}
	m.table.SetRows(nil)
	switch {
	case m.unacked && m.bar.Empty():
		m.table.SetEmpty("no unacknowledged attempts (u shows all)")
	case !m.bar.Empty() || m.unacked:
		m.table.SetEmpty("no attempts match these filters (x clears them)")
	default:
		m.table.SetEmpty("no delivery attempts in " + m.s.AccountName())
	}
	m.pager.Reset()
	m.relayout()
	return m.fetch()
}

// fetch asks for the next page; the query is fixed now, by value.
func (m *Model) fetch() tea.Cmd {
	q, err := m.filter().query(m.s.Account.ID, m.pager.Cursor, m.loc())
	if err != nil {
		m.pager.Fail(err)
		m.relayout()
		return nil
	}
	return listing.Fetch(&m.pager, m.s, "list webhook attempts", m.s.Client.ListWebhookAttempts, q)
}

func (m *Model) fetchHooks() tea.Cmd {
	m.hooksReq = listing.NextID()
	req, account, client := m.hooksReq, m.s.Account.ID, m.s.Client
	return listing.Request(m.s, func(ctx context.Context) tea.Msg {
		hooks, err := client.ListWebhooks(ctx, account)
		if err != nil {
			err = fmt.Errorf("list webhooks: %w", err)
		}
		return hooksMsg{req: req, account: account, hooks: hooks, err: err}
	})
}

func (m *Model) prefetch() tea.Cmd { return m.pager.Ahead(m.table, m.fetch) }

func (m *Model) onPage(msg pageMsg) tea.Cmd {
	if !m.pager.Take(msg, m.s.Account.ID) {
		return nil
	}
	if msg.Err == nil {
		rows := make([]widget.Row, 0, len(msg.Page.Items))
		for _, a := range msg.Page.Items {
			if i, ok := m.byID[a.ID]; ok {
				m.attempts[i] = a
			} else {
				m.byID[a.ID] = len(m.attempts)
				m.attempts = append(m.attempts, a)
			}
			rows = append(rows, m.row(&a))
		}
		m.table.AppendRows(rows)
	}
	m.relayout()
	return m.pager.Next(m.s, m.table, msg, m.fetch)
}

// stamp shows one of the attempt's timestamps (strings in the seed) in the
// local zone, or as it came when it is not a timestamp.
func stamp(s string, loc *time.Location, layout string) string {
	var t api.Time
	if err := t.UnmarshalJSON([]byte(`"` + strings.ReplaceAll(s, `"`, ``) + `"`)); err != nil || t.IsZero() {
		return s
	}
	return t.In(loc).Format(layout)
}

func (m *Model) row(a *api.WebhookAttempt) widget.Row {
	sel := "[ ]"
	if m.marked[a.ID] {
		sel = "[x]"
	}
	acked := "no"
	if a.Acknowledged {
		acked = "yes"
	}
	status := "—"
	if a.ResponseStatus != 0 {
		status = fmt.Sprint(a.ResponseStatus)
	}
	cells := []string{sel, acked, status, stamp(a.CreatedAt, m.loc(), "2006-01-02 15:04"), a.WebhookURL, a.WebhookEventID, a.ID}
	if m.narrow {
		// The event and attempt ids stay after the shown cells, for the /
		// filter.
		cells = []string{sel, acked, status, stamp(a.CreatedAt, m.loc(), "01-02 15:04"), a.WebhookURL, a.WebhookEventID, a.ID}
	}
	return widget.Row{ID: a.ID, Cells: cells}
}
