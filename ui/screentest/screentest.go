// Package screentest drives a ui.Screen in tests the way the dashboard
// would: commands run, and the messages they produce go back to the screen.
package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tesouro/ui"
)

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
