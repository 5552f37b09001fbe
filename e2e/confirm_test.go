package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// lineOf is the index of the first line of screen containing text, or -1.
func lineOf(screen, text string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return i
		}
	}
	return -1
}

// lastLineOf is the index of the last line before line end containing
// text, or -1.
func lastLineOf(screen, text string, end int) int {
	ls := strings.Split(screen, "\n")
	for i := min(end, len(ls)) - 1; i >= 0; i-- {
		if strings.Contains(ls[i], text) {
			return i
		}
	}
	return -1
}

// pixKeyRe reads the beneficiary's key off the confirmation.
var pixKeyRe = regexp.MustCompile(`PIX key [^ ]+`)

// TestE2EConfirmationPinsTheBeneficiaryKeyAboveY: a PIX payout to a
// registered beneficiary, confirmed at 80×24 then at 40×12: the amounts,
// the key the money goes to and its holder sit right above the y line at
// both sizes.
func TestE2EConfirmationPinsTheBeneficiaryKeyAboveY(t *testing.T) {
	tm := openQuote(t, "operator")
	tm.Resize(80, 24)
	pixFromBalance(tm, "300")
	quoteToDetails(tm)
	tm.WaitFor("PIX key", 10*time.Second) // the picker, focused, lists them
	tm.Send("Enter")                      // the first beneficiary
	tm.Send("C-s")
	s := tm.WaitFor("y: create the ticket", 10*time.Second)
	key := pixKeyRe.FindString(s)
	if key == "" {
		t.Fatalf("no PIX key on the confirmation:\n%s", s)
	}
	s = tm.WaitFor("Holder", 10*time.Second)
	check := func(size string, s string) {
		t.Helper()
		y := lineOf(s, "y: create the ticket")
		for _, want := range []string{"300.000000 BRLA", " BRL ", key, "Holder", "SANDBOX"} {
			i := lastLineOf(s, want, y)
			if i < 0 || y-i > 8 {
				t.Fatalf("%s: %q is not in the summary right above y (line %d, y at %d):\n%s", size, want, i, y, s)
			}
		}
	}
	check("80x24", s)

	tm.Resize(40, 12)
	s = tm.WaitUntil("the confirmation redrawn at 40 columns", 5*time.Second, func(s string) bool {
		return strings.Contains(s, "Send ") && strings.Contains(s, "to read before y")
	})
	if !strings.Contains(s, "more ↓") {
		t.Fatalf("40x12: the details scroll but no marker says so:\n%s", s)
	}
	// y waits until every line was read: paged through, the summary is
	// still right above it.
	for range 20 {
		if strings.Contains(tm.Screen(), "y: create the ticket") {
			break
		}
		tm.Send("PageDown")
		time.Sleep(150 * time.Millisecond)
	}
	s = tm.WaitFor("y: create the ticket", 5*time.Second)
	check("40x12", s)
}

// extRe reads the external id off the details step.
var extRe = regexp.MustCompile(`External id\s+([0-9a-f-]{36})`)

// TestE2EQOnTheDetailsLeavesTheExternalIDAlone: q and digits typed on the
// ticket details, even on the external id itself, neither quit nor change
// the id the ticket is sent with.
func TestE2EQOnTheDetailsLeavesTheExternalIDAlone(t *testing.T) {
	tm := openQuote(t, "operator")
	tm.Send("e")
	down(tm, 5)
	tm.Type("120")
	s := quoteToDetails(tm)
	m := extRe.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no external id on the details:\n%s", s)
	}
	ext := m[1]
	tm.Type("q7")   // where the focus starts: the remitter id
	tm.Send("BTab") // up to the external id
	tm.Type("q9")
	tm.WaitFor("Remitter id      q7", 5*time.Second)
	if exited, _ := tm.Exited(); exited {
		t.Fatal("q on the details quit the dashboard")
	}
	tm.Send("C-s")
	s = tm.WaitFor("Confirm the ticket", 5*time.Second)
	if !strings.Contains(s, "External id    "+ext) {
		t.Fatalf("the external id changed from %s:\n%s", ext, s)
	}
}

// TestE2ERequesterScreenFollowsToPaid: the requester confirms, is told the
// ticket goes for approval, and then, without another key, watches two
// approvers approve it, its ticket appear and get paid.
func TestE2ERequesterScreenFollowsToPaid(t *testing.T) {
	var sb *sandbox.Running
	tm := openQuote(t, "requester", func(r *sandbox.Running) { sb = r })
	tm.Send("e")
	down(tm, 5)
	tm.Type("321")
	quoteToDetails(tm)
	tm.Send("C-s")
	tm.WaitFor("y: send for approval", 10*time.Second)
	tm.Send("y")
	s := tm.WaitFor("Sent for approval", 15*time.Second)
	id := opRe.FindString(s[strings.Index(s, "Operation"):])
	op, err := uuid.Parse(id)
	if err != nil {
		t.Fatalf("no operation id on the requester's screen:\n%s", s)
	}
	tm.WaitFor("0/2", 5*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := clientAs(t, sb, "approver1").ApproveOperation(ctx, op); err != nil {
		t.Fatalf("approver1: %v", err)
	}
	tm.WaitFor("1/2", 10*time.Second)
	tm.WaitFor("approved · 1/2", 5*time.Second)
	if _, err := clientAs(t, sb, "approver2").ApproveOperation(ctx, op); err != nil {
		t.Fatalf("approver2: %v", err)
	}
	s = tm.WaitFor("Approved: ticket created", 15*time.Second)
	if !strings.Contains(s, "EXECUTED") {
		t.Fatalf("the executed operation is not named:\n%s", s)
	}
	// A PIX of 321 BRL funds itself in the sandbox; the status follows.
	tm.WaitFor("✓ PAID", 90*time.Second)
}
