package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Fees, ticket records and balances as the live service writes them
// (service.md §8.2–§8.4).

// liveFees are the five fees of a quote, in the service's order, with its
// descriptions, and whether a ticket's quote marks each rebatable.
var liveFees = []struct {
	typ, description string
	rebatable        bool
}{
	{"Markup Fee", "Total markup fees represented in the input currency.", false},
	{"In Fee", "Fees due to input currency and input payment method.", true},
	{"Conversion Fee", "Fees due to conversion from input currency to output currency.", true},
	{"Out Fee", "Fees due to output currency and output payment method.", true},
	{"Gas Fee", "Fees due to blockchain transaction costs.", false},
}

// checkFiveFees checks that fees are the five of §8.2, in order, in the
// input currency; inTicket says whether they are a ticket's (rebatable
// set as §8.2 says) or a quote's (no rebatable). It returns their sum.
func checkFiveFees(t *testing.T, fees []api.Fee, inputCurrency string, inTicket bool) decimal.Decimal {
	t.Helper()
	if len(fees) != len(liveFees) {
		t.Fatalf("%d fees %+v, want the five of §8.2", len(fees), fees)
	}
	sum := decimal.Zero
	for i, want := range liveFees {
		f := fees[i]
		if f.Type != want.typ || f.Description != want.description || f.Currency != inputCurrency || f.Amount.IsNegative() {
			t.Errorf("fee %d: %+v, want %s %q in %s", i, f, want.typ, want.description, inputCurrency)
		}
		switch {
		case !inTicket && f.Rebatable != nil:
			t.Errorf("quote fee %s carries rebatable", f.Type)
		case inTicket && (f.Rebatable == nil || *f.Rebatable != want.rebatable):
			t.Errorf("ticket fee %s: rebatable %v, want %v", f.Type, f.Rebatable, want.rebatable)
		}
		sum = sum.Add(f.Amount)
	}
	return sum
}

func TestQuoteListsTheFiveFeesInTheInputCurrency(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 11})
	op := e.as("operator")
	cases := []api.QuoteRequest{
		// No markup, no payout, no chain: three fees are zero and listed.
		{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("1000")},
		// A payout in another currency: its fee counted in the input.
		{InputCurrency: "USDC", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("250")},
		// Gas on a chain output, and every kind of markup.
		{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "ETHEREUM", InputAmount: dec("5000"),
			MarkupFloatingFee: dec("0.01"), MarkupInputFixedFee: dec("2"), MarkupOutputFixedFee: dec("1")},
	}
	for _, req := range cases {
		q := must[*api.Quote](t)(op.Quote(ctx(t), req))
		sum := checkFiveFees(t, q.AppliedFees, q.InputCurrency, false)
		// The amount rule, every fee being in the input currency: times
		// the price when the input is the pair's base, divided by it when
		// it is the quote currency (§8.1).
		net := q.InputAmount.Sub(sum).Mul(q.BasePrice)
		if !strings.HasPrefix(q.PairName, q.InputCurrency) {
			net = q.InputAmount.Sub(sum).DivRound(q.BasePrice, 18)
		}
		if want := net.RoundFloor(money.Precision(q.OutputCurrency)); !q.OutputAmount.Equal(want) {
			t.Errorf("%s: outputAmount %s, (input − fees) at basePrice gives %s", q.PairName, q.OutputAmount, want)
		}
		byType := map[string]decimal.Decimal{}
		for _, f := range q.AppliedFees {
			byType[f.Type] = f.Amount
		}
		if !byType["In Fee"].IsZero() {
			t.Errorf("%s: In Fee %s; the sandbox charges none", q.PairName, byType["In Fee"])
		}
		if (req.OutputPaymentMethod == "PIX") != byType["Out Fee"].IsPositive() {
			t.Errorf("%s: Out Fee %s", q.PairName, byType["Out Fee"])
		}
		if money.IsChain(req.OutputPaymentMethod) != byType["Gas Fee"].IsPositive() {
			t.Errorf("%s: Gas Fee %s", q.PairName, byType["Gas Fee"])
		}
		if req.MarkupFloatingFee.Valid != byType["Markup Fee"].IsPositive() {
			t.Errorf("%s: Markup Fee %s", q.PairName, byType["Markup Fee"])
		}
	}

	// On the wire, a quote's fee has no rebatable at all, and zero fees are
	// there.
	status, body := e.rawAs(t, "operator").send(t, http.MethodGet, "/v2/account/quote/fixed-rate?"+url.Values{
		"inputCurrency": {"BRL"}, "inputPaymentMethod": {"PIX"}, "outputCurrency": {"BRLA"}, "outputPaymentMethod": {"INTERNAL"},
		"inputAmount": {"100"}, "inputThirdParty": {"false"}, "outputThirdParty": {"false"},
	}.Encode(), "", time.Time{}, nil)
	if status != http.StatusOK || bytes.Contains(body, []byte("rebatable")) || !bytes.Contains(body, []byte(`"type":"Gas Fee"`)) {
		t.Fatalf("%d %s: want the five fees without rebatable", status, body)
	}
}

func TestTicketRecordsFeesRebateAndParties(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 12})
	op := e.as("operator")
	e.clock.Add(5 * time.Second) // the demo's live tickets settle first
	wallet := must[api.Page[api.Wallet]](t)(op.ListWallets(ctx(t), api.WalletFilter{})).Items[0]
	details := must[*api.AccountDetails](t)(op.AccountDetails(ctx(t), uuid.Nil))

	// BRL by PIX to USDC on a registered wallet: a PIX sender, a chain
	// receiver, rebatable fees charged.
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: wallet.WalletChain, InputAmount: dec("800")}))
	res := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{
		QuoteToken: q.QuoteToken, TicketBlockchainOutput: &api.TicketBlockchainOutput{BeneficiaryWalletID: &wallet.ID},
	}))
	id := res.Ticket.ID
	if res.Ticket.Rebate != nil {
		t.Errorf("an unpaid ticket already has a rebate: %+v", res.Ticket.Rebate)
	}
	e.clock.Add(10 * time.Second)
	tk := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, id))
	if tk.Status != api.TicketPaid {
		t.Fatalf("ticket %s after 10 s, want PAID", tk.Status)
	}
	tq := tk.Quote
	total := checkFiveFees(t, tq.AppliedFees, "BRL", true)
	if tq.SendMethod != "" || tq.OutputBrCode != "" || tq.ID == uuid.Nil || tq.TicketID != id || tq.CreatedAt.IsZero() {
		t.Errorf("ticket quote %+v: want id, ticketId, createdAt, empty sendMethod and outputBrCode", tq)
	}
	if tk.WorkspaceID == uuid.Nil || tk.UserID == uuid.Nil {
		t.Errorf("workspaceId %s, userId %s", tk.WorkspaceID, tk.UserID)
	}
	// The rebate: half of the In, Conversion and Out fees, in the output
	// currency at the quote's rate, to the account's first wallet.
	rebatable := decimal.Zero
	for _, f := range tq.AppliedFees {
		if *f.Rebatable {
			rebatable = rebatable.Add(f.Amount)
		}
	}
	want := rebatable.Div(decimal.NewFromInt(2)).Mul(tq.OutputAmount).DivRound(tq.InputAmount.Sub(total), 18).RoundFloor(6)
	switch r := tk.Rebate; {
	case r == nil:
		t.Fatal("a PAID ticket with rebatable fees has no rebate")
	case !r.Amount.Equal(want) || r.Currency != "USDC" || r.TicketID != id || r.ID == uuid.Nil:
		t.Errorf("rebate %+v, want %s USDC on ticket %s", r, want, id)
	case r.DestinationWalletAddress != details.Wallets[0].WalletAddress:
		t.Errorf("rebate to %s, want the account's first wallet %s", r.DestinationWalletAddress, details.Wallets[0].WalletAddress)
	}
	s := tk.BrazilianFiatSenderInfo
	if s == nil || s.ID == "" || s.TicketID != id.String() || s.Name == "" || s.TaxID == "" || s.BankCode == "" || s.BranchCode == "" ||
		s.AccountNumber == "" || s.AccountType == "" || len(s.EndToEndID) != 32 {
		t.Errorf("brazilianFiatSenderInfo %+v", s)
	}
	r := tk.BlockchainReceiverInfo
	if r == nil || r.ID == "" || r.TicketID != id.String() || r.WalletAddress != wallet.WalletAddress || r.WalletChain != wallet.WalletChain || !strings.HasPrefix(r.TxHash, "0x") || len(r.TxHash) != 66 {
		t.Errorf("blockchainReceiverInfo %+v", r)
	}

	// On the wire, reason and failureReason are there, empty.
	status, body := e.rawAs(t, "operator").send(t, http.MethodGet, "/v2/account/tickets/"+id.String(), "", time.Time{}, nil)
	var wire struct {
		Ticket map[string]json.RawMessage `json:"ticket"`
	}
	if err := json.Unmarshal(body, &wire); status != http.StatusOK || err != nil {
		t.Fatalf("%d %s", status, body)
	}
	for _, k := range []string{"reason", "failureReason"} {
		if string(wire.Ticket[k]) != `""` {
			t.Errorf("%s: %s, want an empty string", k, wire.Ticket[k])
		}
	}

	// USDC sent on a chain (TRANSFER) into the balance: a chain sender with
	// its hash, and the send method recorded on the ticket's quote.
	q = must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "USDC", InputPaymentMethod: "POLYGON", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("50"), BlockchainSendMethod: "TRANSFER"}))
	from := "0x52908400098527886E0F7030069857D2E4169EE7"
	res = must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainInput: &api.TicketBlockchainInput{WalletAddress: from}}))
	must[*api.Ticket](t)(op.SandboxFundTicket(ctx(t), uuid.Nil, res.Ticket.ID))
	tk = must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, res.Ticket.ID))
	checkFiveFees(t, tk.Quote.AppliedFees, "USDC", true)
	if tk.Quote.SendMethod != "TRANSFER" {
		t.Errorf("ticket quote sendMethod %q, want TRANSFER", tk.Quote.SendMethod)
	}
	if b := tk.BlockchainSenderInfo; b == nil || b.ID == "" || b.TicketID != tk.ID.String() || !strings.EqualFold(b.WalletAddress, from) || len(b.TxHash) != 66 {
		t.Errorf("blockchainSenderInfo %+v", b)
	}
}

func TestTokenQuoteNeedsSendMethod(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 13})
	raw := e.rawAs(t, "operator")
	quote := func(in, inMethod, out, outMethod, send string) string {
		v := url.Values{"inputCurrency": {in}, "inputPaymentMethod": {inMethod}, "outputCurrency": {out}, "outputPaymentMethod": {outMethod},
			"inputAmount": {"10"}, "inputThirdParty": {"false"}, "outputThirdParty": {"false"}}
		if send != "" {
			v.Set("blockchainSendMethod", send)
		}
		return "/v2/account/quote/fixed-rate?" + v.Encode()
	}
	// Without it, a token input is refused whatever its method, INTERNAL
	// swaps included, in the words the live service ends with.
	for _, c := range [][4]string{{"USDT", "INTERNAL", "USDC", "INTERNAL"}, {"BRLA", "INTERNAL", "BRL", "PIX"}, {"USDC", "POLYGON", "BRL", "PIX"}} {
		msg := raw.wantError(t, http.MethodGet, quote(c[0], c[1], c[2], c[3], ""), "", http.StatusBadRequest, "MISSING_FIELD")
		if !strings.HasSuffix(msg, ":blockchainSendMethod is invalid") {
			t.Errorf("%v: message %q does not end as the live service's", c, msg)
		}
	}
	raw.wantError(t, http.MethodGet, quote("USDT", "INTERNAL", "USDC", "INTERNAL", "PULL"), "", http.StatusBadRequest, "INVALID_FIELD")
	// A PIX input has no tokens to send.
	if status, body := raw.send(t, http.MethodGet, quote("BRL", "PIX", "BRLA", "INTERNAL", ""), "", time.Time{}, nil); status != http.StatusOK {
		t.Fatalf("PIX input without a send method: %d %s", status, body)
	}

	// The client sends PERMIT for a token input that names none; the quote
	// echoes it and the ticket's quote records it.
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "USDT", InputPaymentMethod: "INTERNAL", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("10")}))
	if q.BlockchainSendMethod != "PERMIT" {
		t.Fatalf("quote blockchainSendMethod %q, want PERMIT", q.BlockchainSendMethod)
	}
	res := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken}))
	if res.Ticket.Quote.SendMethod != "PERMIT" {
		t.Errorf("ticket quote sendMethod %q, want PERMIT", res.Ticket.Quote.SendMethod)
	}
}

func TestBalancesListEveryToken(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 14})
	op := e.as("operator")
	for _, acct := range []uuid.UUID{uuid.Nil, e.subs[0]} {
		// Read off the wire: every token is a key, zero included.
		var wire struct {
			Balances map[string]string `json:"balances"`
		}
		path := "/v2/account/balances"
		if acct != uuid.Nil {
			path += "?subAccountId=" + acct.String()
		}
		status, body := e.rawAs(t, "operator").send(t, http.MethodGet, path, "", time.Time{}, nil)
		if err := json.Unmarshal(body, &wire); status != http.StatusOK || err != nil {
			t.Fatalf("%d %s", status, body)
		}
		for _, tok := range []string{"BRLA", "USDC", "USDT", "USDM", "EURC"} {
			if _, ok := wire.Balances[tok]; !ok {
				t.Errorf("account %s: balances %v do not list %s", acct, wire.Balances, tok)
			}
		}
		if got := must[api.Balances](t)(op.Balances(ctx(t), acct)); !got["USDM"].IsZero() {
			t.Errorf("USDM %s, want 0: the demo holds none", got["USDM"])
		}
	}
}
