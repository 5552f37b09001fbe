// Package webhooks is the webhooks screen: the delivery attempts of the
// operated account's webhook events (filters sent to the service, detail by
// id, acknowledgement of the selected attempts after a confirmation), the
// events themselves in a second tab, and the webhooks registered to receive
// them, each editable (URL and events) after a confirmation.
package webhooks

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

type (
	hooksMsg  = ui.Result[[]api.Webhook]
	detailMsg = ui.Result[*api.WebhookAttempt]
	// ackMsg says how an acknowledgement went. Several may be on their
	// way; each answer of this session is taken.
	ackMsg = ui.Result[acked]
)

// acked is what an acknowledgement covered, and whether it was journaled.
type acked struct {
	ids  []string
	jerr error
}

// fEvent is the filter bar's key of the event id, besides the creation
// dates'.
const fEvent = "event"

// filterValues is the applied filter, captured by value by each request.
type filterValues struct {
	Event, From, To string
	UnackedOnly     bool
}

// query maps the filter to the service's query; dates are calendar days in
// loc.
func (f filterValues) query(cursor string, loc *time.Location) (api.AttemptFilter, error) {
	q := api.AttemptFilter{Cursor: cursor, WebhookEventID: f.Event, UnackedOnly: f.UnackedOnly}
	var err error
	q.CreatedAfter, q.CreatedBefore, err = listing.Created(f.From, f.To, loc)
	return q, err
}

// Model is the webhooks screen.
type Model struct {
	s    *ui.Session
	svc  Service
	list *listing.List[api.WebhookAttempt]
	bar  *widget.FilterBar
	// unacked asks for the unacknowledged attempts only (u).
	unacked bool

	marked map[string]bool

	hooks       []api.Webhook
	hooksErr    error
	hooksSlot   ui.Slot
	hooksLoaded bool

	detail     *detailPane
	detailSlot ui.Slot

	// tab is the list shown: 0 the delivery attempts, 1 the events.
	tab         int
	events      *listing.List[api.WebhookEvent]
	eventSub    string // the one subscription the events are narrowed to
	eventDetail listing.Detail[api.WebhookEvent]

	// edit is the open edit form of a webhook (nil when none).
	edit *editor

	width, height int
	narrow        bool
	keys          keyMap
}

// narrowWidth is the width under which the list keeps the selection, the
// acknowledgement, the HTTP status, the time and the URL, so that these are
// never squeezed out by the event and attempt ids.
const narrowWidth = 80

// columnsFor is the list's columns: narrow, the first five with the time
// without its year.
func columnsFor(narrow bool) []widget.Column {
	cols := []widget.Column{
		{Title: "Sel", Width: 3},
		{Title: "Acked", Width: 5},
		{Title: "HTTP", Width: 4, Right: true},
		{Title: "Created", Width: 16},
		{Title: "Webhook URL"},
		{Title: "Event", Width: 13},
		{Title: "Attempt", Width: 9},
	}
	if narrow {
		cols[3].Width = 11
		cols = cols[:5]
	}
	return cols
}

type detailPane struct {
	listing.Scroll
	id      string
	attempt *api.WebhookAttempt
	err     error
	loading bool
}

type keyMap struct {
	Open, Back, Mark, Ack, Unacked, Filters, Clear, Reload, Copy key.Binding
	Up, Down                                                     key.Binding
	Prev, Next, Edit, Kind                                       key.Binding
}

// New builds the webhooks screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Model{
		s:   s,
		svc: svc,
		bar: widget.NewFilterBar(
			widget.FilterField{Key: fEvent, Label: "Webhook event ID", Placeholder: "exact event id"},
			listing.CreatedFrom(),
			listing.CreatedTo(),
		),
		marked: map[string]bool{},
		keys: keyMap{
			Open:    ui.Binding("enter", "details", "enter"),
			Back:    ui.Binding("esc", "back to the list", "esc", "backspace"),
			Mark:    ui.Binding("space", "select", " ", "space"),
			Ack:     ui.Binding("a", "acknowledge", "a"),
			Unacked: ui.Binding("u", "unacknowledged only", "u"),
			Filters: ui.Binding("f", "server filters", "f"),
			Clear:   ui.Binding("x", "clear filters", "x"),
			Reload:  ui.Binding("r", "reload", "r"),
			Copy:    ui.Binding("y", "copy id", "y"),
			Up:      ui.Binding("↑/k", "scroll up", "up", "k"),
			Down:    ui.Binding("↓/j", "scroll down", "down", "j"),
			Prev:    ui.Binding("←/→", "attempts · events", "left", "h", "["),
			Next:    key.NewBinding(key.WithKeys("right", "l", "]")),
			Edit:    ui.Binding("e", "edit webhook", "e"),
			Kind:    ui.Binding("s", "event kind", "s"),
		},
	}
	m.list = listing.New(s, "attempts", func(a api.WebhookAttempt) string { return a.ID }, m.row, m.query, columnsFor(false)...)
	m.list.Extra = m.hookHeader
	m.list.SetBar(m.bar, m.reset)
	m.bar.SetCheck(listing.CheckCreated(m.loc))
	m.events = listing.New(s, "webhook events", func(e api.WebhookEvent) string { return e.ID }, m.eventRow, m.eventQuery, eventColumns(false)...)
	return m
}

func (m *Model) loc() *time.Location { return m.s.Now().Location() }

// ID implements ui.Screen.
func (m *Model) ID() string { return "webhooks" }

// Title implements ui.Screen.
func (m *Model) Title() string { return "Webhooks" }

// Init loads the first page of attempts and the registered webhooks.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.reset(), m.fetchHooks()) }

// Capturing is true while the filter form or the edit form is open.
func (m *Model) Capturing() bool { return m.bar.Active() || m.edit != nil }

// Busy implements ui.Screen: a change on its way would be lost.
func (m *Model) Busy() bool { return m.edit != nil && m.edit.form.Sending() }

// Filterable says the list takes the / filter.
func (m *Model) Filterable() bool { return true }

// SetSize implements ui.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	if narrow := m.width < narrowWidth; narrow != m.narrow {
		m.narrow = narrow
		m.list.Redraw(columnsFor(narrow)...)
		m.events.Redraw(eventColumns(narrow)...)
	}
	// The tabs line takes the first line.
	m.list.SetSize(m.width, m.bodyHeight())
	m.events.SetSize(m.width, m.bodyHeight())
	m.bar.SetWidth(m.width)
	if m.edit != nil {
		m.edit.form.SetSize(m.width, m.height)
	}
}

// bodyHeight is the room under the tabs line.
func (m *Model) bodyHeight() int { return max(m.height-1, 0) }

// relayout gives the table the room the header leaves, which depends on
// the webhooks shown.
func (m *Model) relayout() { m.SetSize(m.width, m.height) }

// filter is the applied filter.
func (m *Model) filter() filterValues {
	return filterValues{Event: m.bar.Value(fEvent), From: m.bar.Value(listing.FromKey), To: m.bar.Value(listing.ToKey), UnackedOnly: m.unacked}
}

// selected is the attempt under the cursor.
func (m *Model) selected() (*api.WebhookAttempt, bool) {
	a, ok := m.list.Selected()
	return &a, ok
}

// KeyMap returns the bindings live right now.
func (m *Model) KeyMap() []key.Binding {
	m.syncKeys()
	k := m.keys
	switch {
	case m.edit != nil:
		return m.edit.form.KeyMap()
	case m.bar.Active():
		return m.bar.KeyMap()
	case m.tab == 1 && m.eventDetail.Open != nil:
		return []key.Binding{k.Back, k.Edit, k.Up, k.Down}
	case m.tab == 1:
		return append([]key.Binding{k.Prev, k.Open, k.Kind, k.Edit, k.Reload, k.Copy}, m.events.KeyMap()...)
	case m.detail != nil:
		return []key.Binding{k.Back, k.Ack, k.Copy, k.Up, k.Down}
	}
	return append([]key.Binding{k.Prev, k.Open, k.Mark, k.Ack, k.Unacked, k.Filters, k.Clear, k.Edit, k.Reload, k.Copy}, m.list.KeyMap()...)
}

// syncKeys enables what makes sense now; acknowledging is a write, hidden
// when the session may not write.
func (m *Model) syncKeys() {
	_, ok := m.selected()
	k := &m.keys
	canWrite := m.s.Can(ui.ActWrite) == nil
	k.Open.SetEnabled(ok)
	// Selecting only gathers attempts to acknowledge, so it goes with it.
	k.Mark.SetEnabled(ok && canWrite)
	k.Copy.SetEnabled(ok || m.detail != nil)
	k.Edit.SetEnabled(m.s.Can(ui.ActManageWebhooks) == nil && len(m.hooks) > 0)
	if m.tab == 1 {
		_, ev := m.events.Selected()
		k.Open.SetEnabled(ev)
		k.Copy.SetEnabled(ev)
	}
	k.Clear.SetEnabled(!m.bar.Empty() || m.unacked)
	if m.detail != nil {
		k.Ack.SetEnabled(canWrite && m.detail.attempt != nil && !m.detail.attempt.Acknowledged)
	} else {
		k.Ack.SetEnabled(canWrite && len(m.ackTargets()) > 0)
	}
	if m.unacked {
		k.Unacked.SetHelp("u", "show all attempts")
	} else {
		k.Unacked.SetHelp("u", "unacknowledged only")
	}
}

// ackTargets are the attempts acknowledging would cover: the selected
// (marked) ones, else the one under the cursor; already acknowledged ones
// are left out.
func (m *Model) ackTargets() []api.WebhookAttempt {
	var out []api.WebhookAttempt
	if len(m.marked) > 0 {
		for _, a := range m.list.Items() {
			if m.marked[a.ID] && !a.Acknowledged {
				out = append(out, a)
			}
		}
		return out
	}
	if a, ok := m.selected(); ok && !a.Acknowledged {
		out = append(out, *a)
	}
	return out
}

// acknowledge is the command run once the user confirmed: it sends the ids
// fixed when the question was asked and journals the outcome.
func (m *Model) acknowledge(ids []string) tea.Cmd {
	s, svc, account := m.s, m.svc, m.s.Account.ID
	_, cmd := ui.Call(s, 0, func(ctx context.Context) (acked, error) {
		err := svc.AcknowledgeWebhookAttempts(ctx, ids)
		outcome := "acknowledged"
		if err != nil {
			err = fmt.Errorf("acknowledge webhook attempts: %w", err)
			outcome = "error: " + err.Error()
		}
		jids := make(map[string]string, len(ids))
		for i, id := range ids {
			jids[fmt.Sprintf("attempt%d", i+1)] = id
		}
		e := s.JournalEntry(account, "acknowledge-webhook-attempts", "PATCH /v2/notifications/webhooks/attempts")
		e.IDs, e.Outcome = jids, outcome
		return acked{ids: ids, jerr: s.Journal.Record(e)}, err
	})
	return cmd
}
