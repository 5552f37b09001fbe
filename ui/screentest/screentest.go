// Package screentest drives a ui.Screen in tests the way the root does, on
// a fake clock and synchronously: every command runs at once and its
// messages go back to the screen; timers (anything a screen schedules with
// Session.After) wait until the test moves the clock with Advance. Nothing
// in a test waits on the wall clock, and a command that would block fails
// the test instead of being skipped.
package screentest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/clocktest"
)

// Epoch is where a fake clock starts unless a test says otherwise.
var Epoch = clocktest.Epoch

// Clock is the fake clock a Driver's session runs on.
type Clock = clocktest.Clock

// NewClock is a fake clock showing t.
func NewClock(t time.Time) *Clock { return clocktest.New(t) }

// blocked is how long one command may run before the test fails: only a
// command that waits (a timer not scheduled through the session's clock)
// takes that long, and that is the bug to report.
const blocked = 10 * time.Second

// Driver drives one screen like the root does and keeps what the screen
// asks of the root (toasts, confirmations, prompts, navigations, changes)
// for the test to look at, unanswered.
type Driver struct {
	T       testing.TB
	Screen  ui.Screen
	Session *ui.Session
	Clock   *Clock

	Toasts  []ui.ToastMsg
	Asks    []ui.ConfirmMsg
	Prompts []ui.PromptMsg
	Navs    []ui.NavigateMsg
	Changes []ui.ChangedMsg
	// Notes are the news the screen asked the root to tell on any screen.
	Notes []ui.NotifyMsg
	// Switches are the accounts the screen asked the root to operate, and
	// Reloads its requests that the root load the accounts again.
	Switches []ui.SwitchAccountMsg
	Reloads  []ui.ReloadAccountsMsg
	// Out is every message meant for the root, in the order it came.
	Out []tea.Msg

	timers clocktest.Queue
}

// New drives screen sc of session s. The session's clock must be a *Clock
// (Drive sets one when it has none).
func New(t testing.TB, s *ui.Session, sc ui.Screen) *Driver {
	t.Helper()
	c, ok := s.Time.(*Clock)
	if !ok {
		t.Fatal("screentest: the session's clock is not a *screentest.Clock")
	}
	return &Driver{T: t, Screen: sc, Session: s, Clock: c}
}

// Drive gives s a fake clock if it has none, builds the screen with
// newScreen, gives it w×h cells and runs its Init.
func Drive(t testing.TB, s *ui.Session, newScreen func(*ui.Session) ui.Screen, w, h int) *Driver {
	t.Helper()
	if s.Time == nil {
		s.Time = NewClock(Epoch)
	}
	d := New(t, s, newScreen(s))
	d.Screen.SetSize(w, h)
	d.Run(d.Screen.Init())
	return d
}

// Run runs cmd and everything that follows from it, until only timers are
// left.
func (d *Driver) Run(cmd tea.Cmd) {
	d.T.Helper()
	if cmd == nil {
		return
	}
	d.Handle(d.exec(cmd))
}

// Handle deals with msg as the root would: batches and sequences are run,
// timers parked, the root's messages kept, and the rest delivered to the
// screen (answers of another session dropped, as the root drops them).
func (d *Driver) Handle(msg tea.Msg) {
	d.T.Helper()
	switch m := msg.(type) {
	case nil, ui.RefreshedMsg:
	case tea.BatchMsg:
		for _, c := range m {
			d.Run(c)
		}
	case clocktest.Timer:
		d.timers.Park(m)
	case ui.ToastMsg:
		d.Toasts = append(d.Toasts, m)
		d.Out = append(d.Out, m)
	case ui.ConfirmMsg:
		d.Asks = append(d.Asks, m)
		d.Out = append(d.Out, m)
	case ui.PromptMsg:
		d.Prompts = append(d.Prompts, m)
		d.Out = append(d.Out, m)
	case ui.NavigateMsg:
		d.Navs = append(d.Navs, m)
		d.Out = append(d.Out, m)
	case ui.ChangedMsg:
		d.Changes = append(d.Changes, m)
		d.Out = append(d.Out, m)
	case ui.NotifyMsg:
		d.Notes = append(d.Notes, m)
		d.Out = append(d.Out, m)
	case ui.SwitchAccountMsg:
		d.Switches = append(d.Switches, m)
		d.Out = append(d.Out, m)
	case ui.ReloadAccountsMsg:
		d.Reloads = append(d.Reloads, m)
		d.Out = append(d.Out, m)
	case ui.Reply:
		if d.Session.Owns(m) {
			d.Send(msg)
		}
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
			// tea.Sequence's message is an unexported slice of commands.
			for i := range v.Len() {
				d.Run(v.Index(i).Interface().(tea.Cmd))
			}
			return
		}
		if isTeaInternal(msg) {
			d.Out = append(d.Out, msg) // the clipboard, quitting: the program's
			return
		}
		d.Send(msg)
	}
}

// Send gives the screen msg and runs the command it returns.
func (d *Driver) Send(msg tea.Msg) {
	d.T.Helper()
	var cmd tea.Cmd
	d.Screen, cmd = d.Screen.Update(msg)
	d.Run(cmd)
}

// Advance moves the clock by by, firing every timer that falls due on the
// way in order (timers armed by a firing fire too once due).
func (d *Driver) Advance(by time.Duration) {
	d.T.Helper()
	d.timers.Advance(d.Clock, by, d.Handle)
}

// Pending is how many timers wait.
func (d *Driver) Pending() int { return d.timers.Len() }

// exec runs one command, failing the test if it blocks.
func (d *Driver) exec(cmd tea.Cmd) tea.Msg {
	d.T.Helper()
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case m := <-ch:
		return m
	case <-time.After(blocked):
		d.T.Fatalf("screentest: a command blocked for %s: schedule timers with Session.After", blocked)
		return nil
	}
}

// isTeaInternal reports a message of Bubble Tea's own (setting the
// clipboard, quitting): the program's to act on, never a screen's.
func isTeaInternal(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == reflect.TypeFor[tea.KeyPressMsg]().PkgPath()
}

// Key presses keys one after the other (see KeyPress).
func (d *Driver) Key(keys ...string) {
	d.T.Helper()
	for _, k := range Keys(keys...) {
		d.Send(k)
	}
}

// Type types s one character at a time.
func (d *Driver) Type(s string) {
	d.T.Helper()
	for _, k := range Text(s) {
		d.Send(k)
	}
}

// PlainView is the screen as a user reads it, without escape codes.
func (d *Driver) PlainView() string { return ansi.Strip(d.Screen.View()) }

// KeyPress is the key named k: "enter", "tab", "shift+tab", "esc", the
// arrows, "space", "ctrl+s", "backspace", "pgdown", "home", "end", or a
// character.
func KeyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// Keys are the presses of the keys named keys (see KeyPress), in order.
func Keys(keys ...string) []tea.Msg {
	out := make([]tea.Msg, len(keys))
	for i, k := range keys {
		out[i] = KeyPress(k)
	}
	return out
}

// Text is s typed one character at a time.
func Text(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// CheckSize fails the test unless the view v is hgt lines of at most w
// cells. A screen given no rows (hgt 0) still draws its one empty line, so
// only the width is checked then.
func CheckSize(t testing.TB, v string, w, hgt int) {
	t.Helper()
	lines := splitLines(v)
	if hgt > 0 && len(lines) != hgt {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), hgt, v)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Fatalf("line wider than %d: %q", w, l)
		}
	}
}

func splitLines(s string) []string { return strings.Split(s, "\n") }
