package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/journal"
)

// opRe reads the operation id off the quote screen's "sent for approval".
var opRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// parkForApproval prices amount BRL (the quote builder's default pair) as
// access, confirms it, and returns the id of the operation the service
// parked (the access is an operationRequester). The TUI quits afterwards.
func parkForApproval(t *testing.T, creds, access, amount string) string {
	t.Helper()
	tm := openAs(t, creds, access)
	id := parkOn(t, tm, amount)
	tm.Send("q")
	return id
}

// parkOn prices amount BRL on the open dashboard tm of a requester,
// confirms it, and returns the id of the operation the service parked.
func parkOn(t *testing.T, tm *Term, amount string) string {
	t.Helper()
	tm.Send("2")
	tm.WaitFor("Quote builder", 5*time.Second)
	tm.Send("e")
	for range 5 {
		tm.Send("Down")
	}
	tm.Type(amount)
	quoteToDetails(tm)
	tm.Send("C-s") // nothing on the details must be filled: review at once
	tm.WaitFor("Confirm the ticket", 5*time.Second)
	tm.Send("y")
	s := tm.WaitFor("Sent for approval", 15*time.Second)
	i := strings.Index(s, "Sent for approval")
	id := opRe.FindString(s[i:])
	if id == "" {
		t.Fatalf("no operation id after %q:\n%s", "Sent for approval", s)
	}
	return id
}

// openInbox starts the dashboard as access on the Approvals screen with the
// inbox filtered down to the operations of amount.
func openInbox(t *testing.T, creds, access, amount string) *Term {
	t.Helper()
	tm := openAs(t, creds, access)
	inboxOn(tm, amount+" BRL")
	tm.WaitFor("filter: "+amount, 5*time.Second)
	return tm
}

// inboxOn shows the Approvals screen of tm with the inbox filtered down
// to what matches filter.
func inboxOn(tm *Term, filter string) {
	tm.t.Helper()
	tm.Send("4")
	tm.WaitFor("pending", 10*time.Second)
	tm.Send("/")
	tm.Type(filter)
	tm.Send("Enter")
}

func readJournal(t *testing.T, tm *Term) []journal.Entry {
	t.Helper()
	es, err := journal.ReadFile(filepath.Join(tm.State, "journal.jsonl"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("read journal: %v", err)
	}
	return es
}

// TestE2EMultiSignatureJourney: one sandbox, several dashboards. The
// requester parks a ticket; approver1 approves it (1/2); approver2 approves
// it, it executes and its ticket opens. approver3 parks one and finds it
// disabled for self-approval; approver1 rejects it with a reason.
func TestE2EMultiSignatureJourney(t *testing.T) {
	_, creds := startSandbox(t)

	opID := parkForApproval(t, creds, "requester", "321")

	a1 := openInbox(t, creds, "approver1", "321.00")
	s := a1.WaitFor("321.00 BRL →", 10*time.Second)
	if !strings.Contains(s, "requester") || !strings.Contains(s, "0/2") {
		t.Fatalf("the parked operation is not in approver1's inbox:\n%s", s)
	}
	a1.Send("Enter")
	s = a1.WaitFor("Approvers", 10*time.Second)
	for _, want := range []string{opID, "requester@", "· waiting", "Sends", "321.00 BRL via PIX", "Receives", "Price         1 BRL = 1.000000 BRLA", "Fees", "Request (payload)"} {
		if !strings.Contains(s, want) {
			t.Errorf("approver1's detail lacks %q", want)
		}
	}
	if t.Failed() {
		t.Fatalf("detail:\n%s", s)
	}
	a1.Send("a")
	s = a1.WaitFor("Approve operation", 5*time.Second)
	for _, want := range []string{"321.00 BRL", "Price then:", "Destination:", "Account:", "SANDBOX", "1 of 2 after yours"} {
		if !strings.Contains(s, want) {
			t.Errorf("the confirmation lacks %q", want)
		}
	}
	if t.Failed() {
		t.Fatalf("confirmation:\n%s", s)
	}
	a1.Send("n") // anything but y cancels
	a1.WaitFor("Cancelled", 5*time.Second)
	a1.Send("a")
	// The box's own body, not its title: the "Cancelled: Approve
	// operation …" toast may still be on screen, and a y sent before the
	// box opens (it opens once the operation is fetched again) is lost.
	a1.WaitFor("1 of 2 after yours", 5*time.Second)
	a1.Send("y")
	a1.WaitFor("1 of 2 approvals", 10*time.Second)
	a1.WaitFor("✓ approved  approver1@", 10*time.Second)
	a1.Send("a") // a second approval by the same approver is refused with why
	a1.WaitFor("already approved", 5*time.Second)

	a2 := openInbox(t, creds, "approver2", "321.00")
	a2.WaitFor("1/2", 10*time.Second)
	a2.Send("a")
	s = a2.WaitFor("? It executes now", 10*time.Second)
	if !strings.Contains(s, "EXECUTES NOW: yours is approval 2 of 2") {
		t.Fatalf("approver2's confirmation does not say it executes:\n%s", s)
	}
	a2.Send("y")
	a2.WaitFor("executed, ticket", 10*time.Second)
	s = a2.WaitFor("✓ EXECUTED: ticket", 10*time.Second)
	ticket := opRe.FindString(s[strings.Index(s, "✓ EXECUTED: ticket"):])
	if ticket == "" {
		t.Fatalf("no ticket id in the toast:\n%s", s)
	}
	a2.WaitFor("EXECUTED", 10*time.Second)
	a2.Send("t")
	a2.WaitFor("Ticket "+ticket, 10*time.Second)
	a2.WaitGone("loading ticket…", 10*time.Second)
	s = a2.Screen()
	if !strings.Contains(s, "321.00") {
		t.Fatalf("the executed ticket is not the approved one:\n%s", s)
	}

	for _, c := range []struct {
		tm     *Term
		action string
	}{{a1, "approve-operation"}, {a2, "approve-operation"}} {
		es := readJournal(t, c.tm)
		if len(es) != 1 || es[0].Action != c.action || es[0].IDs["operationId"] != opID || es[0].Amounts["input"] != "321.00 BRL" {
			t.Fatalf("journal = %+v", es)
		}
	}
	if es := readJournal(t, a2); es[0].IDs["ticketId"] != ticket || !strings.Contains(es[0].Outcome, "executed") {
		t.Fatalf("approver2's journal = %+v", es)
	}

	// approver3 is also a requester: its own request is shown but disabled.
	own := parkForApproval(t, creds, "approver3", "432")
	a3 := openInbox(t, creds, "approver3", "432.00")
	a3.WaitFor("432.00 BRL →", 10*time.Second)
	a3.WaitFor("you requested this operation", 10*time.Second)
	a3.Send("a")
	a3.WaitFor("Cannot approve: you requested this operation", 5*time.Second)
	a3.Send("x")
	a3.WaitFor("Cannot reject: you requested this operation", 5*time.Second)
	if es := readJournal(t, a3); len(es) != 0 {
		t.Fatalf("approver3 journaled a decision on its own request: %+v", es)
	}

	// approver1 rejects approver3's request: a reason is required.
	a1.Send("Escape") // back to the inbox
	a1.WaitFor("pending ·", 5*time.Second)
	a1.Send("r")
	a1.Send("/")
	a1.Send("C-u")
	a1.Type("432.00 BRL")
	a1.Send("Enter")
	a1.WaitFor("432.00 BRL →", 10*time.Second)
	a1.Send("x")
	a1.WaitFor("reason", 5*time.Second)
	a1.Send("Enter") // empty: refused
	a1.WaitFor("a reason is required", 5*time.Second)
	a1.Type("amount above the monthly limit")
	a1.Send("Enter")
	a1.WaitFor("Rejected "+own[:8], 10*time.Second)
	a1.WaitFor("REJECTED by approver1@acme-treasury.example: amount above the monthly limit", 10*time.Second)
	es := readJournal(t, a1)
	if len(es) != 2 || es[1].Action != "reject-operation" || es[1].IDs["operationId"] != own ||
		es[1].Outcome != "rejected: amount above the monthly limit" {
		t.Fatalf("approver1's journal = %+v", es)
	}
}
