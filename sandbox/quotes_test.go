package sandbox

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
)

// TestAmountRuleProperties checks the amount rule and the reverse quote on
// many amounts and pairs, without HTTP.
func TestAmountRuleProperties(t *testing.T) {
	r := newDemoRand(1, "amounts")
	pairs := []quoteParams{
		{inCur: "BRL", inMethod: "PIX", outCur: "USDC", outMethod: "POLYGON"},
		{inCur: "BRLA", inMethod: "INTERNAL", outCur: "BRL", outMethod: "PIX"},
		{inCur: "USDT", inMethod: "INTERNAL", outCur: "COP", outMethod: "BANK-TRANSFER"},
		{inCur: "EURC", inMethod: "BASE", outCur: "USD", outMethod: "ACH"},
		{inCur: "BRL", inMethod: "PIX", outCur: "EURC", outMethod: "INTERNAL", markupPct: decimal.RequireFromString("0.0125"), markupOut: decimal.RequireFromString("0.5")},
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range pairs {
		bp := basePrice(p.inCur, p.outCur, at)
		inPrec := money.Precision(p.inCur)
		for i := 0; i < 200; i++ {
			in := r.amount(20, 200000, inPrec)
			fees, out := p.forward(in, bp)
			inSum, outSum := decimal.Zero, decimal.Zero
			for _, f := range fees {
				if f.Currency == p.inCur {
					inSum = inSum.Add(f.Amount)
				} else {
					outSum = outSum.Add(f.Amount)
				}
				if !f.Amount.Equal(f.Amount.Round(money.Precision(f.Currency))) {
					t.Fatalf("fee %s %s has more decimals than %s takes", f.Type, f.Amount, f.Currency)
				}
			}
			if want := in.Sub(inSum).Mul(bp).Sub(outSum).RoundFloor(money.Precision(p.outCur)); !out.Equal(want) {
				t.Fatalf("%s→%s %s: out %s, rule %s", p.inCur, p.outCur, in, out, want)
			}
			if !out.IsPositive() {
				continue
			}
			// Reverse: the smallest input that yields at least out.
			got, ok := p.solveInput(out, bp)
			if !ok {
				t.Fatalf("no input found for %s %s", out, p.outCur)
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
