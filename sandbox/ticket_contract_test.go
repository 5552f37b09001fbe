package sandbox_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

func pixQuote(amount string) api.QuoteRequest {
	return api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec(amount)}
}

func TestSmallPIXTicketFundsItselfAndPays(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 4})
	op := e.as("operator")
	e.clock.Add(5 * time.Second) // the demo's live tickets settle first
	before := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("500.00")))
	res := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: "erp-1"}))
	tk := res.Ticket
	if res.Parked || tk == nil {
		t.Fatalf("operator's ticket parked: %+v", res)
	}
	if tk.Status != api.TicketUnpaid {
		t.Fatalf("new PIX ticket is %s, want PENDING", tk.Status)
	}
	if got := tk.ExpiresAt.Sub(tk.CreatedAt.Time); got != 5*time.Minute {
		t.Errorf("conversion ticket expires after %v, want 5m", got)
	}
	code := tk.BrCode()
	p, err := brcode.Parse(code)
	if err != nil {
		t.Fatalf("brCode %q does not parse: %v", code, err)
	}
	if !p.Amount.Equal(q.InputAmount) {
		t.Errorf("brCode amount %s, want %s", p.Amount, q.InputAmount)
	}
	if !tk.Quote.OutputAmount.Equal(q.OutputAmount) || tk.Quote.PairName != "BRLBRLA" || tk.Quote.TicketID != tk.ID {
		t.Errorf("ticket quote %+v does not carry the quote", tk.Quote)
	}
	for _, f := range tk.Quote.AppliedFees {
		if f.Rebatable == nil {
			t.Errorf("ticket fee %s without rebatable", f.Type)
		}
	}
	if _, err := op.TicketReceipt(ctx(t), uuid.Nil, tk.ID); statusOf(err) != http.StatusConflict {
		t.Fatalf("receipt of a PENDING ticket: %v, want 409", err)
	}

	e.clock.Add(3 * time.Second)
	got := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, tk.ID))
	if got.Status != api.TicketProcessing || got.BrazilianFiatSenderInfo == nil || len(got.BrazilianFiatSenderInfo.EndToEndID) != 32 {
		t.Fatalf("after 3 s: %s with sender %+v, want PROCESSING with a 32-character endToEndId", got.Status, got.BrazilianFiatSenderInfo)
	}
	e2e := got.BrazilianFiatSenderInfo.EndToEndID
	// Funding moved the payment into the balance, as BRLA, until delivery.
	mid := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	if want := before["BRLA"].Add(q.InputAmount); !mid["BRLA"].Equal(want) {
		t.Errorf("BRLA while PROCESSING %s, want %s + %s", mid["BRLA"], before["BRLA"], q.InputAmount)
	}
	e.clock.Add(2 * time.Second)
	got = must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, tk.ID))
	if got.Status != api.TicketPaid {
		t.Fatalf("after 5 s: %s, want PAID", got.Status)
	}
	after := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	if want := before["BRLA"].Add(q.OutputAmount); !after["BRLA"].Equal(want) {
		t.Errorf("BRLA balance %s, want %s + %s = %s", after["BRLA"], before["BRLA"], q.OutputAmount, want)
	}
	pdf := must[[]byte](t)(op.TicketReceipt(ctx(t), uuid.Nil, tk.ID))
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.")) || !bytes.Contains(pdf, []byte("%%EOF")) || !bytes.Contains(pdf, []byte(tk.ID.String())) {
		t.Errorf("receipt is not a PDF of the ticket: %q", pdf[:min(len(pdf), 60)])
	}

	// Filters find it by externalId and by endToEndId.
	page := must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{ExternalID: "erp-1"}))
	if len(page.Items) != 1 || page.Items[0].ID != tk.ID {
		t.Errorf("externalId filter: %d tickets", len(page.Items))
	}
	page = must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{EndToEndID: e2e}))
	if len(page.Items) != 1 || page.Items[0].ID != tk.ID {
		t.Errorf("endToEndId filter: %d tickets", len(page.Items))
	}
}

func TestLargePIXWaitsForFundingAndExpires(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 4})
	op := e.as("operator")
	mk := func() *api.Ticket {
		q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("2500.00")))
		return must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	}
	a, b := mk(), mk()
	e.clock.Add(30 * time.Second)
	if got := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, a.ID)); got.Status != api.TicketUnpaid {
		t.Fatalf("a 2,500 BRL PIX ticket funded itself: %s", got.Status)
	}
	funded := must[*api.Ticket](t)(op.SandboxFundTicket(ctx(t), uuid.Nil, a.ID))
	if funded.Status != api.TicketProcessing || funded.BrazilianFiatSenderInfo == nil || funded.BrazilianFiatSenderInfo.EndToEndID == "" {
		t.Fatalf("fund: %s %+v", funded.Status, funded.BrazilianFiatSenderInfo)
	}
	if _, err := op.SandboxFundTicket(ctx(t), uuid.Nil, a.ID); statusOf(err) != http.StatusConflict {
		t.Errorf("funding twice: %v, want 409", err)
	}
	e.clock.Add(5 * time.Minute)
	if got := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, b.ID)); got.Status != api.TicketCanceled || got.Reason == "" {
		t.Errorf("unfunded ticket after its 5 minutes: %s (%q), want CANCELED with a reason", got.Status, got.Reason)
	}
	if got := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, a.ID)); got.Status != api.TicketPaid {
		t.Errorf("funded ticket: %s, want PAID", got.Status)
	}
	if _, err := op.SandboxFundTicket(ctx(t), uuid.Nil, b.ID); statusOf(err) != http.StatusConflict {
		t.Errorf("funding an expired ticket: %v, want 409", err)
	}
}

func TestInternalInputDebitsAtCreation(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 4})
	op := e.as("operator")
	e.clock.Add(5 * time.Second) // the demo's live tickets settle first
	before := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	req := api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("1000")}
	q := must[*api.Quote](t)(op.Quote(ctx(t), req))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	if tk.Status != api.TicketProcessing {
		t.Fatalf("INTERNAL input ticket is %s, want PROCESSING", tk.Status)
	}
	mid := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	if want := before["BRLA"].Sub(q.InputAmount); !mid["BRLA"].Equal(want) {
		t.Errorf("BRLA after creation %s, want %s", mid["BRLA"], want)
	}
	e.clock.Add(3 * time.Second)
	end := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	if want := before["USDC"].Add(q.OutputAmount); !end["USDC"].Equal(want) {
		t.Errorf("USDC after delivery %s, want %s", end["USDC"], want)
	}
	// More than the balance: refused, nothing debited.
	huge := req
	huge.InputAmount = dec(end["BRLA"].Add(decimal.NewFromInt(1)).StringFixed(6))
	q = must[*api.Quote](t)(op.Quote(ctx(t), huge))
	_, err := op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	wantCode(t, err, http.StatusBadRequest, "INSUFFICIENT_BALANCE")
	if again := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil)); !again["BRLA"].Equal(end["BRLA"]) {
		t.Errorf("a refused ticket moved the balance: %s → %s", end["BRLA"], again["BRLA"])
	}
}

func TestQuoteTokenRules(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 4})
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("10")))

	// Tampered: one character of the payload changed.
	tok := []byte(q.QuoteToken)
	tok[10] ^= 1
	_, err := op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: string(tok)})
	wantCode(t, err, http.StatusBadRequest, "QUOTE_INVALID")

	// Another sub-account than the quote's.
	_, err = op.CreateTicket(ctx(t), e.subs[0], api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	ae := wantCode(t, err, http.StatusBadRequest, "SUB_ACCOUNT_MISMATCH")
	if !strings.Contains(ae.Message, "subAccountId") {
		t.Errorf("mismatch message %q does not name subAccountId", ae.Message)
	}
	subQ := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{SubAccountID: e.subs[0], InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("10")}))
	_, err = op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: subQ.QuoteToken})
	wantCode(t, err, http.StatusBadRequest, "SUB_ACCOUNT_MISMATCH")

	// Another access's quote.
	_, err = e.as("approver3").CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	wantCode(t, err, http.StatusBadRequest, "QUOTE_INVALID")

	// Reusable until it expires, 15 s after issue.
	e.clock.Add(14 * time.Second)
	must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken}))
	e.clock.Add(time.Second)
	_, err = op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	wantCode(t, err, http.StatusBadRequest, "QUOTE_EXPIRED")
}

func TestSameCurrencyTicketLivesADay(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 4})
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "USDC", InputPaymentMethod: "POLYGON", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("50"), BlockchainSendMethod: "TRANSFER"}))
	_, err := op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	ae := wantCode(t, err, http.StatusBadRequest, "MISSING_FIELD")
	if !strings.Contains(ae.Message, "ticketBlockchainInput") {
		t.Errorf("message %q does not name ticketBlockchainInput", ae.Message)
	}
	_, err = op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainInput: &api.TicketBlockchainInput{WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"}})
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")
	_, err = op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainInput: &api.TicketBlockchainInput{WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", Permit: &api.Permit{R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64), V: 27, Deadline: e.clock.Now().Add(time.Hour).Unix()}}})
	wantCode(t, err, http.StatusBadRequest, "UNEXPECTED_BLOCK")
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainInput: &api.TicketBlockchainInput{WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}})).Ticket
	if got := tk.ExpiresAt.Sub(tk.CreatedAt.Time); got != 24*time.Hour {
		t.Errorf("same-currency ticket expires after %v, want 24h", got)
	}
	if tk.BlockchainSenderInfo == nil || tk.BlockchainSenderInfo.DisposableDepositAddress == "" {
		t.Errorf("TRANSFER ticket does not say where to transfer: %+v", tk.BlockchainSenderInfo)
	}
	e.clock.Add(4 * time.Second)
	got := must[*api.Ticket](t)(op.GetTicket(ctx(t), uuid.Nil, tk.ID))
	if got.Status != api.TicketProcessing || !strings.HasPrefix(got.BlockchainSenderInfo.TxHash, "0x") || len(got.BlockchainSenderInfo.TxHash) != 66 {
		t.Errorf("on-chain input after 4 s: %s %+v", got.Status, got.BlockchainSenderInfo)
	}
}
