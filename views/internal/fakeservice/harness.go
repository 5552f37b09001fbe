package fakeservice

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

// Session is a sandbox session of profile "test", with a journal in a
// temporary directory and the access of email with perms. It has no client:
// screens are given their service by their constructor.
func Session(t *testing.T, email string, perms api.Permissions) *ui.Session {
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &ui.Session{Env: ui.EnvSandbox, Profile: "test", Journal: j, Time: screentest.NewClock(screentest.Epoch),
		Access: &api.AccessInfo{Email: email, AccountPermissions: perms}}
}

// Harness drives a screen like the root does (see screentest.Driver) and
// reads what it journaled.
type Harness struct {
	*screentest.Driver
	journal string
}

// Drive builds the screen for s on a fake clock, gives it w×h cells and
// runs its Init.
func Drive(t *testing.T, s *ui.Session, newScreen func(*ui.Session) ui.Screen, w, h int) *Harness {
	t.Helper()
	return &Harness{Driver: screentest.Drive(t, s, newScreen, w, h), journal: s.Journal.Path()}
}

// Journal is what the screen journaled.
func (h *Harness) Journal() []journal.Entry {
	h.T.Helper()
	es, err := journal.ReadFile(h.journal)
	if err != nil {
		h.T.Fatalf("read journal: %v", err)
	}
	return es
}

// KeyPress is the key named k (see screentest.KeyPress).
func KeyPress(k string) tea.KeyPressMsg { return screentest.KeyPress(k) }

// Keys are the presses of the keys named keys, in order.
func Keys(keys ...string) []tea.Msg { return screentest.Keys(keys...) }

// Text is s typed one character at a time.
func Text(s string) []tea.Msg { return screentest.Text(s) }

// CheckSize fails the test unless the view v is hgt lines of at most w
// cells.
func CheckSize(t *testing.T, v string, w, hgt int) { t.Helper(); screentest.CheckSize(t, v, w, hgt) }
