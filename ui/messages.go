package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// FilterMsg carries the / filter of the active screen: the root sends it on
// every keystroke while the user types, and with an empty Query when the
// filter is cleared (esc). Only screens that implement Filterable get it.
type FilterMsg struct{ Query string }

// Filterable is implemented by screens whose list takes the / filter.
type Filterable interface {
	Filterable() bool
}

// AccessLoadedMsg is delivered to every screen when the caller's access info
// has loaded (Session.Access is set by then) or failed to load. Screens
// re-evaluate which actions are live.
type AccessLoadedMsg struct {
	Access *api.AccessInfo
	Err    error
}

// AccountsLoadedMsg is delivered to every screen when the list of accounts
// the access may operate has loaded (Session.Accounts is set by then).
type AccountsLoadedMsg struct {
	Accounts []api.Account
	Err      error
}

// ThemeChangedMsg is delivered to every screen when the theme was rebuilt
// (the terminal's background became known). Screens that copied styles into
// widgets copy them again.
type ThemeChangedMsg struct{}

// OpenSwitcherMsg opens the account switcher popup.
type OpenSwitcherMsg struct{}

// OpenSwitcher returns a command that opens the account switcher.
func OpenSwitcher() tea.Cmd { return func() tea.Msg { return OpenSwitcherMsg{} } }

// Copy puts text on the clipboard through OSC 52 and confirms with a toast
// naming what was copied ("ticket id").
func Copy(what, text string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), Toast(ToastSuccess, "Copied "+what+" to the clipboard"))
}

// Prompt returns a command that asks for one line of text.
func Prompt(title, placeholder string, validate func(string) error, onSubmit func(string) tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		return PromptMsg{Title: title, Placeholder: placeholder, Validate: validate, OnSubmit: onSubmit}
	}
}

// Refreshed returns a command that tells the root fresh data arrived now.
func (s *Session) Refreshed() tea.Cmd {
	at := s.Now()
	return func() tea.Msg { return RefreshedMsg{At: at} }
}

// Binding is a shorthand for a key binding with help text. The user may
// rebind its action by name in config.toml (see Overrides).
func Binding(help, desc string, keys ...string) key.Binding {
	return newBinding(help, desc, keys)
}

// Gate enables b only when the session may take action a; a binding for an
// action the access may not take is thus absent from help and hints.
func (s *Session) Gate(b key.Binding, a Action) key.Binding {
	b.SetEnabled(s.Can(a) == nil)
	return b
}

// ReloadAccountsMsg asks the root to list the accounts again (after one was
// created); screens then get a fresh AccountsLoadedMsg.
type ReloadAccountsMsg struct{}

// Changed names the kinds of data a write changed, as a set.
type Changed uint8

// Kinds of data a write changes.
const (
	ChangedTickets Changed = 1 << iota
	ChangedOperations
	ChangedBeneficiaries
	ChangedBalances
)

// Has reports whether c holds any of the kinds in k.
func (c Changed) Has(k Changed) bool { return c&k != 0 }

// ChangedMsg is delivered to every screen once the service confirmed a
// write that changed data of Account: the screens that show that data load
// it again (keeping their filters, cursor and open detail), so that nobody
// reads what was true before the write. By is the ID of the screen that
// made the write; it has already refreshed what it shows itself.
type ChangedMsg struct {
	Account uuid.UUID
	What    Changed
	By      string
}

// For reports whether the message concerns data of kind k in the account
// the session operates: a screen of another account never reloads for it.
func (m ChangedMsg) For(s *Session, k Changed) bool {
	return s != nil && m.Account == s.Account.ID && m.What.Has(k)
}

// ChangedIn returns a command that tells every screen that what changed in
// account, by a write of screen by.
func ChangedIn(account uuid.UUID, what Changed, by string) tea.Cmd {
	return func() tea.Msg { return ChangedMsg{Account: account, What: what, By: by} }
}
