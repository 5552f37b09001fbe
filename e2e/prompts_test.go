package e2e

import (
	"strings"
	"testing"
	"time"
)

// At a terminal a write asks with huh's confirmation: it starts on No, so
// enter cancels nothing; y confirms. The question goes to stderr, the
// result to stdout.
func TestE2EPromptConfirmsOnlyOnYes(t *testing.T) {
	needTmux(t)
	s := newScripts(t)
	id := strings.TrimSpace(s.must("ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "40.00", "--external-id", "e2e-prompt", "--yes", "--jq", ".id"))
	for _, answer := range []struct {
		key, status string
		code        int
	}{{"Enter", "UNPAID", 1}, {"y", "CANCELED", 0}} {
		tm := startTUI(t, "--credentials", s.creds, "tickets", "cancel", id, "--jq", ".status")
		tm.WaitFor("Cancel this ticket?", 15*time.Second)
		tm.Send(answer.key)
		if code := tm.WaitExit(10 * time.Second); code != answer.code {
			t.Errorf("%s on the question: exit %d, want %d", answer.key, code, answer.code)
		}
		if st := strings.TrimSpace(s.must("tickets", "get", id, "--jq", ".status")); st != answer.status {
			t.Fatalf("after %s the ticket is %s, want %s", answer.key, st, answer.status)
		}
	}
}
