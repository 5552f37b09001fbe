package payment

import (
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
)

// TestPriceNamesTheMarketPair: the service's own guide (service.md §8.1)
// and the sandbox's rule where the guide is silent.
func TestPriceNamesTheMarketPair(t *testing.T) {
	cases := []struct {
		pair, rate, in, out string
		price, inverse      string
	}{
		// The guide: BRLA→USDT prices the pair USDTBRLA.
		{"USDTBRLA", "5.7895", "BRLA", "USDT", "1 USDT = 5.789500 BRLA", "1 BRLA = 0.172726 USDT"},
		// The same pair the other way: the price does not turn round.
		{"USDTBRLA", "5.7895", "USDT", "BRLA", "1 USDT = 5.789500 BRLA", "1 BRLA = 0.172726 USDT"},
		{"BRLBRLA", "1", "BRL", "BRLA", "1 BRL = 1.000000 BRLA", "1 BRLA = 1.00 BRL"},
		{"USDTUSDT", "1", "USDT", "USDT", "1 USDT = 1.000000 USDT", "1 USDT = 1.000000 USDT"},
		// A pair written input first (the seed's reading) is read so too.
		{"BRLAUSDC", "0.18517", "BRLA", "USDC", "1 BRLA = 0.185170 USDC", "1 USDC = 5.400443 BRLA"},
		// No pair name: the side that is not BRL-side is the base.
		{"", "5.41", "BRL", "USDC", "1 USDC = 5.41 BRL", "1 BRL = 0.184843 USDC"},
		{"", "0.99", "USDC", "USD", "1 USDC = 0.99 USD", "1 USD = 1.010101 USDC"},
		{"USDTCOP", "4012.5", "USDT", "COP", "1 USDT = 4,012.50 COP", "1 COP = 0.000249 USDT"},
	}
	for _, tc := range cases {
		p := PriceOf(tc.pair, d(tc.rate), tc.in, tc.out)
		if got := p.String(); got != tc.price {
			t.Errorf("%s %s %s→%s: %q, want %q", tc.pair, tc.rate, tc.in, tc.out, got, tc.price)
		}
		if got := p.Inverse().String(); got != tc.inverse {
			t.Errorf("%s %s %s→%s inverse: %q, want %q", tc.pair, tc.rate, tc.in, tc.out, got, tc.inverse)
		}
	}
	if got := (Price{}).String(); got != "—" {
		t.Errorf("an unknown price reads %q", got)
	}
}

// TestEffectiveRateIsAfterFees: the guide's BRLA→USDT quote of 100 USDT
// costs 582.446313 BRLA with its fees: 0.171690 USDT per BRLA, below the
// market's 0.172726.
func TestEffectiveRateIsAfterFees(t *testing.T) {
	q := &api.Quote{InputCurrency: "BRLA", OutputCurrency: "USDT", InputAmount: d("582.446313"), OutputAmount: d("100"), PairName: "USDTBRLA", BasePrice: d("5.7895")}
	if got := Effective(q); got != "1 BRLA → 0.171690 USDT" {
		t.Errorf("Effective = %q", got)
	}
	// The market price agrees with the quote's own amounts within 1 %:
	// (input − fees in input) ÷ price = output.
	net := q.InputAmount.Sub(d("3.494677"))
	if got := net.Div(QuotePrice(q).Rate); got.Sub(d("100")).Abs().GreaterThan(d("1")) {
		t.Errorf("the price does not account for the quote's amounts: %s USDT", got)
	}
	if Effective(&api.Quote{}) != "" {
		t.Error("a quote without amounts has an effective rate")
	}
}
