package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// externalIDRe reads the external id off the ticket confirmation.
var externalIDRe = regexp.MustCompile(`External id\s+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`)

// firstRowAfter is the line under the first line holding every word of
// header: the top row of a table.
func firstRowAfter(screen string, header ...string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		all := true
		for _, h := range header {
			all = all && strings.Contains(l, h)
		}
		if all && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

// TestE2ENewTicketShowsInTicketsWithoutReload: a ticket created in the
// Quote screen is at the top of Tickets (and of the Overview's latest
// tickets) when the operator goes there, without pressing r.
func TestE2ENewTicketShowsInTicketsWithoutReload(t *testing.T) {
	tm := openQuote(t, "operator", registerWallet(t, "E2E Cold Wallet"))
	// Tickets loaded at start, before the ticket exists.
	tm.Send("3")
	tm.WaitFor("50 loaded", 10*time.Second)
	tm.Send("2")
	tm.WaitFor("Quote builder", 5*time.Second)

	// BRL/PIX → BRLA/POLYGON, I send 500, as in TestE2EQuoteToPaidTicket.
	tm.Send("e")
	down(tm, 3)
	tm.Send("Right")
	tm.WaitFor("POLYGON", 2*time.Second)
	down(tm, 2)
	tm.Type("500")
	tm.WaitFor("understood: 500.00 BRL you send", 2*time.Second)
	quoteToDetails(tm)
	tm.Send("Tab", "Tab", "Tab")
	tm.WaitFor("E2E Cold Wallet", 10*time.Second)
	tm.Type("cold")
	tm.WaitGone("Own service wallet", 3*time.Second)
	tm.Send("Enter")
	s := tm.WaitFor("Confirm the ticket", 5*time.Second)
	m := externalIDRe.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no external id on the confirmation:\n%s", s)
	}
	ext := m[1]
	tm.Send("y")
	tm.WaitFor("Ticket created", 15*time.Second)

	// Wide enough for the External ID column to show whole.
	tm.Resize(160, 32)
	tm.Send("3")
	tm.WaitFor("External ID", 5*time.Second)
	tm.WaitUntil("the new ticket "+ext+" as the top row of Tickets", 10*time.Second, func(s string) bool {
		return strings.Contains(firstRowAfter(s, "ID", "Status", "External ID"), ext)
	})
	tm.Send("1")
	tm.WaitFor("Latest tickets", 5*time.Second)
	// The Overview reloads on the same change; its answer may come a moment
	// after the Tickets screen's.
	tm.WaitUntil("the new ticket as the top row of the Overview", 10*time.Second, func(s string) bool {
		return strings.Contains(firstRowAfter(s, "Created", "Status", "Sends", "Receives"), "500.00 BRL")
	})
}
