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
	case listing.PageMsg[api.WebhookEvent]:
		cmd, _ := m.events.Handle(msg)
		return m, cmd
	case ui.FilterMsg:
		filtered := m.events.SetFilter(msg.Query) // and the attempts, below
		cmd, _ := m.list.Handle(msg)
		return m, tea.Batch(filtered, cmd)
	case ui.ThemeChangedMsg:
		m.events.Restyle()
		if m.edit != nil {
			m.edit.form.SetStyles(formStyles(m.s))
		}
	case editOKMsg:
		return m, m.sendEdit(msg)
	case editedMsg:
		return m, m.onEdited(msg)
	case tea.KeyPressMsg:
		if m.edit != nil {
			return m, m.editKey(msg)
		}
	}
	if cmd, ok := m.list.Handle(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case hooksMsg:
		if m.hooksSlot.Take(msg) {
			m.hooks, m.hooksErr, m.hooksLoaded = msg.Value, msg.Err, true
			m.relayout()
		}
		return m, nil
	case detailMsg:
		if d := m.detail; d != nil && m.detailSlot.Take(msg) {
			d.loading, d.attempt, d.err = false, msg.Value, msg.Err
			if msg.Err != nil && errors.Is(msg.Err, api.ErrNotFound) {
				d.err = fmt.Errorf("attempt %s was not found among the webhook attempts of the main account, which every sub-account's deliveries go to", d.id)
			}
			if msg.Value != nil {
				m.replace(*msg.Value)
			}
		}
		return m, nil
	case ackMsg:
		if !m.s.Owns(msg) {
			return m, nil // sent by the screen of another account
		}
		return m, m.onAck(msg)
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	if m.edit != nil {
		return m, m.editKey(msg) // a paste, the cursor's blink
	}
	return m, m.list.Rest(msg)
}

// switchTab shows the other list; the events load the first time.
func (m *Model) switchTab() tea.Cmd {
	m.tab = 1 - m.tab
	if m.tab == 1 && !m.events.Started {
		return m.reloadEvents()
	}
	return nil
}

func (m *Model) eventsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.eventDetail.Open != nil {
		switch {
		case key.Matches(msg, k.Back):
			m.eventDetail.Close()
		case key.Matches(msg, k.Up):
			m.eventDetail.Offset--
		case key.Matches(msg, k.Down):
			m.eventDetail.Offset++
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Prev), key.Matches(msg, k.Next):
		return m.switchTab()
	case key.Matches(msg, k.Open):
		if e, ok := m.events.Selected(); ok {
			m.eventDetail.Show(e)
		}
		return nil
	case key.Matches(msg, k.Kind):
		m.eventSub = m.nextSub()
		return m.reloadEvents()
	case key.Matches(msg, k.Reload):
		return tea.Batch(m.reloadEvents(), m.fetchHooks())
	case key.Matches(msg, k.Copy):
		if e, ok := m.events.Selected(); ok {
			return ui.Copy("event id", e.ID)
		}
		return nil
	}
	return m.events.Key(msg)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.syncKeys()
	k := m.keys
	if key.Matches(msg, k.Edit) && k.Edit.Enabled() {
		return m.openEdit()
	}
	if m.tab == 1 {
		return m.eventsKey(msg)
	}
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
	case key.Matches(msg, k.Prev), key.Matches(msg, k.Next):
		return m.switchTab()
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
		m.list.Put(*a) // its row shows the mark
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
	return m.list.Key(msg)
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
	return ui.Confirm(title, strings.TrimRight(body.String(), "\n"), m.acknowledge(ids))
}

func (m *Model) onAck(msg ackMsg) tea.Cmd {
	if msg.Err != nil {
		return ui.Toast(ui.ToastError, ui.ErrorText(msg.Err)+" — nothing was changed; press a to try again")
	}
	for _, id := range msg.Value.ids {
		delete(m.marked, id)
		if a, ok := m.list.Item(id); ok {
			a.Acknowledged = true
			m.list.Put(a)
		}
		if d := m.detail; d != nil && d.id == id && d.attempt != nil {
			d.attempt.Acknowledged = true
		}
	}
	text := fmt.Sprintf("Acknowledged %d webhook attempt(s)", len(msg.Value.ids))
	if msg.Value.jerr != nil {
		return ui.Toast(ui.ToastError, text+", but the journal entry failed: "+ui.ErrorText(msg.Value.jerr))
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
	if _, ok := m.list.Item(a.ID); ok {
		m.list.Put(a)
	}
}

func (m *Model) openDetail(id string) tea.Cmd {
	m.detail = &detailPane{id: id, loading: true}
	if a, ok := m.list.Item(id); ok {
		m.detail.attempt = &a
	}
	svc := m.svc
	return ui.Fetch(m.s, &m.detailSlot, 0, func(ctx context.Context) (*api.WebhookAttempt, error) {
		a, err := svc.GetWebhookAttempt(ctx, id)
		if err != nil {
			err = fmt.Errorf("get webhook attempt %s: %w", id, err)
		}
		return a, err
	})
}

// reset drops the list and asks for its first page under the applied
// filter; answers to earlier requests are ignored from now on.
func (m *Model) reset() tea.Cmd {
	m.marked = map[string]bool{}
	switch {
	case m.unacked && m.bar.Empty():
		m.list.SetEmpty("no unacknowledged attempts (u shows all)")
	case !m.bar.Empty() || m.unacked:
		m.list.SetEmpty("no attempts match these filters (x clears them)")
	default:
		m.list.SetEmpty("no delivery attempts yet (webhooks, and their deliveries, belong to the main account)")
	}
	return m.list.Reload()
}

// query is the request of the page at cursor under the applied filter,
// fixed now, by value.
func (m *Model) query(cursor string) (listing.PageCall[api.WebhookAttempt], error) {
	q, err := m.filter().query(cursor, m.loc())
	if err != nil {
		return nil, err
	}
	svc := m.svc
	return func(ctx context.Context) (api.Page[api.WebhookAttempt], error) {
		return svc.ListWebhookAttempts(ctx, q)
	}, nil
}

func (m *Model) fetchHooks() tea.Cmd {
	svc := m.svc
	return ui.Fetch(m.s, &m.hooksSlot, 0, func(ctx context.Context) ([]api.Webhook, error) {
		hooks, err := svc.ListWebhooks(ctx)
		if err != nil {
			err = fmt.Errorf("list webhooks: %w", err)
		}
		return hooks, err
	})
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

func (m *Model) row(a api.WebhookAttempt) widget.Row {
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
	return widget.Row{Cells: cells}
}
