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
			// §8.1: times the price when the input is the pair's base,
			// divided by it when the input is BRL-side and the output not.
			net := in.Sub(inSum).Mul(bp)
			if brl := map[string]bool{"BRL": true, "BRLA": true}; brl[p.InputCurrency] && !brl[p.OutputCurrency] {
				net = in.Sub(inSum).DivRound(bp, 18)
			}
			if want := net.Sub(outSum).RoundFloor(money.Precision(p.OutputCurrency)); !out.Equal(want) {
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

// TestPricesNameTheMarketPair holds the sandbox to §8.1: the pair is the
// market's, BASE then QUOTE, whatever way the money flows, and the price is
// units of QUOTE for one BASE.
func TestPricesNameTheMarketPair(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		in, out, pair string
		lo, hi        string // the price's range
	}{
		{"BRLA", "USDT", "USDTBRLA", "5.3", "5.5"}, // the guide's pair: ~5.4 BRLA per USDT
		{"USDT", "BRLA", "USDTBRLA", "5.3", "5.5"},
		{"BRL", "USDC", "USDCBRL", "5.3", "5.5"},
		{"BRL", "BRLA", "BRLBRLA", "1", "1"},
		{"USDT", "USDT", "USDTUSDT", "1", "1"},
		{"USDC", "USD", "USDCUSD", "1", "1"},
		{"USDT", "COP", "USDTCOP", "3900", "4200"},
	} {
		q := &QuoteClaims{InputCurrency: c.in, OutputCurrency: c.out}
		bp := basePrice(c.in, c.out, at)
		if q.PairName() != c.pair || bp.LessThan(decimal.RequireFromString(c.lo)) || bp.GreaterThan(decimal.RequireFromString(c.hi)) {
			t.Errorf("%s→%s: pair %s at %s, want %s in [%s, %s]", c.in, c.out, q.PairName(), bp, c.pair, c.lo, c.hi)
		}
	}
	// BRLA→USDT, 582.446313 BRLA in (the guide's amounts at its price of
	// 5.7895): 100 USDT out after a 0.6% conversion fee.
	p := QuoteRequest{InputCurrency: "BRLA", InputMethod: "INTERNAL", OutputCurrency: "USDT", OutputMethod: "INTERNAL"}
	_, out := p.forward(decimal.RequireFromString("582.446313"), decimal.RequireFromString("5.7895"))
	if out.LessThan(decimal.RequireFromString("99")) || out.GreaterThan(decimal.RequireFromString("101")) {
		t.Errorf("582.446313 BRLA at USDTBRLA 5.7895 gives %s USDT, want about 100", out)
	}
}
