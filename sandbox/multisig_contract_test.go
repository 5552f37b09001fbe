package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// firstBRL is a BRL beneficiary of the account.
func firstBRL(t *testing.T, c *api.Client, sub uuid.UUID) api.BRLAccount {
	t.Helper()
	p := must[api.Page[api.BRLAccount]](t)(c.ListBRLAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub}))
	if len(p.Items) == 0 {
		t.Fatal("the demo account has no BRL beneficiary")
	}
	return p.Items[0]
}

func payoutRequest(t *testing.T, c *api.Client, sub uuid.UUID, amount string) api.CreateTicketRequest {
	t.Helper()
	b := firstBRL(t, c, sub)
	q := must[*api.Quote](t)(c.Quote(ctx(t), api.QuoteRequest{SubAccountID: sub, InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec(amount)}))
	return api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixOutput: api.PixToBeneficiary(b.ID, "invoice 42")}
}

func TestMultiSignatureFlow(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 5})
	req, a1, a2, a3 := e.as("requester"), e.as("approver1"), e.as("approver2"), e.as("approver3")

	res := must[*api.CreateTicketResult](t)(req.CreateTicket(ctx(t), uuid.Nil, payoutRequest(t, req, uuid.Nil, "123.45")))
	if !res.Parked || res.Operation == nil || res.Ticket != nil {
		t.Fatalf("requester's creation was not parked: %+v", res)
	}
	op := res.Operation
	if op.Status != api.OperationPending || op.MinApprovals != 2 || op.OperationType != "CREATE_TICKET" || op.RequesterEmail != e.cred("requester").Email {
		t.Fatalf("parked operation %+v", op)
	}

	// The inbox of every approver shows it; the detail decodes quote and beneficiary.
	inbox := must[api.Page[api.Operation]](t)(a1.ListApproverOperations(ctx(t), ""))
	found := false
	for _, o := range inbox.Items {
		found = found || o.ID == op.ID
		if len(o.Approvers) > 0 || len(o.DecodedQuote) > 0 {
			t.Errorf("the inbox list carries detail fields")
		}
	}
	if !found {
		t.Fatal("the parked operation is not in approver1's inbox")
	}
	d := must[*api.Operation](t)(a1.GetOperation(ctx(t), op.ID))
	if len(d.Approvers) != 3 {
		t.Errorf("%d approvers, want 3", len(d.Approvers))
	}
	var dq map[string]any
	if err := json.Unmarshal(d.DecodedQuote, &dq); err != nil || dq["outputCurrency"] != "BRL" {
		t.Errorf("decodedQuote %s", d.DecodedQuote)
	}
	var ben map[string]any
	if err := json.Unmarshal(d.Beneficiary, &ben); err != nil || ben["id"] == nil {
		t.Errorf("beneficiary %s", d.Beneficiary)
	}
	var payload map[string]any
	if err := json.Unmarshal(d.Payload, &payload); err != nil || payload["quoteToken"] == nil {
		t.Errorf("payload %s is not the parked body", d.Payload)
	}

	// Non-approvers are refused; the requester may look at its own.
	_, err := e.as("operator").ListApproverOperations(ctx(t), "")
	wantCode(t, err, http.StatusForbidden, "FORBIDDEN")
	must[*api.Operation](t)(req.GetOperation(ctx(t), op.ID))

	// The quote expires, but the operation honours it while pending.
	e.clock.Add(time.Minute)
	o := must[*api.Operation](t)(a1.ApproveOperation(ctx(t), op.ID))
	if o.Approvals != 1 || o.Status != api.OperationPending {
		t.Fatalf("after one approval: %d %s", o.Approvals, o.Status)
	}
	_, err = a1.ApproveOperation(ctx(t), op.ID)
	wantCode(t, err, http.StatusConflict, "ALREADY_APPROVED")
	o = must[*api.Operation](t)(a2.ApproveOperation(ctx(t), op.ID))
	if o.Status != api.OperationExecuted || o.ExecutedID == "" {
		t.Fatalf("after two approvals: %s executedId %q", o.Status, o.ExecutedID)
	}
	tk := must[*api.Ticket](t)(req.GetTicket(ctx(t), uuid.Nil, uuid.MustParse(o.ExecutedID)))
	if tk.Quote.InputAmount.String() != "123.45" || tk.BrazilianFiatReceiverInfo == nil || tk.BrazilianFiatReceiverInfo.PixMessage != "invoice 42" {
		t.Errorf("executed ticket does not match the request: %+v", tk.Quote)
	}
	_, err = a3.ApproveOperation(ctx(t), op.ID)
	wantCode(t, err, http.StatusConflict, "ALREADY_DECIDED")
	_, err = a3.RejectOperation(ctx(t), op.ID, "too late")
	wantCode(t, err, http.StatusConflict, "ALREADY_DECIDED")

	// approver3 meets its own request in the inbox and may not decide it.
	own := must[*api.CreateTicketResult](t)(a3.CreateTicket(ctx(t), uuid.Nil, payoutRequest(t, a3, uuid.Nil, "10"))).Operation
	_, err = a3.ApproveOperation(ctx(t), own.ID)
	wantCode(t, err, http.StatusForbidden, "SELF_APPROVAL")
	_, err = a3.RejectOperation(ctx(t), own.ID, "mine")
	wantCode(t, err, http.StatusForbidden, "SELF_APPROVAL")

	// Rejection needs a reason, and one rejection decides.
	raw := e.rawAs(t, "approver1")
	raw.wantError(t, "POST", "/v2/account/multi-sig-operations/"+own.ID.String()+"/reject", `{"reason":"  "}`, 400, "MISSING_FIELD")
	r := must[*api.Operation](t)(a1.RejectOperation(ctx(t), own.ID, "not in the budget"))
	if r.Status != api.OperationRejected || r.Reason != "not in the budget" {
		t.Errorf("rejected: %s %q", r.Status, r.Reason)
	}
	_, err = a2.ApproveOperation(ctx(t), own.ID)
	wantCode(t, err, http.StatusConflict, "ALREADY_DECIDED")

	// Unapproved operations expire after 24 hours.
	late := must[*api.CreateTicketResult](t)(req.CreateTicket(ctx(t), uuid.Nil, payoutRequest(t, req, uuid.Nil, "11"))).Operation
	e.clock.Add(24 * time.Hour)
	if got := must[*api.Operation](t)(a1.GetOperation(ctx(t), late.ID)); got.Status != api.OperationExpired {
		t.Errorf("operation after 24 h: %s, want EXPIRED", got.Status)
	}
}

// A beneficiary a PENDING operation would pay cannot be deleted (§7.5);
// once the operation is rejected it can, and the operation names who
// rejected it.
func TestBeneficiaryOfAPendingOperationStays(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 5})
	req, op := e.as("requester"), e.as("operator")
	id := must[uuid.UUID](t)(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "Temp", PixKey: "529.982.247-25"}))
	q := must[*api.Quote](t)(req.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("20")}))
	parked := must[*api.CreateTicketResult](t)(req.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixOutput: api.PixToBeneficiary(id, "")})).Operation
	wantCode(t, op.DeleteBRLAccount(ctx(t), uuid.Nil, id), http.StatusConflict, "BENEFICIARY_IN_USE")
	a1 := e.as("approver1")
	o := must[*api.Operation](t)(a1.RejectOperation(ctx(t), parked.ID, "wrong invoice"))
	if o.Status != api.OperationRejected || o.RejectedBy != e.cred("approver1").Email {
		t.Errorf("rejected operation: %s by %q", o.Status, o.RejectedBy)
	}
	if got := must[*api.Operation](t)(a1.GetOperation(ctx(t), parked.ID)); got.RejectedBy != e.cred("approver1").Email {
		t.Errorf("operation detail rejectedBy %q", got.RejectedBy)
	}
	if err := op.DeleteBRLAccount(ctx(t), uuid.Nil, id); err != nil {
		t.Fatalf("delete after the rejection: %v", err)
	}
}
