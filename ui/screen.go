package ui

import (
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
)

// Screen is one page of the dashboard (Overview, Quote, Tickets, ...). The
// root model owns the header, footer, tabs, help, command line and prompts;
// a screen owns only its content area, whose size it is given by SetSize.
//
// A screen never blocks in Update: every call to the service runs in a
// tea.Cmd that captured what it needs by value (account id, cursor, filter)
// before it runs.
type Screen interface {
	// ID is the stable name used by navigation and the command line
	// ("overview", "quote", "tickets", ...).
	ID() string
	// Title is the tab label; it may carry a count ("Approvals (3)").
	Title() string
	Init() tea.Cmd
	Update(msg tea.Msg) (Screen, tea.Cmd)
	// View renders the content area, exactly the size last given to SetSize.
	View() string
	SetSize(width, height int)
	// KeyMap returns the bindings live right now. Bindings for actions the
	// access may not take are disabled (key.Binding.SetEnabled(false)) so that
	// help and hints never offer them.
	KeyMap() []key.Binding
	// Capturing reports that a text input or form of the screen has focus:
	// the root then forwards every key to the screen (only ctrl+c and esc are
	// seen first), so that typing "q" or "?" never fires a global action.
	Capturing() bool
	// Busy reports a flow under way that quitting would abandon (a quote
	// being turned into a ticket): the root asks before it quits.
	Busy() bool
}

// Ender is a screen that holds something the end of its session must
// release, such as a file being written. The root calls End on each built
// screen before it drops them: before an account switch builds the
// screens anew, and when the program ends (Root.Close). What End returns,
// when not empty, says to the user what was stopped (a toast after a
// switch; the log at the end, the quit having asked first through Busy).
type Ender interface {
	End() string
}

// Factory is one screen of the dashboard before it is built: its id and tab
// title, and how to build it for a session. The root builds a screen the
// first time it is shown, and builds it anew for the new session after an
// account switch, so no state of one account survives into another (a quote
// is bound to its account) and a switch costs only the visible screen's
// requests.
type Factory struct {
	ID    string
	Title string
	// Short is the tab's name when the full titles do not fit (four cells
	// or so); the start of Title when empty.
	Short string
	New   func(s *Session) Screen
	// Watch builds the screen with the session rather than when first
	// shown: it watches something whose news (Session.Notify) must reach
	// the user on any screen, such as the approver inbox.
	Watch bool
}

// ShownMsg is delivered to every built screen when the screen shown
// changes (and when a session's screens are built): a screen that polls
// polls faster while it is the one shown.
type ShownMsg struct{ Screen string }

// Behind is what a screen refreshing on a period knows of being shown:
// behind another screen nothing is refreshed (nobody reads it), and a
// refresh that came due meanwhile runs once the screen is shown again.
// The zero value is a screen shown.
type Behind struct{ hidden, lapsed bool }

// Due reports whether a periodic refresh that came due runs now: not
// behind another screen, where it waits for Shown.
func (b *Behind) Due() bool {
	if b.hidden {
		b.lapsed = true
		return false
	}
	return true
}

// Shown takes msg for the screen id and reports whether a refresh that
// came due while it was behind another screen runs now.
func (b *Behind) Shown(msg ShownMsg, id string) bool {
	b.hidden = msg.Screen != id
	if b.hidden || !b.lapsed {
		return false
	}
	b.lapsed = false
	return true
}

// Environment is the kind of service the session talks to.
type Environment string

// Environments.
const (
	EnvSandbox    Environment = "sandbox"
	EnvProduction Environment = "production"
)

// Account is the account being operated: the main account (ID uuid.Nil) or
// a sub-account.
type Account struct {
	ID   uuid.UUID
	Name string
}

// Main reports whether this is the main account.
func (a Account) Main() bool { return a.ID == uuid.Nil }

// Session is what every screen knows of the context it acts in. The root
// owns it; screens read it and never change it (they send messages instead).
type Session struct {
	Client  Client
	Env     Environment
	Profile string
	// Label names the service when there is no profile, as the header
	// does ("sandbox (credentials.json)").
	Label string
	// Embedded is true when the service is the in-process sandbox that
	// `tesouro` starts when nothing is configured (or with --sandbox).
	Embedded bool
	// SandboxFunding is true when the service offers the sandbox-only fund
	// endpoint (any sandbox environment).
	SandboxFunding bool
	Account        Account
	// Access is the caller's access info; nil until it has loaded.
	Access   *api.AccessInfo
	ReadOnly bool
	Journal  *journal.Journal
	StateDir string
	// Time is the session's clock (SystemClock when nil); tests replace it.
	Time Clock
	// Theme holds every style; never nil in a session built by the root.
	Theme *Theme
	// Accounts are the accounts the access may operate (main first); nil
	// until they have loaded.
	Accounts []api.Account
	// Barred are the sub-accounts the accounts list leaves out (the access
	// is blacklisted from them), with their names, for saying which.
	Barred []api.Account

	inFlight atomic.Int64
	sid      atomic.Uint64
	life     lifetime
	// reach is whether the service answers (nil in a session built by
	// hand: then nothing is recorded).
	reach *Reach
}

// Down reports whether the service does not answer: since when, and what
// failed first (see Reach).
func (s *Session) Down() (since time.Time, what string, down bool) { return s.reach.Down() }

// id is the session's process-wide number, drawn on first use from the
// same sequence as request ids.
func (s *Session) id() uint64 {
	if v := s.sid.Load(); v != 0 {
		return v
	}
	s.sid.CompareAndSwap(0, ids.Add(1))
	return s.sid.Load()
}

// InFlight is the number of requests under way, shown in the footer.
func (s *Session) InFlight() int64 { return s.inFlight.Load() }

// NavigateMsg asks the root to show a screen, optionally focused on an item
// (a ticket id, an operation id).
type NavigateMsg struct {
	Screen string
	ID     string
	// Action asks the screen to start something on the item once shown
	// (ActionMoveFunds); "" only shows it.
	Action string
}

// ActionMoveFunds asks the Sub-accounts screen to open the move of funds
// to the account ID names (none: it asks which).
const ActionMoveFunds = "move"

// Navigate returns a command that navigates.
func Navigate(screen, id string) tea.Cmd {
	return func() tea.Msg { return NavigateMsg{Screen: screen, ID: id} }
}

// SwitchAccountMsg asks the root to operate another account. The root
// rebuilds every screen (dropping any quote in progress).
type SwitchAccountMsg struct{ Account Account }

// ToastLevel is the kind of a toast.
type ToastLevel int

// Toast levels.
const (
	ToastInfo ToastLevel = iota
	ToastSuccess
	ToastError
)

// ToastMsg shows a short message in the footer.
type ToastMsg struct {
	Text  string
	Level ToastLevel
}

// Toast returns a command that shows a toast.
func Toast(level ToastLevel, text string) tea.Cmd {
	return func() tea.Msg { return ToastMsg{Text: text, Level: level} }
}

// RefreshedMsg tells the root that fresh data arrived (the footer shows the
// time of the last refresh).
type RefreshedMsg struct{ At time.Time }

// ConfirmMsg asks the root to show a yes/no prompt over the current screen.
// Only "y" runs OnYes, and only once every line of Body has been on
// screen (the root scrolls a body taller than the window with ↓, PgDn and
// space); any other key cancels and runs OnNo (which may be
// nil). Body should repeat exactly what is being confirmed.
type ConfirmMsg struct {
	Title string
	Body  string
	OnYes tea.Cmd
	OnNo  tea.Cmd
}

// Confirm returns a command that asks for a confirmation.
func Confirm(title, body string, onYes tea.Cmd) tea.Cmd {
	return func() tea.Msg { return ConfirmMsg{Title: title, Body: body, OnYes: onYes} }
}

// PromptMsg asks the root for one line of text (a rejection reason, a
// sub-account name). Validate, when set, must accept the text before
// OnSubmit runs; esc cancels.
type PromptMsg struct {
	Title       string
	Placeholder string
	Validate    func(string) error
	OnSubmit    func(string) tea.Cmd
}
