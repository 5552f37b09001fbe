package batch

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// quoteRequest is the quote a row needs: the amount the beneficiary
// receives (outputAmount), out of a balance of the account.
func quoteRequest(p *Planned, o Options) api.QuoteRequest {
	return api.QuoteRequest{
		SubAccountID:  o.SubAccountID,
		InputCurrency: p.Source, InputPaymentMethod: "INTERNAL",
		OutputCurrency: p.Currency, OutputPaymentMethod: p.Method,
		OutputThirdParty: true,
		OutputAmount:     decimal.NewNullDecimal(p.Amount),
	}
}

// quote prices one row and records when its quote stops being accepted.
func quote(ctx context.Context, svc Service, p *Planned, o Options) error {
	sent := o.Clock.Now()
	q, err := svc.Quote(ctx, quoteRequest(p, o))
	if err != nil {
		return err
	}
	if !q.OutputAmount.Equal(p.Amount) || q.OutputCurrency != p.Currency {
		return fmt.Errorf("the quote pays %s %s, the row %s %s", money.Wire(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, money.Wire(p.Amount, p.Currency), p.Currency)
	}
	p.Quote, p.Deadline = q, sent.Add(QuoteLife)
	return nil
}

// Price quotes every valid row, at most o.Concurrency at a time, and
// records each one's input amount as the reviewed one. A row that cannot
// be priced gets the reason as its problem.
func Price(ctx context.Context, svc Service, rows []*Planned, o Options) {
	o = o.withDefaults()
	var todo []*Planned
	for _, r := range rows {
		if r.Problem == "" {
			todo = append(todo, r)
		}
	}
	each(ctx, len(todo), o.Concurrency, func(i int) {
		p := todo[i]
		if err := quote(ctx, svc, p, o); err != nil {
			p.Problem = "cannot be priced: " + err.Error()
			return
		}
		p.Reviewed = p.Quote.InputAmount
	})
}

// fresh makes sure p holds a quote that will still be accepted o.Margin
// from now, quoting again when it would not, and refuses a re-quote that
// costs more than the reviewed amount allows.
func fresh(ctx context.Context, svc Service, p *Planned, o Options) (requoted bool, err error) {
	if p.Quote != nil && p.Deadline.Sub(o.Clock.Now()) >= o.Margin {
		return false, nil
	}
	if err := quote(ctx, svc, p, o); err != nil {
		return true, fmt.Errorf("quote again: %w", err)
	}
	if !p.Reviewed.IsZero() {
		ceiling := p.Reviewed.Mul(decimal.NewFromInt(1).Add(o.MaxDrift))
		if p.Quote.InputAmount.GreaterThan(ceiling) {
			return true, fmt.Errorf("%w: the price moved since the review: %s %s now, %s reviewed (more than %s%% up); run the batch again to review it", errDrift,
				money.Wire(p.Quote.InputAmount, p.Source), p.Source, money.Wire(p.Reviewed, p.Source), o.MaxDrift.Mul(decimal.NewFromInt(100)).String())
		}
	}
	return true, nil
}
