package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
)

// TestAmountRuleProperties checks the amount rule and the reverse quote on
// many amounts and pairs, without HTTP.
func TestAmountRuleProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pairs := []QuoteRequest{
		{InputCurrency: "BRL", InputMethod: "PIX", OutputCurrency: "USDC", OutputMethod: "POLYGON"},
		{InputCurrency: "BRLA", InputMethod: "INTERNAL", OutputCurrency: "BRL", OutputMethod: "PIX"},
		{InputCurrency: "USDT", InputMethod: "INTERNAL", OutputCurrency: "COP", OutputMethod: "BANK-TRANSFER"},
		{InputCurrency: "EURC", InputMethod: "BASE", OutputCurrency: "USD", OutputMethod: "ACH"},
		{InputCurrency: "BRL", InputMethod: "PIX", OutputCurrency: "EURC", OutputMethod: "INTERNAL", MarkupFloatingFee: decimal.RequireFromString("0.0125"), MarkupOutputFixedFee: decimal.RequireFromString("0.5")},
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range pairs {
		bp := basePrice(p.InputCurrency, p.OutputCurrency, at)
		inPrec := money.Precision(p.InputCurrency)
		for i := 0; i < 200; i++ {
			in := randomAmount(r, 20, 200000, inPrec)
			fees, out := p.forward(in, bp)
			inSum, outSum := decimal.Zero, decimal.Zero
			for _, f := range fees {
				if f.Currency == p.InputCurrency {
					inSum = inSum.Add(f.Amount)
				} else {
					outSum = outSum.Add(f.Amount)
				}
				if !f.Amount.Equal(f.Amount.Round(money.Precision(f.Currency))) {
					t.Fatalf("fee %s %s has more decimals than %s takes", f.Type, f.Amount, f.Currency)
				}
			}
			if want := in.Sub(inSum).Mul(bp).Sub(outSum).RoundFloor(money.Precision(p.OutputCurrency)); !out.Equal(want) {
				t.Fatalf("%s→%s %s: out %s, rule %s", p.InputCurrency, p.OutputCurrency, in, out, want)
			}
			if !out.IsPositive() {
				continue
			}
			// Reverse: the smallest input that yields at least out.
			got, ok := p.solveInput(out, bp)
			if !ok {
				t.Fatalf("no input found for %s %s", out, p.OutputCurrency)
			}
			if _, o := p.forward(got, bp); o.LessThan(out) {
				t.Fatalf("solved input %s yields %s < %s", got, o, out)
			}
			if _, o := p.forward(got.Sub(decimal.New(1, -inPrec)), bp); !o.LessThan(out) {
				t.Fatalf("solved input %s is not the smallest for %s", got, out)
			}
			if got.GreaterThan(in) {
				t.Fatalf("solved input %s is more than %s, which already yields %s", got, in, out)
			}
		}
	}
}

// randomAmount is a decimal in [lo, hi) with prec decimals.
func randomAmount(r *rand.Rand, lo, hi int64, prec int32) decimal.Decimal {
	scale := int64(1)
	for range prec {
		scale *= 10
	}
	return decimal.New(lo*scale+r.Int64N((hi-lo)*scale), -prec)
}
