package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
)

// Legacy drivers, kept only until every screen schedules its timers with
// Session.After; they guess that a command slower than wait is a timer.

// wait is how long a command may take before it counts as a timer (a tick
// or a refresh schedule) and is skipped, so that a run ends.
const wait = 50 * time.Millisecond

// Run executes cmd, feeds every message it produces back into sc (batches
// unpacked, the commands Update returns run in turn) and returns the screen
// and the messages it saw, prompts and confirmations included, unanswered.
func Run(t testing.TB, sc ui.Screen, cmd tea.Cmd) (ui.Screen, []tea.Msg) {
	t.Helper()
	var seen []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		var msg tea.Msg
		select {
		case msg = <-ch:
		case <-time.After(wait):
			continue
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if msg == nil {
			continue
		}
		seen = append(seen, msg)
		var next tea.Cmd
		sc, next = sc.Update(msg)
		queue = append(queue, next)
	}
	return sc, seen
}

// Settle runs cmd the way the root would for a screen driven on its own:
// the messages mine reports as the screen's go back into sc, the commands
// Update returns run in turn, and every other message (toasts,
// confirmations, navigations, sequences) is returned in the order it came,
// unanswered. Unlike Run it waits for every command, so a screen's own
// timers count as answers.
func Settle(t testing.TB, sc ui.Screen, cmd tea.Cmd, mine func(tea.Msg) bool) []tea.Msg {
	t.Helper()
	_, out := settle(t, sc, cmd, mine)
	return out
}

// Send gives sc each of msgs in turn, settling what each one starts (see
// Settle), and returns the messages meant for the root.
func Send(t testing.TB, sc ui.Screen, mine func(tea.Msg) bool, msgs ...tea.Msg) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	for _, msg := range msgs {
		var cmd tea.Cmd
		var more []tea.Msg
		sc, cmd = sc.Update(msg)
		sc, more = settle(t, sc, cmd, mine)
		out = append(out, more...)
	}
	return out
}

func settle(t testing.TB, sc ui.Screen, cmd tea.Cmd, mine func(tea.Msg) bool) (ui.Screen, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10_000 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if !mine(msg) {
				out = append(out, msg)
				continue
			}
			var next tea.Cmd
			sc, next = sc.Update(msg)
			queue = append(queue, next)
		}
	}
	return sc, out
}
