// Package overview is the dashboard's first screen: the balances of the
// operated account, the pending approvals count, the latest tickets, the
// caller's own access (permissions, frozen, blacklist), how the account
// receives money (its deposit wallets per chain, its static PIX key and BR
// Code, shown as a QR on demand, its own bank account for a TED) and its
// monthly limits used and left.
package overview

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
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

// Screen is the Overview.
type Screen struct {
	s    *ui.Session
	svc  Service
	w, h int
	// Each block awaits its latest request (a write reloads only what it
	// changed): an older answer, or one of another account's screen, is
	// dropped.
	balReq, ticketsReq, pendingReq, infoReq, limitsReq, codeReq, railsReq, bankReq ui.Slot
	// refreshing awaits the next periodic refresh.
	refreshing ui.Slot
	// behind holds the periodic refresh while another screen is shown:
	// shown again after a refresh came due, the Overview reloads at once
	// and the period starts over.
	behind ui.Behind
	// pendingAsked is whether the latest load asked for the pending count
	// (it cannot before the access is known).
	pendingAsked bool

	// Each panel's freshness: when its values were read, and why the last
	// read failed; a failed read keeps the values before it (dimmed).
	balFresh, ticketsFresh, pendingFresh, infoFresh, limitsFresh ui.Fresh

	balances    api.Balances
	balErr      error
	balLoaded   bool
	pending     int
	pendingMore bool
	pendingErr  error
	pendingDone bool
	tickets     []api.Ticket
	ticketsErr  error
	ticketsDone bool
	table       *widget.Table

	info       *api.AccountDetails
	infoErr    error
	limits     *api.AccountLimits
	limitsErr  error
	limitsDone bool
	// rails is which fiat rails the account may use, once it came.
	rails    *api.AccountMetadata
	railsErr error
	// bank is the account's own BRL bank account, once it came.
	bank    *api.OwnBRLAccount
	bankErr error
	// showQR: the static BR Code fills the screen as a QR code; with an
	// amount asked for (qrAmount), the code the service made for it
	// (qrCode, "" until it came).
	showQR   bool
	qrAmount string
	qrCode   string
	codeErr  error

	keys keyMap
}

type keyMap struct {
	Refresh, Open, Copy, QR, CopyCode, Close, Amount, CopyBank key.Binding
}

// New builds the Overview for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	t := widget.NewTable(ticketColumns(nil)...)
	t.SetStyles(s.Styles().TableStyles())
	t.SetEmpty("no tickets yet")
	return &Screen{
		s:     s,
		svc:   svc,
		table: t,
		keys: keyMap{
			Refresh:  ui.Binding("r", "refresh", "r"),
			Open:     ui.Binding("enter", "open ticket", "enter"),
			Copy:     ui.Binding("y", "copy ticket id", "y"),
			QR:       ui.Binding("p", "PIX QR code", "p"),
			CopyCode: ui.Binding("c", "copy BR Code", "c"),
			Close:    ui.Binding("esc", "close the QR", "esc", "p"),
			Amount:   ui.Binding("a", "ask an amount", "a"),
			CopyBank: ui.Binding("b", "copy TED details", "b"),
		},
	}
}

type (
	// pendingCount is the answer of the approver inbox.
	pendingCount struct {
		n    int
		more bool
	}
	// typedAmount is the amount typed for the QR code ("" for any amount).
	typedAmount string
	// amountMsg hands the screen the amount typed in the root's prompt.
	amountMsg = ui.Result[typedAmount]
	// refresh is the periodic refresh, refreshMsg its timer's firing.
	refresh    struct{}
	refreshMsg = ui.Result[refresh]
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
func (m *Screen) Init() tea.Cmd { return m.reloadAll() }

// reloadAll loads everything and arms the next periodic refresh.
func (m *Screen) reloadAll() tea.Cmd { return tea.Batch(m.load(), m.scheduleRefresh()) }

func (m *Screen) scheduleRefresh() tea.Cmd {
	return ui.After(m.s, &m.refreshing, refreshEvery, refresh{})
}

// load starts every request of the screen.
func (m *Screen) load() tea.Cmd {
	m.pendingAsked = false
	return tea.Batch(m.loadBalances(), m.loadTickets(), m.loadApprovals(), m.loadInfo(), m.loadLimits(), m.loadRails(), m.loadBank())
}

// reload loads again what a write changed.
func (m *Screen) reload(msg ui.ChangedMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.For(m.s, ui.ChangedBalances) {
		cmds = append(cmds, m.loadBalances())
	}
	if msg.For(m.s, ui.ChangedTickets) {
		// A ticket that moved money used some of the month's limits.
		cmds = append(cmds, m.loadTickets(), m.loadLimits())
	}
	if msg.For(m.s, ui.ChangedOperations) {
		cmds = append(cmds, m.loadApprovals())
	}
	return tea.Batch(cmds...)
}

func (m *Screen) loadBalances() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.balReq, requestTimeout, func(ctx context.Context) (api.Balances, error) {
		return svc.Balances(ctx, account)
	})
}

func (m *Screen) loadTickets() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.ticketsReq, requestTimeout, func(ctx context.Context) ([]api.Ticket, error) {
		p, err := svc.ListTickets(ctx, api.TicketFilter{SubAccountID: account})
		items := p.Items
		if len(items) > latestTickets {
			items = items[:latestTickets]
		}
		return items, err
	})
}

func (m *Screen) loadInfo() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.infoReq, requestTimeout, func(ctx context.Context) (*api.AccountDetails, error) {
		return svc.AccountDetails(ctx, account)
	})
}

func (m *Screen) loadLimits() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.limitsReq, requestTimeout, func(ctx context.Context) (*api.AccountLimits, error) {
		return svc.Limits(ctx, account)
	})
}

func (m *Screen) loadRails() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.railsReq, requestTimeout, func(ctx context.Context) (*api.AccountMetadata, error) {
		return svc.Metadata(ctx, account)
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
	m.pendingAsked = true
	svc := m.svc
	return ui.Fetch(m.s, &m.pendingReq, requestTimeout, func(ctx context.Context) (pendingCount, error) {
		ops, more, err := api.FirstPages(ctx, approvalPages, svc.ListApproverOperations)
		if err != nil {
			return pendingCount{}, err
		}
		n := 0
		for _, op := range ops {
			if op.Status == api.OperationPending {
				n++
			}
		}
		return pendingCount{n: n, more: more}, nil
	})
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[api.Balances]:
		if !m.balReq.Take(msg) {
			return m, nil
		}
		m.balErr, m.balLoaded = msg.Err, true
		if m.balFresh.Took(m.s.Now(), msg.Err) {
			m.balances = msg.Value
		}
		return m, m.refreshed()
	case ui.Result[[]api.Ticket]:
		if !m.ticketsReq.Take(msg) {
			return m, nil
		}
		m.ticketsErr, m.ticketsDone = msg.Err, true
		if m.ticketsFresh.Took(m.s.Now(), msg.Err) {
			m.tickets = msg.Value
			m.table.SetColumns(ticketColumns(msg.Value)...)
			m.table.SetRows(ticketRows(m.s.Styles(), msg.Value))
		}
		m.restyle()
		return m, m.refreshed()
	case ui.Result[*api.AccountDetails]:
		if !m.infoReq.Take(msg) {
			return m, nil
		}
		m.infoErr = msg.Err
		if m.infoFresh.Took(m.s.Now(), msg.Err) {
			m.info = msg.Value
		}
		m.SetSize(m.w, m.h)
		return m, nil
	case ui.Result[*api.AccountLimits]:
		if !m.limitsReq.Take(msg) {
			return m, nil
		}
		m.limitsErr, m.limitsDone = msg.Err, true
		if m.limitsFresh.Took(m.s.Now(), msg.Err) {
			m.limits = msg.Value
		}
		m.SetSize(m.w, m.h)
		return m, nil
	case ui.Result[*api.AccountMetadata]:
		if !m.railsReq.Take(msg) {
			return m, nil
		}
		m.railsErr = msg.Err
		if msg.Err == nil {
			m.rails = msg.Value
		}
		m.SetSize(m.w, m.h)
		return m, nil
	case ui.Result[*api.OwnBRLAccount]:
		m.takeBank(msg)
		return m, nil
	case ui.Result[string]:
		if !m.codeReq.Take(msg) {
			return m, nil
		}
		m.qrCode, m.codeErr = msg.Value, msg.Err
		return m, nil
	case amountMsg:
		if !m.s.Owns(msg) {
			return m, nil // typed on the screen of another account
		}
		return m, m.askCode(string(msg.Value))
	case ui.Result[pendingCount]:
		if !m.pendingReq.Take(msg) {
			return m, nil
		}
		m.pendingErr, m.pendingDone = msg.Err, true
		if m.pendingFresh.Took(m.s.Now(), msg.Err) {
			m.pending, m.pendingMore = msg.Value.n, msg.Value.more
		}
		return m, nil
	case ui.AccessLoadedMsg:
		if !m.pendingAsked {
			return m, m.loadApprovals()
		}
		return m, nil
	case ui.ChangedMsg:
		return m, m.reload(msg)
	case ui.ThemeChangedMsg:
		m.restyle()
		m.table.SetRows(ticketRows(m.s.Styles(), m.tickets))
		return m, nil
	case refreshMsg:
		if !m.refreshing.Take(msg) {
			return m, nil
		}
		if !m.behind.Due() {
			return m, nil
		}
		return m, m.reloadAll()
	case ui.ShownMsg:
		if !m.behind.Shown(msg, m.ID()) {
			return m, nil
		}
		return m, m.reloadAll()
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	}
	return m, nil
}

// restyle gives the latest tickets their styles: dimmed while the last
// read of them failed.
func (m *Screen) restyle() {
	t := m.s.Styles()
	st := t.TableStyles()
	if m.ticketsFresh.Stale() {
		st.Cell, st.Status = t.Disabled, nil
	}
	m.table.SetStyles(st)
}

func (m *Screen) refreshed() tea.Cmd {
	if m.balLoaded && m.ticketsDone && m.balErr == nil && m.ticketsErr == nil {
		return m.s.Refreshed()
	}
	return nil
}

// brCode is the account's static BR Code, "" until it is known.
func (m *Screen) brCode() string {
	if m.info == nil {
		return ""
	}
	return m.info.BrCode
}

// shownCode is the code the QR shows: the one made for the amount asked
// for, else the static one.
func (m *Screen) shownCode() string {
	if m.qrAmount != "" {
		return m.qrCode
	}
	return m.brCode()
}

// askAmount asks for the amount the QR code should carry.
func (m *Screen) askAmount() tea.Cmd {
	s := m.s
	return ui.Prompt("Amount to receive, BRL", "e.g. 150.00 (empty: the payer chooses)", validAmount, func(text string) tea.Cmd {
		_, typed := ui.Answer(s, typedAmount(text))
		return typed
	})
}

func validAmount(text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	d, err := money.ParseAmount(text, "BRL")
	if err == nil && !d.IsPositive() {
		err = errors.New("the amount must be more than zero (empty: the payer chooses)")
	}
	return err
}

// askCode asks the service for a BR Code of the account's PIX key carrying
// amount ("" shows the static code again).
func (m *Screen) askCode(text string) tea.Cmd {
	m.codeErr, m.qrCode = nil, ""
	if strings.TrimSpace(text) == "" {
		m.qrAmount = ""
		m.codeReq.Cancel()
		return nil
	}
	d, err := money.ParseAmount(text, "BRL")
	if err != nil {
		m.codeErr = err
		return nil
	}
	m.qrAmount = money.Wire(d, "BRL")
	svc, account, amount := m.svc, m.s.Account.ID, m.qrAmount
	return ui.Fetch(m.s, &m.codeReq, requestTimeout, func(ctx context.Context) (string, error) {
		return svc.StaticBrCode(ctx, account, amount, "", "")
	})
}

func (m *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.showQR {
		switch {
		case key.Matches(msg, m.keys.Close):
			m.showQR, m.qrAmount, m.qrCode, m.codeErr = false, "", "", nil
			m.codeReq.Cancel()
		case key.Matches(msg, m.keys.Amount):
			return m.askAmount()
		case key.Matches(msg, m.keys.CopyCode):
			if code := m.shownCode(); code != "" {
				return ui.Copy("BR Code", code)
			}
		}
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.QR):
		m.showQR = m.brCode() != ""
		return nil
	case key.Matches(msg, m.keys.CopyCode):
		if code := m.brCode(); code != "" {
			return ui.Copy("BR Code", code)
		}
		return nil
	case key.Matches(msg, m.keys.CopyBank):
		if m.bank != nil {
			return ui.Copy("TED details", bankText(m.bank))
		}
		return nil
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

// KeyMap implements ui.Screen: open and copy only when a ticket is
// selected, the QR and the BR Code once the account's code is known.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	if m.showQR {
		k.CopyCode.SetEnabled(m.shownCode() != "")
		return []key.Binding{k.Close, k.Amount, k.CopyCode}
	}
	_, sel := m.table.Selected()
	k.Open.SetEnabled(sel)
	k.Copy.SetEnabled(sel)
	k.QR.SetEnabled(m.brCode() != "")
	k.CopyCode.SetEnabled(m.brCode() != "")
	k.CopyBank.SetEnabled(m.bank != nil)
	return append([]key.Binding{k.Refresh, k.Open, k.Copy, k.QR, k.CopyCode, k.CopyBank}, m.table.KeyMap()...)
}
