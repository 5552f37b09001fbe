package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// checkAmountRule verifies §6's amount rule from one quote response alone.
func checkAmountRule(t *testing.T, q *api.Quote) {
	t.Helper()
	in, out := decimal.Zero, decimal.Zero
	for _, f := range q.AppliedFees {
		switch f.Currency {
		case q.InputCurrency:
			in = in.Add(f.Amount)
		case q.OutputCurrency:
			out = out.Add(f.Amount)
		default:
			t.Fatalf("fee %s in %s, neither the input nor the output currency", f.Type, f.Currency)
		}
		if f.Rebatable != nil {
			t.Errorf("fee %s: a quote's fee carries rebatable %v; only a ticket's quote does (service.md §8.2)", f.Type, *f.Rebatable)
		}
	}
	// §8.1: the pair is the market's, BASE then QUOTE; the base is the side
	// that is not BRL or BRLA, the input when both or neither are. The price
	// multiplies an input that is the base and divides one that is not.
	brl := map[string]bool{"BRL": true, "BRLA": true}
	net := q.InputAmount.Sub(in).Mul(q.BasePrice)
	wantPair := q.InputCurrency + q.OutputCurrency
	if brl[q.InputCurrency] && !brl[q.OutputCurrency] {
		net = q.InputAmount.Sub(in).DivRound(q.BasePrice, 18)
		wantPair = q.OutputCurrency + q.InputCurrency
	}
	want := net.Sub(out).RoundFloor(money.Precision(q.OutputCurrency))
	if !q.OutputAmount.Equal(want) {
		t.Errorf("%s: outputAmount %s, amount rule gives %s", q.PairName, q.OutputAmount, want)
	}
	if q.InputCurrency != q.OutputCurrency && !hasFee(q.AppliedFees, "Conversion Fee") {
		t.Errorf("%s: currencies differ but no Conversion Fee is listed", q.PairName)
	}
	if q.PairName != wantPair {
		t.Errorf("pairName %q for %s→%s, want the market pair %s", q.PairName, q.InputCurrency, q.OutputCurrency, wantPair)
	}
	if q.QuoteToken == "" {
		t.Error("no quoteToken")
	}
}

func hasFee(fs []api.Fee, typ string) bool {
	for _, f := range fs {
		if f.Type == typ {
			return true
		}
	}
	return false
}

func TestQuoteAmountRuleAndCatalogue(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	op := e.as("operator")
	cases := []api.QuoteRequest{
		{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("1000")},
		{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON", InputAmount: dec("5432.10")},
		{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("250.123456")},
		{InputCurrency: "USDC", InputPaymentMethod: "BASE", OutputCurrency: "USD", OutputPaymentMethod: "WIRE", InputAmount: dec("10000"), BlockchainSendMethod: "PERMIT"},
		{InputCurrency: "USDT", InputPaymentMethod: "INTERNAL", OutputCurrency: "COP", OutputPaymentMethod: "BANK-TRANSFER", InputAmount: dec("77.7")},
		{InputCurrency: "EURC", InputPaymentMethod: "ETHEREUM", OutputCurrency: "EUR", OutputPaymentMethod: "SEPA", InputAmount: dec("300"), BlockchainSendMethod: "TRANSFER"},
		{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "ARS", OutputPaymentMethod: "CVU", InputAmount: dec("999.99"),
			MarkupFloatingFee: dec("0.01"), MarkupOutputFixedFee: dec("10")},
	}
	for _, req := range cases {
		q, err := op.Quote(ctx(t), req)
		if err != nil {
			t.Fatalf("%s→%s: %v", req.InputCurrency, req.OutputCurrency, err)
		}
		checkAmountRule(t, q)
		if money.Pegged(q.InputCurrency, q.OutputCurrency) && !q.BasePrice.Equal(decimal.NewFromInt(1)) {
			t.Errorf("%s: pegged pair at basePrice %s", q.PairName, q.BasePrice)
		}
		if money.IsChain(req.InputPaymentMethod) && q.BlockchainSendMethod != req.BlockchainSendMethod {
			t.Errorf("%s: blockchainSendMethod %q", q.PairName, q.BlockchainSendMethod)
		}
		if req.MarkupFloatingFee.Valid && (!q.MarkupAmount.IsPositive() || q.MarkupCurrency == "" || !hasFee(q.AppliedFees, "Markup Fee")) {
			t.Errorf("%s: markup not reflected: %s %q", q.PairName, q.MarkupAmount, q.MarkupCurrency)
		}
	}

	// An outputAmount quote asks for the smallest input that yields it.
	target := decimal.RequireFromString("1234.56")
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", OutputAmount: dec(target.String())}))
	checkAmountRule(t, q)
	if q.OutputAmount.LessThan(target) {
		t.Errorf("outputAmount quote yields %s, less than %s", q.OutputAmount, target)
	}
	less := q.InputAmount.Sub(decimal.New(1, -money.Precision("BRL")))
	fwd := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: decimal.NullDecimal{Decimal: less, Valid: true}}))
	if !fwd.OutputAmount.LessThan(target) {
		t.Errorf("input %s (one cent less) still yields %s ≥ %s: the input was not the smallest", less, fwd.OutputAmount, target)
	}

	// Rates drift over time, so that a re-quote visibly differs.
	seen := map[string]bool{}
	for i := 0; i < 12; i++ {
		q := must[*api.Quote](t)(op.Quote(ctx(t), cases[1]))
		seen[q.BasePrice.String()] = true
		e.clock.Add(10 * time.Second)
	}
	if len(seen) < 2 {
		t.Errorf("basePrice never moved over two minutes: %v", seen)
	}
}

func TestQuoteRefusals(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	op := e.as("operator")
	base := api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("100")}
	cases := []struct {
		name   string
		mod    func(*api.QuoteRequest)
		code   string
		naming string
	}{
		{"output-only input", func(r *api.QuoteRequest) { r.InputCurrency, r.InputPaymentMethod = "USD", "ACH" }, "UNSUPPORTED_PAIR", "USD"},
		{"same currency and method", func(r *api.QuoteRequest) { r.OutputCurrency, r.OutputPaymentMethod = "BRL", "PIX" }, "UNSUPPORTED_PAIR", "BRL"},
		{"method not offered", func(r *api.QuoteRequest) { r.OutputCurrency, r.OutputPaymentMethod = "EURC", "CELO" }, "UNSUPPORTED_PAIR", "CELO"},
		{"unknown currency", func(r *api.QuoteRequest) { r.OutputCurrency = "DOGE" }, "INVALID_FIELD", "outputCurrency"},
		{"too many decimals", func(r *api.QuoteRequest) { r.InputAmount = dec("1.001") }, "INVALID_AMOUNT", "inputAmount"},
		{"fees eat it all", func(r *api.QuoteRequest) {
			r.OutputCurrency, r.OutputPaymentMethod, r.InputAmount = "USD", "WIRE", dec("0.10")
		}, "AMOUNT_TOO_SMALL", "inputAmount"},
		{"markup over 20%", func(r *api.QuoteRequest) { r.MarkupFloatingFee = dec("0.5") }, "INVALID_FIELD", "markupFloatingFee"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := base
			c.mod(&r)
			_, err := op.Quote(ctx(t), r)
			ae := wantCode(t, err, http.StatusBadRequest, c.code)
			if !strings.Contains(ae.Message, c.naming) {
				t.Errorf("message %q does not name %q", ae.Message, c.naming)
			}
		})
	}
}
