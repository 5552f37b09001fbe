// Package staletest holds the two checks every screen's tests make of its
// answers, so that each screen states only its own case: an answer asked
// for by the screen of another account (the root rebuilds every screen on
// an account switch) changes nothing on the screen rebuilt for this one,
// and an older load of the same screen never overwrites the latest. The
// firing of a timer armed with ui.After (a poll, a refresh) is an answer
// like any other: Fired gives it to a test.
//
// Answers are delivered straight to the screen (screentest.Driver.Send), not
// through the driver's Handle, which drops another session's answers as the
// root does: the screen's own checks are what is tested.
package staletest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/clocktest"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

// Answers runs cmds now and returns every message they give, batches
// opened and timers left out, none delivered: a test holds them to deliver
// late, or to another screen.
func Answers(cmds ...tea.Cmd) []tea.Msg { return collect(cmds, true, false) }

// Fired runs cmds now and returns the firing of every timer they arm (a
// poll, a refresh, a debounce), as if its time had come, their answers left
// out: a test holds them to deliver once the timer was replaced, or to
// another screen.
func Fired(cmds ...tea.Cmd) []tea.Msg { return collect(cmds, false, true) }

// collect runs cmds and returns their answers, their timers' firings, or
// both.
func collect(cmds []tea.Cmd, answers, timers bool) []tea.Msg {
	var out []tea.Msg
	for _, cmd := range cmds {
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			out = append(out, collect(msg, answers, timers)...)
		case clocktest.Timer:
			if timers {
				out = append(out, msg.Fire())
			}
		default:
			if answers {
				out = append(out, msg)
			}
		}
	}
	return out
}

// OtherAccount is the session the root makes when the operator of a
// switches to another account: the one B's screen is rebuilt for.
func OtherAccount(a *ui.Session) *ui.Session {
	return a.WithAccount(ui.Account{ID: uuid.New(), Name: "Other"})
}

// AnotherAccount is one screen's case of answers meant for another account.
type AnotherAccount struct {
	// FromA are the requests the screen of account A made (its load, a
	// detail, a write); they run at once and their answers are held, with
	// the firings of the timers they arm when Timers is set (a poll, a
	// refresh).
	FromA  []tea.Cmd
	Timers bool
	// B drives the screen rebuilt for account B. Own is B's request whose
	// answer has not come yet (its first load, a detail it opened).
	B   *screentest.Driver
	Own tea.Cmd
	// Held, when set, describes what B holds that its view may not show
	// (the rows behind an open form, a pending write); A's answers must not
	// change it either.
	Held func() string
	// Then checks B once it has its own answer: it shows what is its own
	// and nothing of A's.
	Then func(t *testing.T, b *screentest.Driver)
}

// Check delivers A's answers to B before B's own answer came and again
// after: neither time may they change what B shows or ask anything of the
// root (a toast, a change, a navigation); B still takes its own answer.
func (c AnotherAccount) Check(t *testing.T) {
	t.Helper()
	late := collect(c.FromA, true, c.Timers)
	if len(late) == 0 {
		t.Fatal("staletest: A made no request")
	}
	deliver := func(when string) {
		t.Helper()
		before, held, out := c.B.PlainView(), c.held(), len(c.B.Out)
		for _, msg := range late {
			c.B.Send(msg)
		}
		if got := c.B.PlainView(); got != before {
			t.Fatalf("A's answers changed B's screen %s:\n%s\nwas:\n%s", when, got, before)
		}
		if got := c.held(); got != held {
			t.Fatalf("A's answers changed what B holds %s: %s, was %s", when, got, held)
		}
		if extra := c.B.Out[out:]; len(extra) != 0 {
			t.Fatalf("A's answers made B's screen ask the root %s: %+v", when, extra)
		}
	}
	deliver("before B's own answer")
	c.B.Run(c.Own)
	deliver("after B's own answer")
	c.Then(t, c.B)
}

func (c AnotherAccount) held() string {
	if c.Held == nil {
		return ""
	}
	return c.Held()
}

// OlderLoad is one screen's case of a load overtaken by a later one.
type OlderLoad struct {
	D *screentest.Driver
	// Ask makes the request again as the user does (r, a reload after a
	// write).
	Ask func() tea.Cmd
	// Change changes what the service answers, after the older request
	// was answered and before the latest is.
	Change func()
	// Then checks that the screen shows the latest answer.
	Then func(t *testing.T, d *screentest.Driver)
}

// Check asks twice, the first answer made before Change and delivered after
// the second: the screen keeps showing the latest.
func (c OlderLoad) Check(t *testing.T) {
	t.Helper()
	late := Answers(c.Ask())
	c.Change()
	c.D.Run(c.Ask())
	c.Then(t, c.D)
	before := c.D.PlainView()
	for _, msg := range late {
		c.D.Send(msg)
	}
	if got := c.D.PlainView(); got != before {
		t.Fatalf("the older answer landed:\n%s\nwas:\n%s", got, before)
	}
}

// Key is an Ask that presses k on d's screen and returns what it asks for,
// not run.
func Key(d *screentest.Driver, k string) func() tea.Cmd {
	return func() tea.Cmd {
		var cmd tea.Cmd
		d.Screen, cmd = d.Screen.Update(screentest.KeyPress(k))
		return cmd
	}
}

// Refresh is the OlderLoad of a screen reloaded with r whose latest answer
// its view alone tells: after change, it shows want and nothing of gone.
func Refresh(d *screentest.Driver, change func(), want, gone string) OlderLoad {
	return OlderLoad{D: d, Ask: Key(d, "r"), Change: change, Then: Shows(want, gone)}
}

// Shows is a Then that asks the view to show want and nothing of gone.
func Shows(want, gone string) func(t *testing.T, d *screentest.Driver) {
	return func(t *testing.T, d *screentest.Driver) {
		t.Helper()
		if v := d.PlainView(); !strings.Contains(v, want) || strings.Contains(v, gone) {
			t.Fatalf("the latest load is not shown (%q, and no %q):\n%s", want, gone, v)
		}
	}
}
