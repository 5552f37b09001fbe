package approvals

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

func (h harness) approve(id uuid.UUID) {
	h.T.Helper()
	h.selectOp(id)
	h.Asks = nil
	h.Key("a")
	if len(h.Asks) != 1 {
		h.T.Fatalf("no confirmation (toasts %+v)", h.Toasts)
	}
	h.Run(h.Asks[0].OnYes)
}

func TestExecutingApprovalTellsTicketsAndBalances(t *testing.T) {
	h, _, theirs := deciding(t, "approver2@example.com", approveBehindTheBack)
	h.approve(theirs.ID)
	ch := h.Changes
	if len(ch) != 1 {
		t.Fatalf("%d change messages, want 1: %+v", len(ch), ch)
	}
	want := ui.ChangedOperations | ui.ChangedTickets | ui.ChangedBalances
	if ch[0].What != want || ch[0].Account != uuid.Nil || ch[0].By != "approvals" {
		t.Fatalf("change %+v, want operations, tickets and balances of the main account", ch[0])
	}
}

func TestApprovalOfASubAccountTellsThatAccount(t *testing.T) {
	svc, theirs, _, _ := inbox()
	sub := uuid.New()
	theirs.SubAccountID, theirs.SubAccountName = sub.String(), "Filial"
	h := newHarness(t, svc, "approver1@example.com", approver)
	h.approve(theirs.ID)
	ch := h.Changes
	if len(ch) != 1 || ch[0].Account != sub || ch[0].What != ui.ChangedOperations {
		t.Fatalf("changes %+v, want the operations of %s only (1 of 2: nothing executed)", ch, sub)
	}
}

func TestRefusedDecisionTellsNobody(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	h.screen().table.Select(theirs.ID.String())
	h.Key("a")
	// Decided by someone else while the confirmation was up.
	theirs.Status = api.OperationRejected
	h.Run(h.Asks[0].OnYes)
	if len(h.Changes) != 0 {
		t.Fatalf("a refused approval sent %+v", h.Changes)
	}
}

func TestOperationParkedElsewhereShowsKeepingTheCursor(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	m := h.screen()
	m.table.Select(theirs.ID.String())
	h.Key("enter") // the detail of theirs stays open
	parked := newOp("requester@example.com", "42", time.Minute)
	svc.AddOp(parked)

	h.Send(ui.ChangedMsg{Account: uuid.New(), What: ui.ChangedOperations, By: "quote"})
	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedOperations, By: "approvals"})
	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets, By: "quote"})
	if m.item(parked.ID.String()) != nil {
		t.Fatal("reloaded for another account, for its own write, or for tickets")
	}
	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedOperations, By: "quote"})
	if m.item(parked.ID.String()) == nil {
		t.Fatal("the operation parked by the Quote screen is not in the inbox")
	}
	if m.open != theirs.ID.String() {
		t.Fatal("the open detail was closed")
	}
	if cur, _ := m.table.Selected(); cur == nil || cur.op.ID != theirs.ID {
		t.Fatalf("the cursor moved to %v", cur)
	}
	if h.Screen.Title() != "Approvals (3)" {
		t.Fatalf("title %q, want the new pending count", h.Screen.Title())
	}
}
