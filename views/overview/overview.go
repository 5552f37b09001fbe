// Package overview is the dashboard's first screen: the balances of the
// operated account, the pending approvals count, the latest tickets and the
// caller's own access (permissions, frozen, blacklist).
package overview

import (
	"context"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// requestTimeout bounds each of the screen's requests.
const requestTimeout = 15 * time.Second

// refreshEvery is how often the screen reloads on its own.
const refreshEvery = 30 * time.Second

// latestTickets is how many tickets the screen asks for.
const latestTickets = 50

// approvalPages bounds how many pages of the approver inbox are counted.
const approvalPages = 5

// instances numbers screens so that a tick of a screen replaced by an
// account switch is not taken by its successor.
var instances atomic.Int64

// Screen is the Overview.
type Screen struct {
	s    *ui.Session
	inst int64
	w, h int
	seq  int // id of the latest load; older results are dropped
	// balSeq and ticketsSeq are the loads whose balances and tickets are
	// awaited (a write reloads only what it changed).
	balSeq, ticketsSeq int

	balances    api.Balances
	balErr      error
	balLoaded   bool
	pending     int
	pendingMore bool
	pendingErr  error
	pendingSeq  int // 0: not asked (not an approver, or access unknown)
	pendingDone bool
	tickets     []api.Ticket
	ticketsErr  error
	ticketsDone bool
	table       *widget.Table

	keys keyMap
}

type keyMap struct {
	Refresh, Open, Copy key.Binding
}

// New builds the Overview for a session.
func New(s *ui.Session) ui.Screen {
	t := widget.NewTable(
		widget.Column{Title: "Created", Width: 11},
		widget.Column{Title: "Status", Width: 10},
		widget.Column{Title: "Sends", Right: true},
		widget.Column{Title: "Receives", Right: true},
	)
	t.SetStyles(s.Styles().TableStyles())
	t.SetEmpty("no tickets yet")
	return &Screen{
		s:     s,
		inst:  instances.Add(1),
		table: t,
		keys: keyMap{
			Refresh: ui.Binding("r", "refresh", "r"),
			Open:    ui.Binding("enter", "open ticket", "enter"),
			Copy:    ui.Binding("y", "copy ticket id", "y"),
		},
	}
}

// Messages of this screen; each carries the instance and load id.
type (
	balancesMsg struct {
		inst     int64
		seq      int
		balances api.Balances
		err      error
	}
	approvalsMsg struct {
		inst    int64
		seq     int
		pending int
		more    bool
		err     error
	}
	ticketsMsg struct {
		inst    int64
		seq     int
		tickets []api.Ticket
		err     error
	}
	refreshMsg struct{ inst int64 }
)

// ID implements ui.Screen.
func (m *Screen) ID() string { return "overview" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Overview" }

// Capturing implements ui.Screen: the Overview has no text input.
func (m *Screen) Capturing() bool { return false }

// Busy implements ui.Screen: nothing here is abandoned by quitting.
func (m *Screen) Busy() bool { return false }

// Init loads everything and arms the periodic refresh.
func (m *Screen) Init() tea.Cmd {
	return tea.Batch(m.load(), m.scheduleRefresh())
}

func (m *Screen) scheduleRefresh() tea.Cmd {
	inst := m.inst
	return m.s.After(refreshEvery, func(time.Time) tea.Msg { return refreshMsg{inst: inst} })
}

// load starts every request of the screen under a new load id.
func (m *Screen) load() tea.Cmd {
	m.seq++
	return tea.Batch(m.loadBalances(), m.loadTickets(), m.loadApprovals())
}

// reload loads again what a write changed, under a new load id.
func (m *Screen) reload(msg ui.ChangedMsg) tea.Cmd {
	var cmds []tea.Cmd
	m.seq++
	if msg.For(m.s, ui.ChangedBalances) {
		cmds = append(cmds, m.loadBalances())
	}
	if msg.For(m.s, ui.ChangedTickets) {
		cmds = append(cmds, m.loadTickets())
	}
	if msg.For(m.s, ui.ChangedOperations) {
		cmds = append(cmds, m.loadApprovals())
	}
	return tea.Batch(cmds...)
}

func (m *Screen) loadBalances() tea.Cmd {
	m.balSeq = m.seq
	seq, inst, s := m.seq, m.inst, m.s
	client, account := s.Client, s.Account.ID
	return s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		b, err := client.Balances(ctx, account)
		return balancesMsg{inst: inst, seq: seq, balances: b, err: err}
	})
}

func (m *Screen) loadTickets() tea.Cmd {
	m.ticketsSeq = m.seq
	seq, inst, s := m.seq, m.inst, m.s
	client, account := s.Client, s.Account.ID
	return s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p, err := client.ListTickets(ctx, api.TicketFilter{SubAccountID: account})
		items := p.Items
		if len(items) > latestTickets {
			items = items[:latestTickets]
		}
		return ticketsMsg{inst: inst, seq: seq, tickets: items, err: err}
	})
}

// isApprover reports whether the inbox may be read by this access.
func (m *Screen) isApprover() bool {
	return m.s.Access != nil && m.s.Access.AccountPermissions.OperationApprover
}

// loadApprovals counts pending operations in the approver inbox, when the
// access is an approver.
func (m *Screen) loadApprovals() tea.Cmd {
	if !m.isApprover() {
		return nil
	}
	m.pendingSeq = m.seq
	seq, inst, client := m.seq, m.inst, m.s.Client
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		ops, more, err := api.FirstPages(ctx, approvalPages, client.ListApproverOperations)
		if err != nil {
			return approvalsMsg{inst: inst, seq: seq, err: err}
		}
		n := 0
		for _, op := range ops {
			if op.Status == api.OperationPending {
				n++
			}
		}
		return approvalsMsg{inst: inst, seq: seq, pending: n, more: more}
	})
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case balancesMsg:
		if msg.inst != m.inst || msg.seq != m.balSeq {
			return m, nil
		}
		m.balances, m.balErr, m.balLoaded = msg.balances, msg.err, true
		return m, m.refreshed()
	case ticketsMsg:
		if msg.inst != m.inst || msg.seq != m.ticketsSeq {
			return m, nil
		}
		m.ticketsErr, m.ticketsDone = msg.err, true
		if msg.err == nil {
			m.tickets = msg.tickets
			m.table.SetRows(ticketRows(m.s.Styles(), msg.tickets))
		}
		return m, m.refreshed()
	case approvalsMsg:
		if msg.inst != m.inst || msg.seq != m.pendingSeq {
			return m, nil
		}
		m.pending, m.pendingMore, m.pendingErr, m.pendingDone = msg.pending, msg.more, msg.err, true
		return m, nil
	case ui.AccessLoadedMsg:
		if m.pendingSeq != m.seq {
			return m, m.loadApprovals()
		}
		return m, nil
	case ui.ChangedMsg:
		return m, m.reload(msg)
	case ui.ThemeChangedMsg:
		m.table.SetStyles(m.s.Styles().TableStyles())
		m.table.SetRows(ticketRows(m.s.Styles(), m.tickets))
		return m, nil
	case refreshMsg:
		if msg.inst != m.inst {
			return m, nil
		}
		return m, tea.Batch(m.load(), m.scheduleRefresh())
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	}
	return m, nil
}

func (m *Screen) refreshed() tea.Cmd {
	if m.balLoaded && m.ticketsDone && m.balErr == nil && m.ticketsErr == nil {
		return m.s.Refreshed()
	}
	return nil
}

func (m *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Refresh):
		return m.load()
	case key.Matches(msg, m.keys.Open):
		if row, ok := m.table.Selected(); ok {
			return ui.Navigate("tickets", row.ID)
		}
		return nil
	case key.Matches(msg, m.keys.Copy):
		if row, ok := m.table.Selected(); ok {
			return ui.Copy("ticket id", row.ID)
		}
		return nil
	}
	return m.table.Update(msg)
}

// KeyMap implements ui.Screen: open and copy only when a ticket is selected.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	_, sel := m.table.Selected()
	k.Open.SetEnabled(sel)
	k.Copy.SetEnabled(sel)
	return append([]key.Binding{k.Refresh, k.Open, k.Copy}, m.table.KeyMap()...)
}
