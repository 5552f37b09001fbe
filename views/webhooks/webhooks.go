// Package webhooks is the webhooks screen: the delivery attempts of the
// operated account's webhook events (filters sent to the service, detail by
// id, acknowledgement of the selected attempts after a confirmation) and the
// webhooks registered to receive them.
package webhooks

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/journal"
	"tesouro/ui"
	"tesouro/ui/widget"
	"tesouro/validate"
)

const (
	requestTimeout = 20 * time.Second
	prefetchMargin = 10
)

// seq numbers requests across the process, so that no answer is ever taken
// for the answer to a newer request, even by a screen rebuilt after an
// account switch.
var seq atomic.Uint64

func nextID() uint64 { return seq.Add(1) }

type pageMsg struct {
	req     uint64
	account uuid.UUID
	page    api.Page[api.WebhookAttempt]
	err     error
}

type hooksMsg struct {
	req     uint64
	account uuid.UUID
	hooks   []api.Webhook
	err     error
}

type detailMsg struct {
	req     uint64
	account uuid.UUID
	attempt *api.WebhookAttempt
	err     error
}

// ackMsg says how an acknowledgement went.
type ackMsg struct {
	account uuid.UUID
	ids     []string
	err     error
	jerr    error
}

// Filter bar keys.
const (
	fEvent = "event"
	fFrom  = "from"
	fTo    = "to"
)

// filterValues is the applied filter, captured by value by each request.
type filterValues struct {
	Event, From, To string
	UnackedOnly     bool
}

// query maps the filter to the service's query; dates are calendar days in
// loc, "to" inclusive.
func (f filterValues) query(account uuid.UUID, cursor string, loc *time.Location) (api.AttemptFilter, error) {
	q := api.AttemptFilter{SubAccountID: account, Cursor: cursor, WebhookEventID: f.Event, UnackedOnly: f.UnackedOnly}
	if f.From != "" {
		d, err := time.ParseInLocation(time.DateOnly, f.From, loc)
		if err != nil {
			return q, fmt.Errorf("created from: %w", err)
		}
		q.CreatedAfter = d
	}
	if f.To != "" {
		d, err := time.ParseInLocation(time.DateOnly, f.To, loc)
		if err != nil {
			return q, fmt.Errorf("created to: %w", err)
		}
		q.CreatedBefore = d.AddDate(0, 0, 1)
	}
	if !q.CreatedAfter.IsZero() && !q.CreatedBefore.IsZero() && !q.CreatedAfter.Before(q.CreatedBefore) {
		return q, fmt.Errorf("the range is empty: \"created from\" %s is after \"created to\" %s", f.From, f.To)
	}
	return q, nil
}

func normDate(s string) (string, error) {
	d, err := validate.Date(s)
	if err != nil {
		return "", err
	}
	return d.Format(time.DateOnly), nil
}

// Model is the webhooks screen.
type Model struct {
	s       *ui.Session
	table   *widget.Table
	bar     *widget.FilterBar
	applied filterValues

	attempts []api.WebhookAttempt
	byID     map[string]int
	marked   map[string]bool

	cursor  string
	more    bool
	loading bool
	started bool
	listReq uint64
	err     error

	hooks       []api.Webhook
	hooksErr    error
	hooksReq    uint64
	hooksLoaded bool

	detail    *detailPane
	detailReq uint64

	width, height int
	keys          keyMap
}

type detailPane struct {
	offset  int
	id      string
	attempt *api.WebhookAttempt
	err     error
	loading bool
}

type keyMap struct {
	Open, Back, Mark, Ack, Unacked, Filters, Clear, Reload, Copy key.Binding
	Up, Down                                                     key.Binding
}

// New builds the webhooks screen for a session.
func New(s *ui.Session) ui.Screen {
	m := &Model{
		s: s,
		table: widget.NewTable(
			widget.Column{Title: "Sel", Width: 3},
			widget.Column{Title: "Acked", Width: 5},
			widget.Column{Title: "HTTP", Width: 4, Right: true},
			widget.Column{Title: "Created", Width: 16},
			widget.Column{Title: "Webhook URL"},
			widget.Column{Title: "Event", Width: 13},
			widget.Column{Title: "Attempt", Width: 9},
		),
		bar: widget.NewFilterBar(
			widget.FilterField{Key: fEvent, Label: "Webhook event ID", Placeholder: "exact event id"},
			widget.FilterField{Key: fFrom, Label: "Created from", Placeholder: "YYYY-MM-DD (inclusive)", Normalize: normDate},
			widget.FilterField{Key: fTo, Label: "Created to", Placeholder: "YYYY-MM-DD (inclusive)", Normalize: normDate},
		),
		byID:   map[string]int{},
		marked: map[string]bool{},
		more:   true,
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
		},
	}
	m.bar.SetCheck(func(v func(string) string) error {
		_, err := filterValues{From: v(fFrom), To: v(fTo)}.query(uuid.Nil, "", m.loc())
		return err
	})
	m.applyTheme()
	return m
}

func (m *Model) applyTheme() {
	th := m.s.Styles()
	m.table.SetStyles(th.TableStyles())
	m.bar.SetStyles(widget.FilterBarStyles{Label: th.Label, Focused: th.Value.Bold(true), Hint: th.Muted, Error: th.Error})
}

func (m *Model) loc() *time.Location { return m.s.Clock().Location() }

// ID implements ui.Screen.
func (m *Model) ID() string { return "webhooks" }

// Title implements ui.Screen.
func (m *Model) Title() string { return "Webhooks" }

// Init loads the first page of attempts and the registered webhooks.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.reset(), m.fetchHooks()) }

// Capturing is true while the filter form is open.
func (m *Model) Capturing() bool { return m.bar.Active() }

// Busy implements ui.Screen.
func (m *Model) Busy() bool { return false }

// Filterable says the list takes the / filter.
func (m *Model) Filterable() bool { return true }

// SetSize implements ui.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.table.SetSize(m.width, max(m.height-len(m.header()), 0))
	m.bar.SetWidth(m.width)
}

// selected is the attempt under the cursor.
func (m *Model) selected() (*api.WebhookAttempt, bool) {
	r, ok := m.table.Selected()
	if !ok {
		return nil, false
	}
	i, ok := m.byID[r.ID]
	if !ok {
		return nil, false
	}
	return &m.attempts[i], true
}

// KeyMap returns the bindings live right now.
func (m *Model) KeyMap() []key.Binding {
	m.syncKeys()
	k := m.keys
	switch {
	case m.bar.Active():
		return m.bar.KeyMap()
	case m.detail != nil:
		return []key.Binding{k.Back, k.Ack, k.Copy, k.Up, k.Down}
	}
	return append([]key.Binding{k.Open, k.Mark, k.Ack, k.Unacked, k.Filters, k.Clear, k.Reload, k.Copy}, m.table.KeyMap()...)
}

// syncKeys enables what makes sense now; acknowledging is a write, hidden
// when the session may not write.
func (m *Model) syncKeys() {
	_, ok := m.selected()
	k := &m.keys
	k.Open.SetEnabled(ok)
	k.Mark.SetEnabled(ok)
	k.Copy.SetEnabled(ok || m.detail != nil)
	k.Clear.SetEnabled(!m.bar.Empty() || m.applied.UnackedOnly)
	canWrite := m.s.Can(ui.ActWrite) == nil
	if m.detail != nil {
		k.Ack.SetEnabled(canWrite && m.detail.attempt != nil && !m.detail.attempt.Acknowledged)
	} else {
		k.Ack.SetEnabled(canWrite && len(m.ackTargets()) > 0)
	}
	if m.applied.UnackedOnly {
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
		for _, a := range m.attempts {
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
func acknowledge(s *ui.Session, account uuid.UUID, ids []string) tea.Cmd {
	client, jr, clock := s.Client, s.Journal, s.Clock
	profile, env, acct := s.Profile, string(s.Env), "main"
	if account != uuid.Nil {
		acct = account.String()
	}
	return s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		err := client.AcknowledgeWebhookAttempts(ctx, account, ids)
		outcome := "acknowledged"
		if err != nil {
			err = fmt.Errorf("acknowledge webhook attempts: %w", err)
			outcome = "error: " + err.Error()
		}
		jids := make(map[string]string, len(ids))
		for i, id := range ids {
			jids[fmt.Sprintf("attempt%d", i+1)] = id
		}
		jerr := jr.Record(journal.Entry{
			Time: clock().UTC(), Profile: profile, Env: env, Account: acct,
			Action: "acknowledge-webhook-attempts", Endpoint: "PATCH /v2/notifications/webhooks/attempts",
			IDs: jids, Outcome: outcome,
		})
		return ackMsg{account: account, ids: ids, err: err, jerr: jerr}
	})
}
