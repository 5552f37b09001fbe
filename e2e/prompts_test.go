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

	tm := startTUI(t, "--credentials", s.creds, "tickets", "cancel", id, "--jq", ".status")
	tm.WaitFor("Cancel this ticket?", 15*time.Second)
	tm.Send("Enter")
	if code := tm.WaitExit(10 * time.Second); code != 1 {
		t.Errorf("enter on the question: exit %d, want 1 (not confirmed)", code)
	}
	if st := strings.TrimSpace(s.must("tickets", "get", id, "--jq", ".status")); st != "UNPAID" {
		t.Fatalf("not confirmed, yet the ticket is %s", st)
	}

	tm = startTUI(t, "--credentials", s.creds, "tickets", "cancel", id, "--jq", ".status")
	tm.WaitFor("Cancel this ticket?", 15*time.Second)
	tm.Send("y")
	if code := tm.WaitExit(10 * time.Second); code != 0 {
		t.Errorf("y on the question: exit %d, want 0", code)
	}
	if st := strings.TrimSpace(s.must("tickets", "get", id, "--jq", ".status")); st != "CANCELED" {
		t.Errorf("confirmed with y, yet the ticket is %s", st)
	}
}
