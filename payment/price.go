package payment

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// Price is a quote's price as the service states it: the market pair, not
// the direction the money flows (service.md §8.1). Rate units of Quote buy
// one Base: BRLA→USDT answers the pair USDTBRLA at 5.7895, "1 USDT =
// 5.7895 BRLA", whichever way the money goes.
type Price struct {
	Base, Quote string
	Rate        decimal.Decimal
}

// PriceOf reads a price from a pair name and base price, for a trade from
// input to output currency. The pair names which side is the base: the
// input's code then the output's (input is the base), or the other way
// round. A pair that names neither way is read by the rule the sandbox
// follows: the base is the side that is not BRL or BRLA, the input when
// both or neither are.
func PriceOf(pairName string, basePrice decimal.Decimal, input, output string) Price {
	in, out := money.Canonical(input), money.Canonical(output)
	pair := strings.ToUpper(strings.TrimSpace(pairName))
	switch {
	case pair == strings.ToUpper(in+out):
		return Price{Base: in, Quote: out, Rate: basePrice}
	case pair == strings.ToUpper(out+in):
		return Price{Base: out, Quote: in, Rate: basePrice}
	case brlSide(in) && !brlSide(out):
		return Price{Base: out, Quote: in, Rate: basePrice}
	}
	return Price{Base: in, Quote: out, Rate: basePrice}
}

// QuotePrice is the price of a quote.
func QuotePrice(q *api.Quote) Price {
	return PriceOf(q.PairName, q.BasePrice, q.InputCurrency, q.OutputCurrency)
}

// TicketPrice is the price a ticket was made at.
func TicketPrice(q api.TicketQuote) Price {
	return PriceOf(q.PairName, q.BasePrice, q.InputCurrency, q.OutputCurrency)
}

func brlSide(c string) bool { return c == "BRL" || c == "BRLA" }

// Known reports whether the price says anything: a positive rate between
// two named currencies.
func (p Price) Known() bool { return p.Rate.IsPositive() && p.Base != "" && p.Quote != "" }

// String is the price in words: "1 USDT = 5.789500 BRLA", the rate at the
// quote currency's precision; "—" when unknown.
func (p Price) String() string {
	if !p.Known() {
		return "—"
	}
	return "1 " + p.Base + " = " + money.Format(p.Rate, p.Quote) + " " + p.Quote
}

// Inverse is the same price the other way round: "1 BRLA = 0.172727 USDT",
// at the base currency's precision (the rate rounded half up).
func (p Price) Inverse() Price {
	if !p.Known() {
		return Price{Base: p.Quote, Quote: p.Base}
	}
	return Price{Base: p.Quote, Quote: p.Base, Rate: decimal.NewFromInt(1).DivRound(p.Rate, 12)}
}

// Both is the price and its inverse in one line: "1 USDT = 5.789500 BRLA ·
// 1 BRLA = 0.172727 USDT" (the price alone for a currency against itself).
func (p Price) Both() string {
	if !p.Known() || p.Base == p.Quote {
		return p.String()
	}
	return p.String() + " · " + p.Inverse().String()
}

// Effective is what one unit sent buys after every fee, in the direction
// of the trade: "1 BRLA → 0.171234 USDT" (shown beside "after fees"), at the output
// currency's precision; "" when the quote carries no amounts.
func Effective(q *api.Quote) string {
	if q == nil || !q.InputAmount.IsPositive() || !q.OutputAmount.IsPositive() {
		return ""
	}
	in, out := money.Canonical(q.InputCurrency), money.Canonical(q.OutputCurrency)
	rate := q.OutputAmount.DivRound(q.InputAmount, money.Precision(out)+2)
	return "1 " + in + " → " + money.Format(rate, out) + " " + out
}
