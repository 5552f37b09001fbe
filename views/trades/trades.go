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
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/api"
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

// pageMsg is one page of trades answering request req.
type pageMsg struct {
	req     uint64
	account uuid.UUID
	page    api.Page[api.Trade]
	err     error
}

// Filter bar keys.
const (
	fStatus     = "status"
	fSettlement = "settles"
	fFrom       = "from"
	fTo         = "to"
)

var tradeStatuses = []string{string(api.TradePending), string(api.TradeSettled), string(api.TradeCancelled)}

// filterValues is the applied filter, captured by value by each request.
type filterValues struct {
	Status, Settlement, From, To string
}

// query maps the filter to the service's query. Dates are calendar days in
// loc; "to" is inclusive, so it ends at the next midnight.
func (f filterValues) query(account uuid.UUID, cursor string, loc *time.Location) (api.TradeFilter, error) {
	q := api.TradeFilter{SubAccountID: account, Status: f.Status, SettlementDate: f.Settlement, Cursor: cursor}
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

func normStatus(s string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if !slices.Contains(tradeStatuses, u) {
		return "", fmt.Errorf("%q is not a trade state: use PENDING, SETTLED or CANCELLED", s)
	}
	return u, nil
}

// Model is the trades screen.
type Model struct {
	s       *ui.Session
	table   *widget.Table
	bar     *widget.FilterBar
	applied filterValues

	trades []api.Trade
	byID   map[string]int

	cursor  string
	more    bool
	loading bool
	started bool
	listReq uint64
	err     error

	detail *api.Trade
	offset int

	width, height int
	keys          keyMap
}

type keyMap struct {
	Open, Back, Filters, Clear, Reload, Ticket, Copy key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom          key.Binding
}

// New builds the trades screen for a session.
func New(s *ui.Session) ui.Screen {
	m := &Model{
		s: s,
		table: widget.NewTable(
			widget.Column{Title: "ID", Width: 9},
			widget.Column{Title: "Status", Width: 9},
			widget.Column{Title: "Settles", Width: 10},
			widget.Column{Title: "Input", Width: 19, Right: true},
			widget.Column{Title: "Output", Width: 19, Right: true},
			widget.Column{Title: "Created", Width: 16},
			widget.Column{Title: "Terms"},
		),
		bar: widget.NewFilterBar(
			widget.FilterField{Key: fStatus, Label: "Status", Placeholder: "any (PENDING, SETTLED, CANCELLED)", Suggestions: tradeStatuses, Normalize: normStatus},
			widget.FilterField{Key: fSettlement, Label: "Settlement date", Placeholder: "YYYY-MM-DD", Normalize: normDate},
			widget.FilterField{Key: fFrom, Label: "Created from", Placeholder: "YYYY-MM-DD (inclusive)", Normalize: normDate},
			widget.FilterField{Key: fTo, Label: "Created to", Placeholder: "YYYY-MM-DD (inclusive)", Normalize: normDate},
		),
		byID: map[string]int{},
		more: true,
		keys: keyMap{
			Open:     ui.Binding("enter", "details", "enter"),
			Back:     ui.Binding("esc", "back to the list", "esc", "backspace"),
			Filters:  ui.Binding("f", "server filters", "f"),
			Clear:    ui.Binding("x", "clear filters", "x"),
			Reload:   ui.Binding("r", "reload", "r"),
			Ticket:   ui.Binding("t", "settlement ticket", "t"),
			Copy:     ui.Binding("y", "copy id", "y"),
			Up:       ui.Binding("↑/k", "scroll up", "up", "k"),
			Down:     ui.Binding("↓/j", "scroll down", "down", "j"),
			PageUp:   ui.Binding("pgup", "page up", "pgup"),
			PageDown: ui.Binding("pgdn", "page down", "pgdown", " "),
			Top:      ui.Binding("g", "top", "g", "home"),
			Bottom:   ui.Binding("G", "bottom", "G", "end"),
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
	m.table.SetSize(m.width, max(m.height-m.headerLines(), 0))
	m.bar.SetWidth(m.width)
}

func (m *Model) headerLines() int {
	if m.height >= 6 && m.err != nil {
		return 2
	}
	return min(m.height, 1)
}

func (m *Model) selected() (*api.Trade, bool) {
	r, ok := m.table.Selected()
	if !ok {
		return nil, false
	}
	i, ok := m.byID[r.ID]
	if !ok {
		return nil, false
	}
	return &m.trades[i], true
}

// current is the trade the keys act on: the open one, else the selected one.
func (m *Model) current() (*api.Trade, bool) {
	if m.detail != nil {
		return m.detail, true
	}
	return m.selected()
}

// KeyMap returns the bindings live right now.
func (m *Model) KeyMap() []key.Binding {
	m.syncKeys()
	k := m.keys
	switch {
	case m.bar.Active():
		return m.bar.KeyMap()
	case m.detail != nil:
		return []key.Binding{k.Back, k.Ticket, k.Copy, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	}
	return append([]key.Binding{k.Open, k.Filters, k.Clear, k.Reload, k.Ticket, k.Copy}, m.table.KeyMap()...)
}

func (m *Model) syncKeys() {
	t, ok := m.current()
	m.keys.Open.SetEnabled(ok && m.detail == nil)
	m.keys.Copy.SetEnabled(ok)
	m.keys.Ticket.SetEnabled(ok && t.SettlementTicketID != nil && *t.SettlementTicketID != uuid.Nil)
	m.keys.Clear.SetEnabled(!m.bar.Empty())
}

// Update implements ui.Screen.
func (m *Model) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case pageMsg:
		return m, m.onPage(msg)
	case ui.FilterMsg:
		m.table.SetFilter(msg.Query)
		return m, nil
	case ui.NavigateMsg:
		if msg.Screen == m.ID() && msg.ID != "" {
			if m.table.Select(msg.ID) {
				t, _ := m.selected()
				m.detail, m.offset = t, 0
			}
		}
		return m, nil
	case ui.ThemeChangedMsg:
		m.applyTheme()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	if m.bar.Active() {
		_, cmd := m.bar.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.bar.Active() {
		applied, cmd := m.bar.Update(msg)
		if applied {
			m.applied = filterValues{Status: m.bar.Value(fStatus), Settlement: m.bar.Value(fSettlement), From: m.bar.Value(fFrom), To: m.bar.Value(fTo)}
			return tea.Batch(cmd, m.reset())
		}
		return cmd
	}
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
	if m.detail != nil {
		page := max(m.height-2, 1)
		switch {
		case key.Matches(msg, k.Back):
			m.detail = nil
		case key.Matches(msg, k.Up):
			m.offset--
		case key.Matches(msg, k.Down):
			m.offset++
		case key.Matches(msg, k.PageUp):
			m.offset -= page
		case key.Matches(msg, k.PageDown):
			m.offset += page
		case key.Matches(msg, k.Top):
			m.offset = 0
		case key.Matches(msg, k.Bottom):
			m.offset = 1 << 30
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		m.detail, _ = m.selected()
		m.offset = 0
		return nil
	case key.Matches(msg, k.Filters):
		return m.bar.Open()
	case key.Matches(msg, k.Clear):
		m.bar.Clear()
		m.applied = filterValues{}
		return m.reset()
	case key.Matches(msg, k.Reload):
		return m.reset()
	}
	cmd := m.table.Update(msg)
	return tea.Batch(cmd, m.prefetch())
}

// reset drops the list and asks for its first page under the applied
// filter; answers to earlier requests are ignored from now on.
func (m *Model) reset() tea.Cmd {
	m.trades = nil
	m.byID = map[string]int{}
	m.table.SetRows(nil)
	if m.bar.Empty() {
		m.table.SetEmpty("no end-of-day trades in " + m.s.AccountName())
	} else {
		m.table.SetEmpty("no trades match these filters (x clears them)")
	}
	m.cursor, m.more, m.err, m.started = "", true, nil, true
	m.SetSize(m.width, m.height)
	return m.fetch()
}

func (m *Model) fetch() tea.Cmd {
	q, err := m.applied.query(m.s.Account.ID, m.cursor, m.loc())
	if err != nil {
		m.err, m.loading = err, false
		return nil
	}
	m.listReq = nextID()
	m.loading = true
	req, account, client := m.listReq, m.s.Account.ID, m.s.Client
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p, err := client.ListTrades(ctx, q)
		if err != nil {
			err = fmt.Errorf("list trades: %w", err)
		}
		return pageMsg{req: req, account: account, page: p, err: err}
	})
}

func (m *Model) prefetch() tea.Cmd {
	if m.loading || !m.more || m.err != nil || !m.table.NearEnd(prefetchMargin) {
		return nil
	}
	return m.fetch()
}

func (m *Model) onPage(msg pageMsg) tea.Cmd {
	if msg.req != m.listReq || msg.account != m.s.Account.ID {
		return nil
	}
	m.loading = false
	if msg.err != nil {
		m.err = msg.err
		m.SetSize(m.width, m.height)
		return nil
	}
	m.err = nil
	rows := make([]widget.Row, 0, len(msg.page.Items))
	for _, t := range msg.page.Items {
		id := t.ID.String()
		if i, ok := m.byID[id]; ok {
			m.trades[i] = t
		} else {
			m.byID[id] = len(m.trades)
			m.trades = append(m.trades, t)
		}
		rows = append(rows, m.row(&t))
	}
	m.table.AppendRows(rows)
	m.cursor, m.more = msg.page.Cursor, msg.page.More()
	m.SetSize(m.width, m.height)
	cmds := []tea.Cmd{m.s.Refreshed()}
	if len(msg.page.Items) > 0 && m.table.Filter() == "" {
		cmds = append(cmds, m.prefetch())
	}
	return tea.Batch(cmds...)
}

func (m *Model) row(t *api.Trade) widget.Row {
	settles := ""
	if !t.SettlementDate.IsZero() {
		settles = t.SettlementDate.UTC().Format(time.DateOnly)
	}
	return widget.Row{ID: t.ID.String(), Cells: []string{
		t.ID.String(),
		string(t.Status),
		settles,
		amount(t.InputAmount, t.InputCurrency),
		amount(t.OutputAmount, t.OutputCurrency),
		when(t.CreatedAt.Time, m.loc(), "2006-01-02 15:04"),
		t.SettlementTerms,
	}, Disabled: t.Status == api.TradeCancelled}
}
