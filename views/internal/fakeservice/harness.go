package fakeservice

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
)

// Session is a sandbox session of profile "test" for svc, with a journal in
// a temporary directory and the access of email with perms.
func Session(t *testing.T, svc api.Service, email string, perms api.Permissions) *ui.Session {
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &ui.Session{Client: svc, Env: ui.EnvSandbox, Profile: "test", Journal: j,
		Access: &api.AccessInfo{Email: email, AccountPermissions: perms}}
}

// Harness drives a screen like the root does: it runs every command and
// feeds the screen's own messages back, keeping the root's (toasts,
// confirmations, prompts, navigations, changes) for the test to look at.
type Harness struct {
	T       *testing.T
	Screen  ui.Screen
	Toasts  []ui.ToastMsg
	Asks    []ui.ConfirmMsg
	Prompts []ui.PromptMsg
	Navs    []ui.NavigateMsg
	Changes []ui.ChangedMsg
	journal string
}

// Drive builds the screen for s, gives it w×h cells and runs its Init.
func Drive(t *testing.T, s *ui.Session, newScreen ui.Factory, w, h int) *Harness {
	t.Helper()
	hr := &Harness{T: t, Screen: newScreen(s), journal: s.Journal.Path()}
	hr.Screen.SetSize(w, h)
	hr.Run(hr.Screen.Init())
	return hr
}

// Run runs cmd and what follows from it.
func (h *Harness) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := runQuick(cmd)
	switch m := msg.(type) {
	case nil, ui.RefreshedMsg:
	case tea.BatchMsg:
		for _, c := range m {
			h.Run(c)
		}
	case ui.ToastMsg:
		h.Toasts = append(h.Toasts, m)
	case ui.ConfirmMsg:
		h.Asks = append(h.Asks, m)
	case ui.PromptMsg:
		h.Prompts = append(h.Prompts, m)
	case ui.NavigateMsg:
		h.Navs = append(h.Navs, m)
	case ui.ChangedMsg:
		h.Changes = append(h.Changes, m)
	default:
		v := reflect.ValueOf(msg)
		switch {
		case v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)):
			// tea.Sequence's message is an unexported slice of commands.
			for i := range v.Len() {
				h.Run(v.Index(i).Interface().(tea.Cmd))
			}
		case strings.HasPrefix(v.Type().PkgPath(), "github.com/tesouro-treasury/tesouro/views/"):
			// A message of the views' own packages answers the screen.
			h.Send(msg)
		}
		// Anything else (the text input's cursor blink) would loop forever.
	}
}

// Send gives the screen msg and runs the command it returns.
func (h *Harness) Send(msg tea.Msg) {
	var cmd tea.Cmd
	h.Screen, cmd = h.Screen.Update(msg)
	h.Run(cmd)
}

// Key presses keys one after the other (see KeyPress).
func (h *Harness) Key(keys ...string) {
	for _, k := range Keys(keys...) {
		h.Send(k)
	}
}

// Type types s one character at a time.
func (h *Harness) Type(s string) {
	for _, k := range Text(s) {
		h.Send(k)
	}
}

// PlainView is the screen as a user reads it, without escape codes.
func (h *Harness) PlainView() string { return ansi.Strip(h.Screen.View()) }

// Journal is what the screen journaled.
func (h *Harness) Journal() []journal.Entry {
	h.T.Helper()
	es, err := journal.ReadFile(h.journal)
	if err != nil {
		h.T.Fatalf("read journal: %v", err)
	}
	return es
}

// KeyPress is the key named k: "enter", "tab", "shift+tab", "esc", the
// arrows, "space", "ctrl+s", "backspace", or a character.
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
// cells.
func CheckSize(t *testing.T, v string, w, hgt int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != hgt {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), hgt, v)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Fatalf("line wider than %d: %q", w, l)
		}
	}
}

// runQuick runs a command, giving up on those that wait (the text input's
// cursor blink sleeps half a second): the fake answers at once.
func runQuick(cmd tea.Cmd) tea.Msg {
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case m := <-ch:
		return m
	case <-time.After(250 * time.Millisecond):
		return nil
	}
}
