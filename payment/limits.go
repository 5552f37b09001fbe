package payment

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// Usage adds up what payments take of the month's limits: by currency,
// direction (in or out of the service) and rail kind (fiat or chain). A
// move to or from the balance (INTERNAL) crosses no edge of the service and
// counts for nothing.
type Usage struct {
	sums map[usageKey]decimal.Decimal
	keys []usageKey // in the order first added, for stable messages
}

type usageKey struct {
	currency  string
	in, chain bool
}

// Add counts the quote's input and output.
func (u *Usage) Add(q *api.Quote) {
	if q == nil {
		return
	}
	u.add(q.InputCurrency, q.InputPaymentMethod, q.InputAmount, true)
	u.add(q.OutputCurrency, q.OutputPaymentMethod, q.OutputAmount, false)
}

func (u *Usage) add(currency, method string, amount decimal.Decimal, in bool) {
	method = strings.ToUpper(strings.TrimSpace(method))
	if method == "INTERNAL" || method == "" {
		return
	}
	k := usageKey{currency: money.Canonical(currency), in: in, chain: money.IsChain(method)}
	if u.sums == nil {
		u.sums = map[usageKey]decimal.Decimal{}
	}
	if _, ok := u.sums[k]; !ok {
		u.keys = append(u.keys, k)
	}
	u.sums[k] = u.sums[k].Add(amount)
}

// Over says, one line each, where the usage goes past what the month has
// left in l ("120.00 USD out by fiat rails, 80.00 USD left this month"),
// and that nothing may move when the account is blocked. It is empty when
// everything fits or no limit is known for a currency: the limits warn,
// the service decides.
func (u *Usage) Over(l *api.LimitInfo) []string {
	if l == nil {
		return nil
	}
	if l.Blocked {
		return []string{"the account is blocked from moving money: the service will refuse it"}
	}
	var out []string
	for _, k := range u.keys {
		lim, ok := l.Limit(k.currency)
		if !ok {
			continue
		}
		var left decimal.Decimal
		var dir string
		switch {
		case k.in && k.chain:
			left, dir = decimal.Max(decimal.Zero, lim.MaxChainIn.Sub(lim.UsedLimit.UsedChainIn)), "in from chains"
		case k.in:
			left, dir = decimal.Max(decimal.Zero, lim.MaxFiatIn.Sub(lim.UsedLimit.UsedFiatIn)), "in by fiat rails"
		case k.chain:
			left, dir = lim.ChainOutLeft(), "out to chains"
		default:
			left, dir = lim.FiatOutLeft(), "out by fiat rails"
		}
		if amount := u.sums[k]; amount.GreaterThan(left) {
			out = append(out, money.Format(amount, k.currency)+" "+k.currency+" "+dir+", "+money.Format(left, k.currency)+" "+k.currency+" left this month")
		}
	}
	return out
}
