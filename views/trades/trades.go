// Package trades is the end-of-day trades screen: the trades of the
// operated account with status, settlement-date and creation-range filters
// sent to the service, a detail pane, and a jump to the ticket that settled
// a trade.
package trades

import (
	"context"
	"fmt"
	"slices"
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

// Filter bar keys, besides the creation dates'.
const (
	fStatus     = "status"
	fSettlement = "settles"
)

var tradeStatuses = []string{string(api.TradePending), string(api.TradeSettled), string(api.TradeCancelled)}

// filterValues is the applied filter, captured by value by each request.
type filterValues struct {
	Status, Settlement, From, To string
}

func valuesOf(bar *widget.FilterBar) filterValues {
	return filterValues{Status: bar.Value(fStatus), Settlement: bar.Value(fSettlement), From: bar.Value(listing.FromKey), To: bar.Value(listing.ToKey)}
}

// query maps the filter to the service's query; dates are calendar days in
// loc.
func (f filterValues) query(account uuid.UUID, cursor string, loc *time.Location) (api.TradeFilter, error) {
	q := api.TradeFilter{SubAccountID: account, Status: f.Status, SettlementDate: f.Settlement, Cursor: cursor}
	var err error
	q.CreatedAfter, q.CreatedBefore, err = listing.Created(f.From, f.To, loc)
	return q, err
}

func normStatus(s string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if !slices.Contains(tradeStatuses, u) {
		return "", fmt.Errorf("%q is not a trade state: use PENDING, SETTLED or CANCELLED", s)
	}
	return u, nil
}

// Model is the trades screen.
type Model struct {
	s    *ui.Session
	svc  Service
	list *listing.List[api.Trade]
	bar  *widget.FilterBar

	detail listing.Detail[api.Trade]

	width, height int
	layout        listing.Layout
	keys          keyMap
}

type keyMap struct {
	Open, Back, Filters, Clear, Reload, Ticket, Copy key.Binding
	Scroll                                           listing.ScrollKeys
}

// New builds the trades screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Model{
		s:   s,
		svc: svc,
		bar: widget.NewFilterBar(
			widget.FilterField{Key: fStatus, Label: "Status", Placeholder: "any (PENDING, SETTLED, CANCELLED)", Suggestions: tradeStatuses, Normalize: normStatus},
			widget.FilterField{Key: fSettlement, Label: "Settlement date", Placeholder: "YYYY-MM-DD", Normalize: listing.NormDate},
			listing.CreatedFrom(),
			listing.CreatedTo(),
		),
		keys: keyMap{
			Open:    ui.Binding("enter", "details", "enter"),
			Back:    ui.Binding("esc", "back to the list", "esc", "backspace"),
			Filters: ui.Binding("f", "server filters", "f"),
			Clear:   ui.Binding("x", "clear filters", "x"),
			Reload:  ui.Binding("r", "reload", "r"),
			Ticket:  ui.Binding("t", "settlement ticket", "t"),
			Copy:    ui.Binding("y", "copy id", "y"),
			Scroll:  listing.NewScrollKeys(),
		},
	}
	m.list = listing.New(s, "trades", func(t api.Trade) string { return t.ID.String() }, m.row, m.query, layouts.Full...)
	m.list.SetBar(m.bar, m.reset)
	m.bar.SetCheck(listing.CheckCreated(m.loc))
	return m
}

func (m *Model) loc() *time.Location { return m.s.Now().Location() }

// ID implements ui.Screen.
func (m *Model) ID() string { return "trades" }

// Title implements ui.Screen.
func (m *Model) Title() string { return "Trades" }

// Init loads the first page.
func (m *Model) Init() tea.Cmd { return m.reset() }

// Capturing is true while the filter form is open.
func (m *Model) Capturing() bool { return m.bar.Active() }

// Busy implements ui.Screen.
func (m *Model) Busy() bool { return false }

// Filterable says the list takes the / filter.
func (m *Model) Filterable() bool { return true }

// SetSize implements ui.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	layouts.Fit(&m.layout, m.width, m.list)
	m.list.SetSize(m.width, m.height)
	m.bar.SetWidth(m.width)
}

func (m *Model) selected() (*api.Trade, bool) {
	t, ok := m.list.Selected()
	return &t, ok
}

// open shows the selected trade in the detail pane.
func (m *Model) open() {
	if t, ok := m.list.Selected(); ok {
		m.detail.Show(t)
	}
}

// current is the trade the keys act on: the open one, else the selected one.
func (m *Model) current() (*api.Trade, bool) {
	if m.detail.Open != nil {
		return m.detail.Open, true
	}
	return m.selected()
}

// KeyMap returns the bindings live right now.
func (m *Model) KeyMap() []key.Binding {
	m.syncKeys()
	k := m.keys
	return m.list.Bindings(m.detail.Open != nil, []key.Binding{k.Back, k.Ticket, k.Copy}, k.Scroll,
		k.Open, k.Filters, k.Clear, k.Reload, k.Ticket, k.Copy)
}

func (m *Model) syncKeys() {
	t, ok := m.current()
	m.keys.Open.SetEnabled(ok && m.detail.Open == nil)
	m.keys.Copy.SetEnabled(ok)
	m.keys.Ticket.SetEnabled(ok && t.SettlementTicketID != nil && *t.SettlementTicketID != uuid.Nil)
	m.keys.Clear.SetEnabled(!m.bar.Empty())
}

// Update implements ui.Screen.
func (m *Model) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if cmd, ok := m.list.Handle(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case ui.NavigateMsg:
		if msg.Screen == m.ID() && msg.ID != "" && m.list.Table.Table.Select(msg.ID) {
			m.open()
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	return m, m.list.Rest(msg)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.syncKeys()
	k := m.keys
	switch {
	case key.Matches(msg, k.Ticket):
		t, _ := m.current()
		return ui.Navigate("tickets", t.SettlementTicketID.String())
	case key.Matches(msg, k.Copy):
		t, _ := m.current()
		return ui.Copy("trade id", t.ID.String())
	}
	if m.detail.Key(msg, k.Back, k.Scroll, m.height) {
		return nil
	}
	if cmd, ok := m.list.FilterKey(msg, k.Filters, k.Clear); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Open):
		m.open()
		return nil
	case key.Matches(msg, k.Reload):
		return m.reset()
	}
	return m.list.Key(msg)
}

// reset drops the list and asks for its first page under the applied
// filter; answers to earlier requests are ignored from now on.
func (m *Model) reset() tea.Cmd {
	if m.bar.Empty() {
		m.list.SetEmpty("no end-of-day trades in " + m.s.AccountName())
	} else {
		m.list.SetEmpty("no trades match these filters (x clears them)")
	}
	return m.list.Reload()
}

// query is the request of the page at cursor under the applied filter,
// fixed now, by value.
func (m *Model) query(cursor string) (listing.PageCall[api.Trade], error) {
	q, err := valuesOf(m.bar).query(m.s.Account.ID, cursor, m.loc())
	if err != nil {
		return nil, err
	}
	svc := m.svc
	return func(ctx context.Context) (api.Page[api.Trade], error) { return svc.ListTrades(ctx, q) }, nil
}

func (m *Model) row(t api.Trade) widget.Row {
	settles := ""
	if !t.SettlementDate.IsZero() {
		settles = t.SettlementDate.UTC().Format(time.DateOnly)
	}
	cells := []string{
		t.ID.String(),
		string(t.Status),
		settles,
		amount(t.InputAmount, t.InputCurrency),
		amount(t.OutputAmount, t.OutputCurrency),
		when(t.CreatedAt.Time, m.loc(), "2006-01-02 15:04"),
		t.SettlementTerms,
	}
	if m.layout != listing.LayoutFull {
		// The full cells follow the shown ones: the / filter still
		// matches the ID and the terms.
		short := settles
		if m.layout == listing.LayoutTiny && !t.SettlementDate.IsZero() {
			short = shortDay(t.SettlementDate.UTC(), m.s.Now())
		}
		cells = append([]string{string(t.Status), amount(t.OutputAmount, t.OutputCurrency), short}, cells...)
	}
	return widget.Row{Cells: cells, Disabled: t.Status == api.TradeCancelled}
}

// layouts of the list by width: below 74 cells it keeps what an operator
// reads first (status, what is received, when it settles), and below 56
// the settlement date shrinks so that amounts are never cut.
var layouts = listing.Layouts{
	FullWidth: 74, NarrowWidth: 56, // from 74 the ID, status, settlement date, input and output show whole
	Full: []widget.Column{
		{Title: "ID", Width: 9},
		{Title: "Status", Width: 9, Status: true},
		{Title: "Settles", Width: 10},
		{Title: "Input", Width: 19, Right: true},
		{Title: "Output", Width: 19, Right: true},
		{Title: "Created", Width: 16},
		{Title: "Terms"},
	},
	Narrow: []widget.Column{{Title: "Status", Width: 9, Status: true}, {Title: "Output", Right: true}, {Title: "Settles", Width: 10}},
	Tiny:   []widget.Column{{Title: "Status", Width: 9, Status: true}, {Title: "Output", Right: true}, {Title: "Settles", Width: 7}},
}

// shortDay is a calendar day in five cells: month and day in the current
// year, else the year.
func shortDay(d, now time.Time) string {
	if d.Year() == now.Year() {
		return d.Format("01-02")
	}
	return d.Format("2006")
}
