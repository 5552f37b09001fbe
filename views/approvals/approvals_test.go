package approvals

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

var approver = api.Permissions{OperationApprover: true}

func inbox() (*fakeservice.Service, *api.Operation, *api.Operation, *api.Operation) {
	theirs := newOp("requester@example.com", "1000", 5*time.Minute)
	mine := newOp("approver3@example.com", "250.5", 2*time.Hour)
	done := newOp("requester@example.com", "80", 30*time.Hour)
	done.Status, done.Approvals, done.ExecutedID = api.OperationExecuted, 2, uuid.NewString()
	return &fakeservice.Service{Ops: []*api.Operation{theirs, done, mine}}, theirs, mine, done
}

func TestInboxListsEveryPageWithPendingCountAmountsAndOwnDisabled(t *testing.T) {
	svc, theirs, mine, _ := inbox()
	h := newHarness(t, svc, "approver3@example.com", approver)
	if got := h.Screen.Title(); got != "Approvals (2)" {
		t.Fatalf("title = %q, want the pending count 2", got)
	}
	v := h.PlainView()
	for _, want := range []string{"1,000.00 BRL → 181.234500 USDC", "250.50 BRL", "cold wallet", "0/2", "5m", "Matriz", "EXECUTED"} {
		if !strings.Contains(v, want) {
			t.Errorf("inbox lacks %q:\n%s", want, v)
		}
	}
	rows := map[string]bool{}
	for _, r := range h.screen().table.VisibleRows() {
		rows[r.ID] = r.Disabled
	}
	if !rows[mine.ID.String()] || rows[theirs.ID.String()] {
		t.Fatalf("own request must be the disabled row: %v", rows)
	}
}

func TestApproveAsksFirstRepeatingWhatIsApprovedThenJournals(t *testing.T) {
	h, svc, theirs := deciding(t, "approver1@example.com", nil)
	h.Key("a")
	if len(h.Asks) != 1 {
		t.Fatalf("want one confirmation, got %d (toasts %+v)", len(h.Asks), h.Toasts)
	}
	if len(svc.Approved) != 0 {
		t.Fatal("approved before the confirmation")
	}
	ask := h.Asks[0]
	for _, want := range []string{"1,000.00 BRL → 181.234500 USDC", "Price then:  1 BRL = 0.182300 USDC", "PIX → POLYGON", "cold wallet",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "Matriz", "Conversion Fee 5.00 BRL", "Gas Fee 0.250000 USDC", "SANDBOX"} {
		if !strings.Contains(ask.Body, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, ask.Body)
		}
	}
	h.Run(ask.OnYes)
	if len(svc.Approved) != 1 || svc.Approved[0] != theirs.ID {
		t.Fatalf("approved = %v", svc.Approved)
	}
	es := h.Journal()
	if len(es) != 1 || es[0].Action != "approve-operation" || es[0].IDs["operationId"] != theirs.ID.String() ||
		es[0].Amounts["input"] != "1,000.00 BRL" || es[0].Outcome != "approved (1/2)" || es[0].Account != "main" {
		t.Fatalf("journal = %+v", es)
	}
	if len(h.Toasts) == 0 || !strings.Contains(h.Toasts[len(h.Toasts)-1].Text, "1 of 2") {
		t.Fatalf("toasts = %+v", h.Toasts)
	}
	// Approving again is refused locally: the detail shows this approval.
	h.Asks = nil
	h.Key("a")
	if len(h.Asks) != 0 || !strings.Contains(h.Toasts[len(h.Toasts)-1].Text, "already approved") {
		t.Fatalf("second approval: asks %d, toasts %+v", len(h.Asks), h.Toasts)
	}
}

func TestSecondApprovalExecutesAndTheTicketOpens(t *testing.T) {
	h, _, theirs := deciding(t, "approver2@example.com", approveBehindTheBack)
	h.Key("a")
	if !strings.Contains(h.Asks[0].Body, "EXECUTES NOW: yours is approval 2 of 2") || !strings.Contains(h.Asks[0].Title, "executes now") {
		t.Fatalf("the confirmation should say this approval executes:\n%s", h.Asks[0].Body)
	}
	h.Run(h.Asks[0].OnYes)
	if theirs.Status != api.OperationExecuted {
		t.Fatal("not executed")
	}
	last := h.Toasts[len(h.Toasts)-1].Text
	if !strings.Contains(last, theirs.ExecutedID[:8]) || !strings.Contains(h.PlainView(), "EXECUTED: ticket "+theirs.ExecutedID) {
		t.Fatalf("toast %q lacks the ticket id", last)
	}
	h.selectOp(theirs.ID)
	h.Key("t")
	if len(h.Navs) != 1 || h.Navs[0] != (ui.NavigateMsg{Screen: "tickets", ID: theirs.ExecutedID}) {
		t.Fatalf("navigation = %+v", h.Navs)
	}
	if es := h.Journal(); es[0].Outcome != "approved; executed" || es[0].IDs["ticketId"] != theirs.ExecutedID {
		t.Fatalf("journal = %+v", es)
	}
}

func TestOwnRequestIsShownButCannotBeApproved(t *testing.T) {
	svc, _, mine, _ := inbox()
	h := newHarness(t, svc, "Approver3@Example.com", approver)
	h.selectOp(mine.ID)
	for _, b := range h.Screen.KeyMap() {
		if b.Enabled() && (b.Help().Desc == "approve" || b.Help().Desc == "reject") {
			t.Fatalf("%s is live on the caller's own request", b.Help().Desc)
		}
	}
	h.Key("a")
	if len(h.Asks) != 0 || len(svc.Approved) != 0 {
		t.Fatal("own request offered for approval")
	}
	if len(h.Toasts) != 1 || !strings.Contains(h.Toasts[0].Text, "you requested this operation") {
		t.Fatalf("toasts = %+v", h.Toasts)
	}
	if v := h.PlainView(); !strings.Contains(v, "you requested this operation") {
		t.Fatalf("the reason is not on screen:\n%s", v)
	}
	h.Key("enter")
	if v := h.PlainView(); !strings.Contains(v, "your own request") || !strings.Contains(v, "approver3@example.com (you)") {
		t.Fatalf("detail:\n%s", v)
	}
}

func TestRejectNeedsAReason(t *testing.T) {
	h, svc, theirs := deciding(t, "approver1@example.com", nil)
	h.Key("x")
	if len(h.Prompts) != 1 {
		t.Fatalf("want a prompt for the reason, got %d", len(h.Prompts))
	}
	p := h.Prompts[0]
	if p.Validate("   ") == nil || p.Validate("") == nil {
		t.Fatal("an empty reason is accepted")
	}
	if p.Validate(strings.Repeat("x", 501)) == nil {
		t.Fatal("a reason longer than the service keeps is accepted")
	}
	if err := p.Validate("too expensive"); err != nil {
		t.Fatalf("a reason is refused: %v", err)
	}
	h.Run(p.OnSubmit("  too expensive "))
	if svc.Rejected[theirs.ID] != "too expensive" {
		t.Fatalf("rejected = %v", svc.Rejected)
	}
	es := h.Journal()
	if len(es) != 1 || es[0].Action != "reject-operation" || es[0].Outcome != "rejected: too expensive" {
		t.Fatalf("journal = %+v", es)
	}
	h.selectOp(theirs.ID)
	if v := h.PlainView(); !strings.Contains(v, "REJECTED: too expensive") {
		t.Fatalf("the outcome is not shown:\n%s", v)
	}
	if h.Screen.Title() != "Approvals (1)" {
		t.Fatalf("title = %q after the rejection", h.Screen.Title())
	}
}

func TestDetailShowsApproversQuoteBeneficiaryAndPayload(t *testing.T) {
	h, _, _ := deciding(t, "approver1@example.com", func(op *api.Operation) { op.Approvers[1].HasApproved = true })
	h.Key("enter")
	h.Screen.SetSize(120, 60)
	v := h.PlainView()
	for _, want := range []string{"✓ approved  approver2@example.com", "· waiting   approver1@example.com (you)",
		"Sends", "1,000.00 BRL via PIX", "Price", "1 BRL = 0.182300 USDC", "Inverse", "1 USDC = 5.49 BRL", "walletAddress", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"ticketBlockchainOutput.beneficiaryWalletId", "externalId ext-1", "quoteToken eyJhbGciOiJIUzI1NiJ9…"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q", want)
		}
	}
	// The approvers' e-mails start in one column, whatever their state.
	col := map[int]bool{}
	for _, l := range strings.Split(v, "\n") {
		if i := strings.Index(l, "approver"); i >= 0 && (strings.Contains(l, "waiting") || strings.Contains(l, "approved")) {
			col[ansi.StringWidth(l[:i])] = true
		}
	}
	if len(col) != 1 {
		t.Errorf("approvers' e-mails start at columns %v, want one column", col)
	}
	if t.Failed() {
		t.Log(v)
	}
	h.Key("esc")
	if h.screen().open != "" {
		t.Fatal("esc did not go back to the inbox")
	}
}

func TestNavigateOpensTheOperation(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	h.Send(ui.NavigateMsg{Screen: "approvals", ID: theirs.ID.String()})
	if h.screen().open != theirs.ID.String() {
		t.Fatal("the operation is not open")
	}
	if it := h.screen().current(); it == nil || it.op.ID != theirs.ID {
		t.Fatal("the operation is not selected")
	}
	// One not in the inbox is fetched by id.
	other := newOp("requester@example.com", "9", time.Minute)
	svc.AddOp(other)
	h.Send(ui.NavigateMsg{Screen: "approvals", ID: other.ID.String()})
	if !strings.Contains(h.PlainView(), other.ID.String()) {
		t.Fatalf("navigated operation not shown:\n%s", h.PlainView())
	}
}

func TestNotAnApproverIsToldWithoutAsking(t *testing.T) {
	svc, _, _, _ := inbox()
	h := newHarness(t, svc, "operator@example.com", api.Permissions{PayOut: true})
	if v := h.PlainView(); !strings.Contains(v, "the approval inbox is for approvers, and this access is not one") {
		t.Fatalf("the screen does not say it is for approvers:\n%s", v)
	}
	h.Advance(2 * backgroundEvery)
	h.Key("a", "x", "space")
	if h.screen().loaded || len(h.screen().table.Items()) != 0 || svc.Gets+svc.Lists != 0 || len(h.Asks)+len(h.Prompts) != 0 {
		t.Fatal("a non-approver's screen asked the service for the inbox, or offered a decision")
	}
}

func TestSmallTerminal(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	h.Screen.SetSize(40, 12)
	if v := h.PlainView(); !strings.Contains(v, "1,000.00 BRL") {
		t.Fatalf("a narrow inbox must keep the amount:\n%s", v)
	}
	for _, sz := range [][2]int{{40, 12}, {10, 2}, {1, 1}, {200, 50}} {
		h.Screen.SetSize(sz[0], sz[1])
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.selectOp(theirs.ID)
		h.Key("enter")
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.Key("j", "j", "j")
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.Key("esc")
	}
}

func TestInboxNeverCutsTheAmount(t *testing.T) {
	svc, _, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	for _, w := range []int{70, 80, 90, 99, 100, 140} {
		h.Screen.SetSize(w, 20)
		v := h.PlainView()
		if !strings.Contains(v, "1,000.00 BRL → 181.234500 USDC") {
			t.Errorf("%d columns: the amount is cut:\n%s", w, v)
		}
		// Who asked and how far the approvals are stay in view on a
		// standard 80-column terminal.
		if w >= 80 && (!strings.Contains(v, "requester") || !strings.Contains(v, "0/2")) {
			t.Errorf("%d columns: the requester or the approvals count is missing:\n%s", w, v)
		}
	}
}
