// Package subaccounts is the Sub-accounts screen: the main account and every
// sub-account, the one being operated, those this access is blacklisted from
// (disabled), switching the operated account, and creating a sub-account.
package subaccounts

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
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

const (
	requestTimeout = 15 * time.Second
	// maxNameLen is the longest sub-account name the form accepts.
	maxNameLen = 100
)

// Screen is the Sub-accounts screen.
type Screen struct {
	s    *ui.Session
	svc  Service
	w, h int
	// listing awaits the latest load: an older one's answer, or one of
	// another account's screen, is dropped.
	listing ui.Slot

	subs    []api.SubAccount
	more    bool
	err     error
	loaded  bool
	table   *listing.Table[account]
	creates int // creations under way
	// moving awaits a move's quote; sending its creation; moves counts
	// the creations under way.
	moving, sending ui.Slot
	moves           int
	width           widthClass
	query           string // the / filter, matched fuzzily against name and type

	keys keyMap
}

type keyMap struct {
	Switch, Create, Move, Copy, Refresh key.Binding
}

// New builds the screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{
		s:   s,
		svc: svc,
		keys: keyMap{
			Switch:  ui.Binding("enter", "operate this account", "enter"),
			Create:  ui.Binding("c", "create sub-account", "c"),
			Move:    ui.Binding("m", "move funds here", "m"),
			Copy:    ui.Binding("y", "copy account id", "y"),
			Refresh: ui.Binding("r", "refresh", "r"),
		},
	}
	m.table = listing.NewTable(func(a account) string { return a.rowID }, m.row, columns(wide)...)
	m.table.SetStyles(s.Styles().TableStyles())
	m.table.SetEmpty("loading accounts…")
	m.rebuild()
	return m
}

// created is a creation's outcome.
type created struct {
	name       string
	id         uuid.UUID
	journalErr error
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "subaccounts" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Sub-accounts" }

// Capturing implements ui.Screen.
func (m *Screen) Capturing() bool { return false }

// Busy implements ui.Screen: a creation or a move under way would be lost
// on quit.
func (m *Screen) Busy() bool { return m.creates > 0 || m.moves > 0 }

// Filterable implements ui.Filterable.
func (m *Screen) Filterable() bool { return true }

// Init implements ui.Screen.
func (m *Screen) Init() tea.Cmd { return m.load() }

func (m *Screen) load() tea.Cmd {
	svc := m.svc
	return listing.FetchWhole(m.s, &m.listing, requestTimeout, func(ctx context.Context, cursor string) (api.Page[api.SubAccount], error) {
		return svc.ListSubAccounts(ctx, api.SubAccountFilter{Cursor: cursor})
	})
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case listing.WholeMsg[api.SubAccount]:
		if !m.listing.Take(msg) {
			return m, nil
		}
		m.loaded, m.err = true, msg.Err
		if msg.Err == nil {
			m.subs, m.more = msg.Value.Items, msg.Value.More
		}
		m.rebuild()
		if msg.Err != nil {
			return m, nil
		}
		return m, m.s.Refreshed()
	case ui.Result[created]:
		// Every creation of this session is awaited (several may run).
		if !m.s.Owns(msg) {
			return m, nil
		}
		m.creates--
		c := msg.Value
		if msg.Err != nil {
			return m, ui.Toast(ui.ToastError, fmt.Sprintf("Could not create sub-account %q: %s", c.name, ui.ErrorText(msg.Err)))
		}
		done := ui.Toast(ui.ToastSuccess, fmt.Sprintf("Created sub-account %q (%s)", c.name, c.id))
		if c.journalErr != nil {
			done = ui.Toast(ui.ToastError, fmt.Sprintf("Created sub-account %q, but the local journal could not record it: %s", c.name, ui.ErrorText(c.journalErr)))
		}
		return m, tea.Batch(
			done,
			m.load(),
			func() tea.Msg { return ui.ReloadAccountsMsg{} },
		)
	case startCreateMsg:
		if !m.s.Owns(msg) {
			return m, nil // confirmed on the screen of another account
		}
		m.creates++
		return m, m.send(msg.Value.name, msg.Value.kind)
	case moveQuotedMsg:
		if !m.moving.Take(msg) {
			return m, nil
		}
		return m, m.onMoveQuoted(msg)
	case startMoveMsg:
		if !m.s.Owns(msg) {
			return m, nil // confirmed on the screen of another account
		}
		return m, m.onStartMove(msg)
	case retryMoveMsg:
		if !m.s.Owns(msg) {
			return m, nil
		}
		return m, m.quoteMove(msg.Value.mv)
	case movedMsg:
		if !m.sending.Take(msg) {
			return m, nil
		}
		return m, m.onMoved(msg)
	case ui.AccessLoadedMsg, ui.AccountsLoadedMsg:
		m.rebuild()
		return m, nil
	case ui.ThemeChangedMsg:
		m.table.SetStyles(m.s.Styles().TableStyles())
		m.rebuild()
		return m, nil
	case ui.FilterMsg:
		m.query = msg.Query
		m.rebuild()
		return m, nil
	case ui.NavigateMsg:
		if msg.ID != "" {
			m.table.Select(msg.ID)
		}
		if msg.Action == ui.ActionMoveFunds {
			return m, m.moveFromCommand(msg.ID)
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	}
	return m, nil
}

func (m *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Refresh):
		return m.load()
	case key.Matches(msg, m.keys.Copy):
		if a, ok := m.table.Selected(); ok {
			return ui.Copy("account id", a.acc.ID.String())
		}
		return nil
	case key.Matches(msg, m.keys.Switch):
		a, ok := m.table.Selected()
		if !ok {
			return nil
		}
		if m.blacklisted(a) {
			return ui.Toast(ui.ToastError, "This access is blacklisted from "+a.acc.Name+": it cannot be operated")
		}
		return func() tea.Msg { return ui.SwitchAccountMsg{Account: a.acc} }
	case key.Matches(msg, m.keys.Move):
		a, ok := m.table.Selected()
		if !ok {
			return nil
		}
		return m.startMoveTo(a.acc)
	case key.Matches(msg, m.keys.Create):
		if err := m.s.Can(ui.ActCreateSubAccount); err != nil {
			return ui.Toast(ui.ToastError, "Cannot create a sub-account: "+ui.ErrorText(err))
		}
		return m.askName()
	}
	return m.table.Update(msg)
}

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	a, sel := m.table.Selected()
	k.Switch.SetEnabled(sel && !m.blacklisted(a) && a.acc.ID != m.s.Account.ID)
	k.Copy.SetEnabled(sel)
	k.Create = m.s.Gate(k.Create, ui.ActCreateSubAccount)
	k.Move = m.s.Gate(k.Move, ui.ActPayOut)
	if sel {
		k.Move.SetEnabled(k.Move.Enabled() && a.acc.ID != m.s.Account.ID && (a.acc.Main() || m.s.Account.Main()) && !m.blacklisted(a))
	}
	return append([]key.Binding{k.Switch, k.Move, k.Create, k.Copy, k.Refresh}, m.table.KeyMap()...)
}

// askName, askType and confirmCreate chain the creation dialogue.
func (m *Screen) askName() tea.Cmd {
	return ui.Prompt("New sub-account name", "e.g. Acme Pagamentos Ltda", validName, func(name string) tea.Cmd {
		return m.askType(name)
	})
}

func validName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("type a name for the sub-account")
	case len([]rune(s)) > maxNameLen:
		return fmt.Errorf("keep the name under %d characters", maxNameLen)
	}
	return nil
}

func (m *Screen) askType(name string) tea.Cmd {
	return ui.Prompt("Account type for "+name, "INDIVIDUAL or COMPANY", validType, func(kind string) tea.Cmd {
		kind = normType(kind)
		body := fmt.Sprintf("Name: %s\nType: %s\nUnder: %s\nEnvironment: %s", name, kind, m.mainName(), m.s.Env)
		_, start := ui.Answer(m.s, startCreate{name: name, kind: kind})
		return ui.Confirm("Create this sub-account?", body, start)
	})
}

func normType(s string) string {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "I", "INDIVIDUAL":
		return "INDIVIDUAL"
	case "C", "COMPANY":
		return "COMPANY"
	}
	return ""
}

func validType(s string) error {
	if normType(s) == "" {
		return errors.New("type INDIVIDUAL or COMPANY (I or C)")
	}
	return nil
}

// startCreate is a creation confirmed, startCreateMsg hands it to the
// screen, which counts it as under way before its request runs. It is an
// answer of the session whose screen confirmed it: a screen rebuilt for
// another account in between does not send it.
type (
	startCreate    struct{ name, kind string }
	startCreateMsg = ui.Result[startCreate]
)

// send sends the creation and journals it.
func (m *Screen) send(name, kind string) tea.Cmd {
	s, svc, j := m.s, m.svc, m.s.Journal
	_, cmd := ui.Call(s, requestTimeout, func(ctx context.Context) (created, error) {
		id, err := svc.CreateSubAccount(ctx, api.CreateSubAccountRequest{AccountType: kind, Name: name})
		entry := s.JournalEntry(uuid.Nil, "create-sub-account", "POST /v2/account/sub-accounts")
		entry.Outcome = "created"
		if err != nil {
			entry.Outcome = "error: " + err.Error()
		} else {
			entry.IDs = map[string]string{"subAccountId": id.String()}
		}
		return created{name: name, id: id, journalErr: j.Record(entry)}, err
	})
	return cmd
}
