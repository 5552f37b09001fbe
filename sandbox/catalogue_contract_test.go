package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// The catalogue of spec/service.md §7.3: every chain a wallet registers on
// is quotable, TRON for USDT only, USDM and USDCe known; the third-party
// flags are required; a quote may pay a BR Code and name a refunded ticket.
func TestLiveCatalogueAndQuoteParameters(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 31})
	op := e.as("operator")
	for _, tc := range []struct {
		cur, method string
		ok          bool
	}{
		{"USDC", "MOONBEAM", true}, {"BRLA", "GNOSIS", true}, {"USDT", "TRON", true}, {"USDM", "POLYGON", true},
		{"USDCe", "BASE", true}, {"USDC", "TRON", false}, {"BRLA", "TRON", false},
	} {
		_, err := op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: tc.cur, OutputPaymentMethod: tc.method, InputAmount: dec("100")})
		if tc.ok && err != nil {
			t.Errorf("%s on %s: %v", tc.cur, tc.method, err)
		}
		if !tc.ok {
			wantCode(t, err, http.StatusBadRequest, "UNSUPPORTED_PAIR")
		}
	}
	// A wallet on MOONBEAM registers and is paid.
	wid := must[uuid.UUID](t)(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "moon", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "MOONBEAM"}))
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "MOONBEAM", InputAmount: dec("100")}))
	must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainOutput: api.ToWallet(wid)}))

	r := e.rawAs(t, "operator")
	base := "/v2/account/quote/fixed-rate?inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=10"
	r.wantError(t, http.MethodGet, base, "", http.StatusBadRequest, "MISSING_FIELD")
	r.wantError(t, http.MethodGet, base+"&inputThirdParty=false", "", http.StatusBadRequest, "MISSING_FIELD")
	if status, out := r.send(t, http.MethodGet, base+"&inputThirdParty=false&outputThirdParty=false", "", time.Time{}, nil); status != 200 {
		t.Fatalf("with both flags: %d %s", status, out)
	}

	// outputBrCode: the amount comes from the code, and the ticket pays it.
	code, err := brcode.Encode(brcode.Payload{Key: "loja@example.com", Amount: decimal.RequireFromString("42.50"), MerchantName: "LOJA", MerchantCity: "RECIFE", TxID: "PEDIDO42"})
	if err != nil {
		t.Fatal(err)
	}
	pay := api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", OutputBrCode: code}
	q = must[*api.Quote](t)(op.Quote(ctx(t), pay))
	if !q.OutputAmount.Equal(decimal.RequireFromString("42.50")) || q.OutputBrCode != code {
		t.Fatalf("BR Code quote: output %s, code %q", q.OutputAmount, q.OutputBrCode)
	}
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixOutput: &api.TicketBrlPixOutput{BrCode: code}})).Ticket
	if got := tk.BrazilianFiatReceiverInfo; got == nil || got.BrCode != code || got.PixKey != "loja@example.com" {
		t.Errorf("receiver %+v", got)
	}
	other, _ := brcode.Encode(brcode.Payload{Key: "outra@example.com", MerchantName: "OUTRA", MerchantCity: "RECIFE"})
	q = must[*api.Quote](t)(op.Quote(ctx(t), pay))
	wantCode(t, errOf(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixOutput: &api.TicketBrlPixOutput{BrCode: other}})), http.StatusBadRequest, "INVALID_FIELD")
	pay.InputAmount = dec("10")
	wantCode(t, errOf(op.Quote(ctx(t), pay)), http.StatusBadRequest, "INVALID_FIELD")
	pay.InputAmount, pay.OutputCurrency, pay.OutputPaymentMethod = decimal.NullDecimal{}, "USDC", "POLYGON"
	wantCode(t, errOf(op.Quote(ctx(t), pay)), http.StatusBadRequest, "INVALID_FIELD")

	// ticketRefundId is carried by the quote.
	refund := uuid.New().String()
	q = must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("5"), TicketRefundID: refund}))
	if q.TicketRefundID != refund {
		t.Errorf("ticketRefundId %q, want %s", q.TicketRefundID, refund)
	}
	wantCode(t, errOf(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("5"), TicketRefundID: "x"})), http.StatusBadRequest, "INVALID_FIELD")
}
