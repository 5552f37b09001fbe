package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestE2EApprovalOnTheLiveState: approver2's dashboard runs on the
// Overview when the requester parks an operation: the news reaches it there
// (the inbox polls behind other screens). approver2 opens the inbox at 0/2;
// approver1 approves behind its back; approver2 presses a without r and the
// confirmation, built on the operation fetched again, says that this
// approval executes it.
func TestE2EApprovalOnTheLiveState(t *testing.T) {
	_, creds := startSandbox(t)

	a2 := openAs(t, creds, "approver2")
	a2.WaitFor("Appr (4)", 15*time.Second) // the inbox is watched from the start
	a2.WaitFor("4 pending", 15*time.Second)

	opID := parkForApproval(t, creds, "requester", "654")
	s := a2.WaitFor("New operation to approve from requester@", 45*time.Second)
	if !strings.Contains(s, "Balances") {
		t.Fatalf("the news did not reach approver2 on the Overview:\n%s", s)
	}
	a2.WaitFor("Appr (5)", 5*time.Second)
	a2.WaitFor("5 pending", 10*time.Second) // the Overview's count follows

	a2.Send("4")
	a2.WaitFor("pending ·", 10*time.Second)
	a2.Send("/")
	a2.Type("654.00 BRL")
	a2.Send("Enter")
	s = a2.WaitFor("654.00 BRL →", 10*time.Second)
	if !strings.Contains(s, "0/2") {
		t.Fatalf("approver2's inbox should show 0/2 before approver1 approves:\n%s", s)
	}

	a1 := openInbox(t, creds, "approver1", "654.00")
	a1.WaitFor("654.00 BRL →", 10*time.Second)
	a1.Send("a")
	s = a1.WaitFor("Approve operation "+opID[:8], 10*time.Second)
	if !strings.Contains(s, "1 of 2 after yours") {
		t.Fatalf("approver1's confirmation:\n%s", s)
	}
	a1.Send("y")
	a1.WaitFor("1 of 2 approvals", 10*time.Second)

	a2.Send("a") // no r
	s = a2.WaitFor("Approve "+opID[:8]+"? It executes now", 10*time.Second)
	for _, want := range []string{"EXECUTES NOW: yours is approval 2 of 2", "Approved by: approver1@", "Destination:", "654.00 BRL"} {
		if !strings.Contains(s, want) {
			t.Errorf("approver2's confirmation lacks %q", want)
		}
	}
	if strings.Contains(s, "1 of 2") {
		t.Errorf("approver2's confirmation counts on the stale state")
	}
	if t.Failed() {
		t.Fatalf("confirmation:\n%s", s)
	}
	a2.Send("y")
	a2.WaitFor("executed, ticket", 10*time.Second)
	es := readJournal(t, a2)
	if len(es) != 1 || es[0].IDs["operationId"] != opID || es[0].Outcome != "approved; executed" {
		t.Fatalf("approver2's journal = %+v", es)
	}
}

// TestE2EBatchApprovalOfThree: three operations parked; approver1 selects
// them with space and approves them behind one confirmation (none executes
// yet); approver2 does the same and all three execute. Each approval is a
// journal line of its own.
func TestE2EBatchApprovalOfThree(t *testing.T) {
	_, creds := startSandbox(t)
	amounts := []string{"717", "727", "737"}
	ids := map[string]string{}
	for _, a := range amounts {
		ids[a] = parkForApproval(t, creds, "requester", a)
	}

	for _, c := range []struct {
		access, head, title string
	}{
		{"approver1", "3 approvals · 0 execute a ticket now", "Approve 3 operations?"},
		{"approver2", "3 approvals · 3 execute a ticket now", "Approve 3 operations? 3 execute now"},
	} {
		tm := openInbox(t, creds, c.access, "7.00") // matches 717.00, 727.00, 737.00 BRL only
		tm.WaitUntil("the three operations", 10*time.Second, func(s string) bool {
			return strings.Contains(s, "717.00 BRL") && strings.Contains(s, "727.00 BRL") && strings.Contains(s, "737.00 BRL")
		})
		tm.Send("g", "Space", "Down", "Space", "Down", "Space")
		tm.WaitFor("3 selected", 5*time.Second)
		tm.Send("a")
		s := tm.WaitFor(c.title, 10*time.Second)
		for _, want := range []string{c.head, "Sends:", "2,181.00 BRL", "Receives:", "717.00 BRL", "727.00 BRL", "737.00 BRL",
			ids["717"][:8], ids["727"][:8], ids["737"][:8]} {
			if !strings.Contains(s, want) {
				t.Errorf("%s's confirmation lacks %q", c.access, want)
			}
		}
		if t.Failed() {
			t.Fatalf("confirmation:\n%s", s)
		}
		tm.Send("y")
		tm.WaitFor("Approved 3 operations", 15*time.Second)
		es := readJournal(t, tm)
		if len(es) != 3 {
			t.Fatalf("%s journalled %d lines, want one per approval: %+v", c.access, len(es), es)
		}
		seen := map[string]bool{}
		for _, e := range es {
			seen[e.IDs["operationId"]] = true
			if e.Action != "approve-operation" {
				t.Errorf("journal line %+v", e)
			}
			if c.access == "approver2" && (e.Outcome != "approved; executed" || e.IDs["ticketId"] == "") {
				t.Errorf("approver2's line does not name the executed ticket: %+v", e)
			}
		}
		for a, id := range ids {
			if !seen[id] {
				t.Errorf("no journal line for the operation of %s BRL", a)
			}
		}
	}
}
