package approvals

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// approveBehindTheBack is approver1's approval made on another dashboard:
// made after the inbox loaded, the service has it and this screen's inbox
// does not; made before, the inbox opens on it (deciding).
func approveBehindTheBack(op *api.Operation) {
	op.Approvals++
	op.Approvers[0].HasApproved = true
}

// TestApprovalIsConfirmedOnTheFreshState: approver2's inbox loaded at 0 of
// 2; approver1 approves elsewhere; approver2 presses a without r. The
// operation is fetched again and the confirmation says that this approval
// executes it.
func TestApprovalIsConfirmedOnTheFreshState(t *testing.T) {
	h, svc, theirs := deciding(t, "approver2@example.com", nil)
	if v := h.PlainView(); !strings.Contains(v, "0/2") {
		t.Fatalf("the inbox should show 0/2 before:\n%s", v)
	}
	approveBehindTheBack(theirs)
	gets := svc.Gets
	h.Key("a")
	if svc.Gets != gets+1 {
		t.Fatalf("a did not fetch the operation again (%d fetches)", svc.Gets-gets)
	}
	if len(h.Asks) != 1 {
		t.Fatalf("want one confirmation, got %d (toasts %+v)", len(h.Asks), h.Toasts)
	}
	ask := h.Asks[0]
	first := strings.SplitN(ansi.Strip(ask.Body), "\n", 2)[0]
	if !strings.Contains(first, "EXECUTES NOW: yours is approval 2 of 2") || !strings.Contains(ask.Title, "It executes now") {
		t.Fatalf("the confirmation does not say, first, that this approval executes it:\n%s\n%s", ask.Title, ask.Body)
	}
	if strings.Contains(ask.Body, "1 of 2") || !strings.Contains(ask.Body, "Approved by: approver1@example.com") {
		t.Fatalf("the confirmation is built on the stale state:\n%s", ask.Body)
	}
	h.Run(ask.OnYes)
	if theirs.Status != api.OperationExecuted || !strings.Contains(h.Toasts[len(h.Toasts)-1].Text, "executed") {
		t.Fatalf("status %s, toasts %+v", theirs.Status, h.Toasts)
	}
}

// TestDecisionOnAnOperationDecidedElsewhereIsRefused: rejected by another
// approver since the inbox loaded, it is neither approved nor rejected.
func TestDecisionOnAnOperationDecidedElsewhereIsRefused(t *testing.T) {
	h, _, theirs := deciding(t, "approver2@example.com", nil)
	theirs.Status, theirs.Reason, theirs.RejectedBy = api.OperationRejected, "wrong wallet", "approver1@example.com"
	h.Key("a")
	h.Key("x")
	if len(h.Asks)+len(h.Prompts) != 0 {
		t.Fatalf("a decision was offered on a rejected operation: %d asks, %d prompts", len(h.Asks), len(h.Prompts))
	}
	if len(h.Toasts) != 2 || !strings.Contains(h.Toasts[0].Text, "Cannot approve now: already decided: REJECTED") {
		t.Fatalf("toasts = %+v", h.Toasts)
	}
	if v := h.PlainView(); !strings.Contains(v, "✗ REJECTED by approver1@example.com: wrong wallet") {
		t.Fatalf("who rejected and why is not shown:\n%s", v)
	}
	h.Key("enter")
	h.Screen.SetSize(120, 60)
	v := h.PlainView()
	for _, want := range []string{"Rejected by", "approver1@example.com", "Reason", "wrong wallet", "✗ rejected  approver1@example.com"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
}

// TestRejectionAsksTheReasonOnTheFreshState fetches again before the
// prompt, which states the approvals so far.
func TestRejectionAsksTheReasonOnTheFreshState(t *testing.T) {
	h, _, theirs := deciding(t, "approver2@example.com", nil)
	approveBehindTheBack(theirs)
	h.Key("x")
	if len(h.Prompts) != 1 || !strings.Contains(h.Prompts[0].Title, "1 of 2 approved") {
		t.Fatalf("prompts %+v", h.Prompts)
	}
}

// TestInboxFollowsWhileShownAndBehindOtherScreens: every 5 s while shown,
// every 30 s behind another screen; the tab count, the Overview (told by a
// change) and the ages follow, and a new operation is news on any screen.
func TestInboxFollowsWhileShownAndBehindOtherScreens(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	if len(h.Notes) != 0 {
		t.Fatalf("what waited at start was told as news: %+v", h.Notes)
	}
	h.Screen.SetSize(140, 20)
	row := func() string {
		for _, l := range strings.Split(h.PlainView(), "\n") {
			if strings.Contains(l, "1,000.00 BRL") {
				return l
			}
		}
		return ""
	}
	if !strings.Contains(row(), " 5m ") {
		t.Fatalf("age: %q", row())
	}
	parked := newOp("requester@example.com", "42", 0)
	svc.AddOp(parked)
	h.Advance(visibleEvery)
	if h.Screen.Title() != "Approvals (3)" {
		t.Fatalf("shown, the inbox did not reload within 5 s: %q", h.Screen.Title())
	}
	if len(h.Notes) != 1 || !strings.Contains(h.Notes[0].Text, "requester@example.com") {
		t.Fatalf("the new operation is not news: %+v", h.Notes)
	}
	if len(h.Changes) != 1 || h.Changes[0].What != ui.ChangedOperations || h.Changes[0].By != "approvals" {
		t.Fatalf("the Overview is not told the pending count changed: %+v", h.Changes)
	}

	// Behind another screen: nothing for 25 s, then within 30 s.
	h.Send(ui.ShownMsg{Screen: "tickets"})
	lists := svc.Lists
	mine := newOp("approver1@example.com", "9", 0) // its own request is no news
	svc.AddOp(mine)
	svc.AddOp(newOp("requester2@example.com", "13", 0))
	h.Advance(25 * time.Second)
	if svc.Lists != lists || h.Screen.Title() != "Approvals (3)" {
		t.Fatalf("behind another screen the inbox reloaded within 25 s (%d lists)", svc.Lists-lists)
	}
	h.Advance(5 * time.Second)
	if h.Screen.Title() != "Approvals (5)" {
		t.Fatalf("behind another screen the inbox did not reload within 30 s: %q", h.Screen.Title())
	}
	if len(h.Notes) != 2 || !strings.Contains(h.Notes[1].Text, "requester2@example.com") {
		t.Fatalf("notes %+v: want one for requester2's operation, none for its own", h.Notes)
	}
	h.Advance(70 * time.Second)
	if !strings.Contains(row(), " 6m ") {
		t.Fatalf("the age did not tick: %q", row())
	}
	// Shown again 10 s after the last load: loaded at once, then every 5 s.
	lists = svc.Lists
	h.Send(ui.ShownMsg{Screen: "approvals"})
	if svc.Lists == lists {
		t.Fatal("shown again, the inbox was not reloaded at once")
	}
	approveBehindTheBack(theirs)
	h.Advance(visibleEvery)
	if !strings.Contains(row(), "1/2") {
		t.Fatalf("an approval elsewhere did not show within 5 s: %q", row())
	}
	// The slow loop's last timer fires and stops; one loop is left.
	h.Advance(backgroundEvery)
	if h.Pending() != 1 {
		t.Fatalf("%d timers wait, want one poll loop", h.Pending())
	}
}

// TestBatchApprovalOfThree selects three operations with space; one
// confirmation lists each with its destination and whether this approval
// executes it, with totals per currency; only its yes approves, each one
// journalled on its own line.
func TestBatchApprovalOfThree(t *testing.T) {
	svc, theirs, _, _ := inbox()
	second := newOp("requester@example.com", "250", time.Minute)
	third := newOp("requester@example.com", "10.5", time.Minute)
	third.DecodedQuote = quoteJSON("10.5", "2", "USDC", "BRL")
	third.Payload = json.RawMessage(`{"quoteToken":"t","ticketBrlPixOutput":{"pixKey":"maria@example.com"}}`)
	third.Beneficiary = nil
	svc.AddOp(second)
	svc.AddOp(third)
	h := newHarness(t, svc, "approver2@example.com", approver)
	for _, op := range []*api.Operation{theirs, second, third} {
		h.selectOp(op.ID)
		h.Key("space")
	}
	if v := h.PlainView(); !strings.Contains(v, "3 selected") || strings.Count(v, "●") != 3 {
		t.Fatalf("the selection is not shown:\n%s", v)
	}
	approveBehindTheBack(second) // so approver2's approval executes it
	gets := svc.Gets
	h.Key("a")
	if svc.Gets-gets != 3 || len(h.Asks) != 1 {
		t.Fatalf("%d fresh fetches, %d confirmations; want 3 and 1", svc.Gets-gets, len(h.Asks))
	}
	ask := h.Asks[0]
	body := ansi.Strip(ask.Body)
	for _, want := range []string{
		"3 approvals · 1 execute a ticket now",
		"Sends:    1,250.00 BRL + 10.500000 USDC",
		"Receives: 2.00 BRL + 362.469000 USDC",
		short(theirs.ID.String()) + " 1,000.00 BRL → 181.234500 USDC · 1 BRL = 0.182300 USDC · POLYGON to cold wallet · 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed on POLYGON · Matriz · 1 of 2 after yours",
		short(second.ID.String()) + " 250.00 BRL → 181.234500 USDC",
		"▶ EXECUTES NOW (2 of 2)",
		"PIX to PIX key maria@example.com",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("confirmation lacks %q", want)
		}
	}
	if !strings.Contains(ask.Title, "Approve 3 operations? 1 execute now") {
		t.Errorf("title %q", ask.Title)
	}
	if t.Failed() {
		t.Fatal(body)
	}
	if len(svc.Approved) != 0 {
		t.Fatal("approved before the confirmation")
	}
	h.Run(ask.OnYes)
	if len(svc.Approved) != 3 || second.Status != api.OperationExecuted {
		t.Fatalf("approved %v, second %s", svc.Approved, second.Status)
	}
	es := h.Journal()
	if len(es) != 3 {
		t.Fatalf("%d journal lines, want one per approval", len(es))
	}
	for i, op := range []*api.Operation{theirs, second, third} {
		if es[i].IDs["operationId"] != op.ID.String() || es[i].Action != "approve-operation" {
			t.Errorf("journal line %d = %+v", i, es[i])
		}
	}
	if es[1].Outcome != "approved; executed" || es[1].IDs["ticketId"] != second.ExecutedID {
		t.Errorf("the executing approval's line: %+v", es[1])
	}
	last := h.Toasts[len(h.Toasts)-1].Text
	if !strings.Contains(last, "Approved 3 operations: 1 executed, 2 wait for more approvals") {
		t.Fatalf("toast %q", last)
	}
	if v := h.PlainView(); strings.Contains(v, "selected") {
		t.Fatalf("the selection outlived the approval:\n%s", v)
	}
}

// TestBatchLeavesOutWhatWasDecidedElsewhere: one of the selected was
// rejected since; the confirmation names it and approves the others.
func TestBatchLeavesOutWhatWasDecidedElsewhere(t *testing.T) {
	svc, theirs, _, _ := inbox()
	second := newOp("requester@example.com", "250", time.Minute)
	svc.AddOp(second)
	h := newHarness(t, svc, "approver1@example.com", approver)
	for _, op := range []*api.Operation{theirs, second} {
		h.selectOp(op.ID)
		h.Key("space")
	}
	second.Status = api.OperationRejected
	h.Key("a")
	if len(h.Asks) != 1 || !strings.Contains(h.Asks[0].Body, "Left out: "+short(second.ID.String())+": already decided: REJECTED") {
		t.Fatalf("asks %+v", h.Asks)
	}
	h.Run(h.Asks[0].OnYes)
	if len(svc.Approved) != 1 || svc.Approved[0] != theirs.ID {
		t.Fatalf("approved %v", svc.Approved)
	}
}

func TestOwnAndDecidedOperationsCannotBeSelected(t *testing.T) {
	svc, _, mine, done := inbox()
	h := newHarness(t, svc, "approver3@example.com", approver)
	for _, op := range []*api.Operation{mine, done} {
		h.selectOp(op.ID)
		h.Key("space")
	}
	if len(h.screen().marked) != 0 || len(h.Toasts) != 2 || !strings.Contains(h.Toasts[0].Text, "Cannot select it") {
		t.Fatalf("marked %v, toasts %+v", h.screen().marked, h.Toasts)
	}
}

func withQuote(op *api.Operation, inMethod, outMethod, outCur string) {
	op.DecodedQuote = json.RawMessage(`{"inputCurrency":"BRLA","inputPaymentMethod":"` + inMethod + `","inputAmount":"100",
		"outputCurrency":"` + outCur + `","outputPaymentMethod":"` + outMethod + `","outputAmount":"99","basePrice":"1","pairName":"BRLA` + outCur + `"}`)
}

// TestDestinationComesFromTheRequest derives where the money goes from the
// parked request's output block and the quote's output method, with the
// beneficiary record when there is one.
func TestDestinationComesFromTheRequest(t *testing.T) {
	id := uuid.NewString()
	cases := []struct {
		name, payload, beneficiary, outMethod, outCur string
		want                                          string
	}{
		{"inline PIX key, INTERNAL input, no record", `{"ticketBrlPixOutput":{"pixKey":"+5511987654321"}}`, "", "PIX", "BRL",
			"PIX to PIX key +5511987654321"},
		{"registered BRL account", `{"ticketBrlPixOutput":{"beneficiaryBrlBankAccountId":"` + id + `"}}`,
			`{"kind":"BRL","alias":"maria","userName":"Maria Silva","pixKey":"maria@example.com"}`, "PIX", "BRL",
			"PIX to Maria Silva · PIX key maria@example.com"},
		{"BR Code", `{"ticketBrlPixOutput":{"brCode":"00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"}}`, "", "PIX", "BRL",
			"PIX to BR Code 00020126580014br.gov…63041D3D"},
		{"bank fields", `{"ticketBrlPixOutput":{"taxId":"52998224725","userName":"João","bankCode":"001","branchCode":"1234","accountNumber":"99999-9","accountType":"CHECKING"}}`, "", "PIX", "BRL",
			"PIX to João · bank 001 branch 1234 account 99999-9 · tax id 52998224725"},
		{"inline wallet", `{"ticketBlockchainOutput":{"walletChain":"CELO","walletAddress":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}}`, "", "CELO", "USDC",
			"CELO to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed on CELO"},
		{"own wallet on a chain", `{"ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}}`,
			`{"kind":"OWN_WALLET","walletAddress":"0xAbC","walletChain":"POLYGON"}`, "POLYGON", "USDC",
			"POLYGON to the account's own wallet · 0xAbC on POLYGON"},
		{"INTERNAL with the nil wallet", `{"ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}}`, "", "INTERNAL", "USDC",
			"stays in the account (INTERNAL: credited to Matriz (main account))"},
		{"INTERNAL without a block", `{"quoteToken":"x"}`, "", "INTERNAL", "USDC",
			"stays in the account (INTERNAL: credited to Matriz (main account))"},
		{"PIX without a block", `{"quoteToken":"x"}`, "", "PIX", "BRL",
			"not named by the request (PIX output): check the payload below"},
		{"USD wire with its record", `{"ticketUsdWireOutput":{"beneficiaryUsdBankAccountId":"` + id + `"}}`,
			`{"kind":"USD","alias":"acme","beneficiaryName":"Acme Inc","bankAccountNumber":"123456789"}`, "WIRE", "USD",
			"USD WIRE to Acme Inc · account 123456789"},
		{"EUR SEPA without its record", `{"ticketEurSepaOutput":{"beneficiaryEurBankAccountId":"` + id + `"}}`, "", "SEPA", "EUR",
			"EUR SEPA to registered beneficiary " + id},
		{"ARS CVU with its record", `{"ticketArsOutput":{"beneficiaryArsBankAccountId":"` + id + `"}}`,
			`{"alias":"proveedor","cvu":"0000003100010000000001"}`, "CVU", "ARS", "ARS CVU to proveedor · CVU 0000003100010000000001"},
	}
	for _, tc := range cases {
		op := newOp("requester@example.com", "100", time.Minute)
		op.Payload, op.Beneficiary = json.RawMessage(tc.payload), nil
		if tc.beneficiary != "" {
			op.Beneficiary = json.RawMessage(tc.beneficiary)
		}
		withQuote(op, "INTERNAL", tc.outMethod, tc.outCur)
		if got := destinationOf(*op, decodeQuote(op.DecodedQuote)).Line(*op); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestPixPayoutWithoutARecordIsNeverShownAsStaying is the case found on
// the sandbox: a PIX key paid from the BRLA balance (INTERNAL → PIX), no
// beneficiary record. The inbox, the detail and the confirmation name the
// key.
func TestPixPayoutWithoutARecordIsNeverShownAsStaying(t *testing.T) {
	svc, theirs, _, _ := inbox()
	theirs.Payload = json.RawMessage(`{"quoteToken":"t","ticketBrlPixOutput":{"pixKey":"maria@example.com"}}`)
	theirs.Beneficiary = nil
	withQuote(theirs, "INTERNAL", "PIX", "BRL")
	h := newHarness(t, svc, "approver1@example.com", approver)
	h.Screen.SetSize(140, 20)
	if v := h.PlainView(); !strings.Contains(v, "PIX key maria@") {
		t.Errorf("the inbox does not name the key:\n%s", v)
	}
	h.selectOp(theirs.ID)
	h.Key("enter")
	h.Screen.SetSize(140, 60)
	if v := h.PlainView(); !strings.Contains(v, "Destination   PIX to PIX key maria@example.com") || strings.Contains(v, "stays") {
		t.Errorf("the detail:\n%s", v)
	}
	h.Key("a")
	if b := h.Asks[0].Body; !strings.Contains(b, "Destination: PIX to PIX key maria@example.com") || strings.Contains(b, "stays") {
		t.Errorf("the confirmation:\n%s", b)
	}
}

// TestShownAgainAtOnceIsNotLoadedTwice: leaving the screen and coming back
// right after a load does not ask for the whole inbox again.
func TestShownAgainAtOnceIsNotLoadedTwice(t *testing.T) {
	svc, _, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	lists := svc.Lists
	h.Send(ui.ShownMsg{Screen: "overview"})
	h.Advance(time.Second)
	h.Send(ui.ShownMsg{Screen: "approvals"})
	if svc.Lists != lists {
		t.Fatalf("the inbox was asked for again %d times", svc.Lists-lists)
	}
	h.Advance(visibleEvery)
	if svc.Lists == lists {
		t.Fatal("shown, the inbox did not reload within 5 s")
	}
}

// TestSelectAllShownTakesOnlyWhatCanBeApproved: * selects the operations
// the filter shows that this approver may approve, as a batch of payouts
// parks them; * again unselects them.
func TestSelectAllShownTakesOnlyWhatCanBeApproved(t *testing.T) {
	svc, theirs, mine, _ := inbox()
	other := newOp("requester@example.com", "77", time.Minute)
	svc.AddOp(other)
	h := newHarness(t, svc, "approver3@example.com", approver)
	h.Key("*")
	m := h.screen()
	if len(m.marked) != 2 || !m.marked[theirs.ID.String()] || !m.marked[other.ID.String()] || m.marked[mine.ID.String()] {
		t.Fatalf("marked %v: want the two pending operations of others", m.marked)
	}
	h.Key("*")
	if len(m.marked) != 0 {
		t.Fatalf("* again left %v selected", m.marked)
	}
	h.Send(ui.FilterMsg{Query: "77.00"})
	h.Key("*")
	if len(m.marked) != 1 || !m.marked[other.ID.String()] {
		t.Fatalf("with a filter, marked %v: want only the operation shown", m.marked)
	}
}

// TestTheFreshFetchIsShownWhileItRuns: between a and the confirmation the
// screen says it is fetching the operation, and nothing is asked yet.
func TestTheFreshFetchIsShownWhileItRuns(t *testing.T) {
	h, _, theirs := deciding(t, "approver1@example.com", nil)
	m := h.screen()
	fetch := m.approve(m.item(theirs.ID.String()))
	if v := h.PlainView(); !strings.Contains(v, "fetching the latest state before asking you to confirm") || len(h.Asks) != 0 {
		t.Fatalf("while the fetch runs:\n%s", v)
	}
	h.Run(fetch)
	if len(h.Asks) != 1 || strings.Contains(h.PlainView(), "fetching the latest state") {
		t.Fatalf("after the fetch: %d asks\n%s", len(h.Asks), h.PlainView())
	}
}
