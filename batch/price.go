package batch

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
)

// quote prices one row (the quote its payment asks for) and records when
// the quote stops being accepted.
func quote(ctx context.Context, svc Service, p *Planned, o Options) error {
	in := p.Intent(o.SubAccountID, "")
	sent := o.Clock.Now()
	q, err := svc.Quote(ctx, in.QuoteRequest())
	if err != nil {
		return err
	}
	if err := in.Prices(q); err != nil {
		return err
	}
	p.Quote, p.Deadline = q, sent.Add(QuoteLife)
	return nil
}

// Price quotes every row to pay, at most o.Concurrency at a time, and
// records each one's input amount as the reviewed one. A row that cannot
// be priced gets the reason as its problem.
func Price(ctx context.Context, svc Service, rows []*Planned, o Options) {
	o = o.withDefaults()
	var todo []*Planned
	for _, r := range rows {
		if r.State() == StateNew {
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
