package ui

import (
	"sync"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/journal"
)

// fallbackTheme serves sessions built without a theme (tests of a single
// screen); the root always sets one, so it is built at its first use, not
// as the dashboard's process starts.
var fallbackTheme = sync.OnceValue(func() *Theme { return NewTheme(true, false) })

// Styles returns the session's theme, never nil.
func (s *Session) Styles() *Theme {
	if s == nil || s.Theme == nil {
		return fallbackTheme()
	}
	return s.Theme
}

// WithAccount returns a new session for another operated account. It is built
// field by field (a Session holds an atomic counter and must not be copied);
// the in-flight count starts at zero because requests of the old session
// report to the old one.
func (s *Session) WithAccount(a Account) *Session {
	return &Session{
		Client:         s.Client,
		Env:            s.Env,
		Profile:        s.Profile,
		Label:          s.Label,
		Embedded:       s.Embedded,
		SandboxFunding: s.SandboxFunding,
		Account:        a,
		Access:         s.Access,
		ReadOnly:       s.ReadOnly,
		Journal:        s.Journal,
		StateDir:       s.StateDir,
		Time:           s.Time,
		Theme:          s.Theme,
		Accounts:       s.Accounts,
		Barred:         s.Barred,
		reach:          s.reach,
	}
}

// AccountName is the operated account as the header shows it: its name,
// with "(main)" for the main account.
func (s *Session) AccountName() string {
	name := s.Account.Name
	if name == "" {
		for _, a := range s.Accounts {
			if (s.Account.Main() && a.MainAccountID == "") || (!s.Account.Main() && a.ID == s.Account.ID) {
				name = a.Name
				break
			}
		}
	}
	switch {
	case s.Account.Main() && name == "":
		return "main account"
	case s.Account.Main():
		return name + " (main)"
	case name == "":
		return s.Account.ID.String()
	}
	return name
}

// JournalEntry starts the journal line of a write made on account (uuid.Nil
// for the main account): time, profile, environment and the account, which
// the journal names "main" or by its id. The caller adds ids, amounts and
// the outcome. It reads only what never changes in a session, so commands
// may call it.
func (s *Session) JournalEntry(account uuid.UUID, action, endpoint string) journal.Entry {
	acct := "main"
	if account != uuid.Nil {
		acct = account.String()
	}
	return journal.Entry{Time: s.Now().UTC(), Profile: s.Profile, Env: string(s.Env), Account: acct, Action: action, Endpoint: endpoint}
}
