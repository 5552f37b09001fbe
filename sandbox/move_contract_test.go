package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Moving funds between the main account and its sub-accounts (service.md
// §8.5): a same-currency INTERNAL quote, and a ticket whose
// beneficiaryWalletId is the other account's id.

var hundred = decimal.NewFromInt(100)

// moveQuote is a quote of amount of currency from balance to balance, as
// sub (uuid.Nil: the main account).
func moveQuote(t *testing.T, c *api.Client, sub uuid.UUID, currency, amount string) *api.Quote {
	t.Helper()
	return must[*api.Quote](t)(c.Quote(ctx(t), api.QuoteRequest{SubAccountID: sub, InputCurrency: currency, InputPaymentMethod: "INTERNAL", OutputCurrency: currency, OutputPaymentMethod: "INTERNAL", InputAmount: dec(amount)}))
}

func moveTo(q *api.Quote, to uuid.UUID) api.CreateTicketRequest {
	return api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainOutput: &api.TicketBlockchainOutput{BeneficiaryWalletID: &to}}
}

func TestFundsMoveBetweenTheMainAccountAndItsSubAccounts(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 24})
	op := e.as("operator")
	e.clock.Add(5 * time.Second) // the demo's live tickets settle first
	subs := must[api.Page[api.SubAccount]](t)(op.ListSubAccounts(ctx(t), api.SubAccountFilter{})).Items
	if len(subs) < 2 {
		t.Fatalf("%d sub-accounts in the demo, want at least 2", len(subs))
	}
	main := must[*api.AccountDetails](t)(op.AccountDetails(ctx(t), uuid.Nil))
	sub := subs[0].SubAccountID
	subDetails := must[*api.AccountDetails](t)(op.AccountDetails(ctx(t), sub))
	mainBefore := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))["USDT"]
	subBefore := must[api.Balances](t)(op.Balances(ctx(t), sub))["USDT"]

	// The quote: the pair USDTUSDT at 1, the five fees in USDT.
	q := moveQuote(t, op, uuid.Nil, "USDT", "100")
	fees := checkFiveFees(t, q.AppliedFees, "USDT", false)
	if q.PairName != "USDTUSDT" || !q.BasePrice.Equal(decimal.NewFromInt(1)) || !q.OutputAmount.Equal(hundred.Sub(fees)) {
		t.Fatalf("move quote: pair %s at %s, %s → %s, fees %s", q.PairName, q.BasePrice, q.InputAmount, q.OutputAmount, fees)
	}

	// Main → sub: the main balance is debited at once, the sub-account's
	// credited when the ticket is paid.
	res := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, moveTo(q, sub)))
	if got := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))["USDT"]; !got.Equal(mainBefore.Sub(hundred)) {
		t.Errorf("main USDT after the move was created: %s, want %s − 100", got, mainBefore)
	}
	e.clock.Add(10 * time.Second)
	tk := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, res.Ticket.ID))
	if tk.Status != api.TicketPaid {
		t.Fatalf("move ticket %s after 10 s, want PAID", tk.Status)
	}
	if r := tk.BlockchainReceiverInfo; r == nil || r.WalletAddress != subDetails.Wallets[0].WalletAddress || r.WalletChain != "INTERNAL" || r.TxHash != "" {
		t.Errorf("receiver of a move %+v, want the sub-account's service wallet inside the service", r)
	}
	if got := must[api.Balances](t)(op.Balances(ctx(t), sub))["USDT"]; !got.Equal(subBefore.Add(q.OutputAmount)) {
		t.Errorf("sub-account USDT after the move: %s, want %s + %s", got, subBefore, q.OutputAmount)
	}
	if got := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))["USDT"]; !got.Equal(mainBefore.Sub(hundred)) {
		t.Errorf("main USDT after the move was paid: %s, want %s − 100", got, mainBefore)
	}
	lines := must[api.Page[api.StatementLog]](t)(op.Statement(ctx(t), api.StatementFilter{SubAccountID: sub})).Items
	if len(lines) == 0 || lines[0].TicketID != tk.ID.String() || !lines[0].BalanceChange.Equal(q.OutputAmount) || !strings.HasSuffix(lines[0].Description, "moved in from another account") {
		t.Errorf("sub-account's statement does not start with the move: %+v", lines[:min(1, len(lines))])
	}

	// Sub → main, with the main account's id.
	back := moveQuote(t, op, sub, "USDT", "40")
	res = must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), sub, moveTo(back, main.ID)))
	e.clock.Add(10 * time.Second)
	if tk := must[*api.Ticket](t)(op.GetTicket(ctx(t), sub, res.Ticket.ID)); tk.Status != api.TicketPaid {
		t.Fatalf("move back %s, want PAID", tk.Status)
	}
	if got := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))["USDT"]; !got.Equal(mainBefore.Sub(hundred).Add(back.OutputAmount)) {
		t.Errorf("main USDT after the move back: %s", got)
	}

	// The nil id and the account's own id keep the funds where they are.
	subNow := must[api.Balances](t)(op.Balances(ctx(t), sub))["USDT"]
	self := moveQuote(t, op, sub, "USDT", "1")
	res = must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), sub, moveTo(self, sub)))
	e.clock.Add(10 * time.Second)
	if tk := must[*api.Ticket](t)(op.GetTicket(ctx(t), sub, res.Ticket.ID)); tk.Status != api.TicketPaid {
		t.Errorf("a move to the account itself: %s, want PAID", tk.Status)
	}
	if got := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))["USDT"]; !got.Equal(mainBefore.Sub(hundred).Add(back.OutputAmount)) {
		t.Errorf("a move to the account itself changed the main balance: %s", got)
	}
	if got := must[api.Balances](t)(op.Balances(ctx(t), sub))["USDT"]; !got.Equal(subNow.Sub(self.InputAmount).Add(self.OutputAmount)) {
		t.Errorf("a move to the account itself left %s, want %s − %s + %s", got, subNow, self.InputAmount, self.OutputAmount)
	}

	// Refused: a sibling sub-account, an id of another workspace, a wallet
	// address in the block, a BRL pair on one method, an amount over the
	// balance.
	_, err := op.CreateTicket(ctx(t), sub, moveTo(moveQuote(t, op, sub, "USDT", "1"), subs[1].SubAccountID))
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")
	_, err = op.CreateTicket(ctx(t), uuid.Nil, moveTo(moveQuote(t, op, uuid.Nil, "USDT", "1"), uuid.New()))
	wantCode(t, err, http.StatusBadRequest, "UNKNOWN_BENEFICIARY")
	r := e.rawAs(t, "operator")
	body, _ := json.Marshal(map[string]any{"quoteToken": moveQuote(t, op, uuid.Nil, "USDT", "1").QuoteToken, "ticketBlockchainOutput": map[string]string{"beneficiaryWalletId": sub.String(), "walletAddress": main.Wallets[0].WalletAddress}})
	r.wantError(t, http.MethodPost, "/v2/account/tickets/", string(body), http.StatusBadRequest, "UNEXPECTED_BLOCK")
	_, err = op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("10")})
	wantCode(t, err, http.StatusBadRequest, "UNSUPPORTED_PAIR")
	huge := must[api.Balances](t)(op.Balances(ctx(t), sub))["USDT"].Add(decimal.NewFromInt(1))
	_, err = op.CreateTicket(ctx(t), sub, moveTo(moveQuote(t, op, sub, "USDT", huge.String()), main.ID))
	wantCode(t, err, http.StatusBadRequest, "INSUFFICIENT_BALANCE")
}

// Who may move: an access barred from the account moved to is refused;
// a requester's move waits for two approvers like any ticket, and the
// operation names the account.
func TestAMoveFollowsBlacklistAndMultiSignature(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 24})
	op := e.as("operator")
	subs := must[api.Page[api.SubAccount]](t)(op.ListSubAccounts(ctx(t), api.SubAccountFilter{})).Items
	var barred uuid.UUID
	for _, s := range subs {
		if s.AccountInfo.Name == "Acme Sul" {
			barred = s.SubAccountID
		}
	}
	if barred == uuid.Nil {
		t.Fatal("the demo has no sub-account Acme Sul")
	}
	e.clock.Add(5 * time.Second) // the demo's live tickets settle first
	rs := e.as("restricted")
	_, err := rs.CreateTicket(ctx(t), uuid.Nil, moveTo(moveQuote(t, rs, uuid.Nil, "USDC", "5"), barred))
	wantCode(t, err, http.StatusForbidden, "ACCOUNT_BLACKLISTED")

	req, a1, a2 := e.as("requester"), e.as("approver1"), e.as("approver2")
	before := must[api.Balances](t)(op.Balances(ctx(t), subs[0].SubAccountID))["USDC"]
	q := moveQuote(t, req, uuid.Nil, "USDC", "25")
	res := must[*api.CreateTicketResult](t)(req.CreateTicket(ctx(t), uuid.Nil, moveTo(q, subs[0].SubAccountID)))
	if !res.Parked || res.Operation == nil {
		t.Fatalf("a requester's move was not parked: %+v", res)
	}
	d := must[*api.Operation](t)(a1.GetOperation(ctx(t), res.Operation.ID))
	var b struct{ Kind, ID, Name string }
	if err := json.Unmarshal(d.Beneficiary, &b); err != nil || b.Kind != "ACCOUNT" || b.ID != subs[0].SubAccountID.String() || b.Name != subs[0].AccountInfo.Name {
		t.Errorf("operation's beneficiary %s (%v), want the account %s %s", d.Beneficiary, err, subs[0].SubAccountID, subs[0].AccountInfo.Name)
	}
	must[*api.Operation](t)(a1.ApproveOperation(ctx(t), res.Operation.ID))
	o := must[*api.Operation](t)(a2.ApproveOperation(ctx(t), res.Operation.ID))
	if o.Status != api.OperationExecuted {
		t.Fatalf("after two approvals: %s", o.Status)
	}
	e.clock.Add(10 * time.Second)
	if got := must[api.Balances](t)(op.Balances(ctx(t), subs[0].SubAccountID))["USDC"]; !got.Equal(before.Add(q.OutputAmount)) {
		t.Errorf("sub-account USDC after the approved move: %s, want %s + %s", got, before, q.OutputAmount)
	}
}
