package e2e

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// unacknowledgedAttempts starts a fresh sandbox and the dashboard as the
// demo access name, on the Webhooks screen filtered to the delivery
// attempts nobody acknowledged yet.
func unacknowledgedAttempts(t *testing.T, name string) (*sandbox.Running, *Term) {
	t.Helper()
	sb, creds := startSandbox(t)
	tm := openAs(t, creds, name)
	tm.Send("9")
	tm.WaitFor("loaded", 10*time.Second)
	tm.Send("u")
	tm.WaitFor("filters: unacknowledged only", 5*time.Second)
	tm.WaitFor("loaded", 10*time.Second)
	return sb, tm
}

var attemptRe = regexp.MustCompile(`Delivery attempt ([0-9a-f-]{36})`)

// TestE2EWebhookAcknowledge: the operator lists the unacknowledged delivery
// attempts, opens one, acknowledges it after the confirmation, and the
// service records it acknowledged.
func TestE2EWebhookAcknowledge(t *testing.T) {
	sb, tm := unacknowledgedAttempts(t, "operator")

	tm.Send("Enter")
	screen := tm.WaitFor("Delivery attempt ", 10*time.Second)
	m := attemptRe.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no attempt id on the detail:\n%s", screen)
	}
	id := m[1]
	tm.WaitFor("Acknowledged", 5*time.Second)

	tm.Send("a")
	tm.WaitFor("Acknowledge 1 attempt?", 5*time.Second)
	tm.Send("y")
	tm.WaitFor("Acknowledged 1 webhook attempt", 10*time.Second)

	c := clientAs(t, sb, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := c.GetWebhookAttempt(ctx, id)
	if err != nil {
		t.Fatalf("read the attempt back: %v", err)
	}
	if !a.Acknowledged {
		t.Fatalf("attempt %s is not acknowledged in the service", id)
	}

	// Back on the list of unacknowledged attempts it is gone.
	tm.Send("Escape")
	tm.WaitFor("loaded", 10*time.Second)
	tm.WaitGone(id[:8], 10*time.Second)
}

// TestE2EViewerCannotAcknowledge: a view-only access sees the attempts but
// is never offered to acknowledge them.
func TestE2EViewerCannotAcknowledge(t *testing.T) {
	_, tm := unacknowledgedAttempts(t, "viewer")
	tm.Send("a")
	if s := tm.Synced(); regexp.MustCompile(`Acknowledge \d+ attempt`).MatchString(s) {
		t.Fatalf("a view-only access was asked to acknowledge:\n%s", s)
	}
}
