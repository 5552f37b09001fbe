package approvals

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
)

// An approval executes the parked quote at its price, however old. The
// confirmation says when it was quoted and how long ago, its price, the
// price of a quote asked now for the same pair and amount, and how much
// more or less the beneficiary would receive today, in amber with the
// words "this executes at the parked price" once the quote is older than
// staleAfter.

// staleAfter is the age past which a parked price is called out.
const staleAfter = 15 * time.Minute

// today is the quote asked now for a parked operation, or why there is
// none.
type today struct {
	q   *api.Quote
	err error
}

// priceToday asks for a quote of the same pair, methods and amount as the
// parked one, in the account the operation acts on (acct), through the
// payment core that reads the parked request back into its intent.
func priceToday(ctx context.Context, svc Service, op *api.Operation, acct uuid.UUID) today {
	var q api.Quote
	if len(op.DecodedQuote) == 0 || json.Unmarshal(op.DecodedQuote, &q) != nil {
		return today{err: fmt.Errorf("the service sent no readable quote")}
	}
	var req api.CreateTicketRequest
	_ = json.Unmarshal(op.Payload, &req) // what it cannot read leaves the intent's output empty
	in := payment.FromRequest(req, &q)
	in.Account = acct
	qr := in.QuoteRequest()
	if q.MarkupAmount.IsPositive() {
		qr.MarkupInputFixedFee, qr.MarkupCurrency = decimal.NewNullDecimal(q.MarkupAmount.Decimal), q.MarkupCurrency
	}
	fresh, err := svc.Quote(ctx, qr)
	return today{q: fresh, err: err}
}

// priceText is how a price is written: the pair and its base price, as
// every screen writes it today. The one place to change when prices are
// written as the market pair reads them.
func priceText(q *quote) string {
	return q.price().String()
}

// price is the quote's price as the service states it (§8.1), by the one
// reading every screen uses.
func (q *quote) price() payment.Price {
	return payment.PriceOf(q.PairName, q.BasePrice, q.InputCurrency, q.OutputCurrency)
}

// quotedAt is when the parked price was quoted: the quote's own time when
// it carries one, else the operation's (the request was parked with it).
func quotedAt(op api.Operation, q *quote) time.Time {
	if q != nil && !q.At.IsZero() {
		return q.At
	}
	return op.CreatedAt.Time
}

// priceLines are the confirmation's lines about the price: when it was
// quoted and how long ago, then and now, and what the difference is to
// the beneficiary.
func (m *Screen) priceLines(it *item, t *today) []string {
	th := m.s.Styles()
	q := it.quote
	now := m.s.Now()
	at := quotedAt(it.op, q)
	old := now.Sub(at)
	when := fmt.Sprintf("Quoted:      %s, %s ago", at.In(now.Location()).Format("2006-01-02 15:04:05"), ageLong(old))
	var out []string
	if old > staleAfter {
		out = append(out, th.Warn.Render(when+": this executes at the parked price"))
	} else {
		out = append(out, when)
	}
	if q == nil {
		return out
	}
	out = append(out, "Price then:  "+priceText(q))
	switch {
	case t == nil:
		out = append(out, "Price now:   not asked")
	case t.err != nil:
		out = append(out, "Price now:   unknown: "+ui.ErrorText(t.err))
	case t.q != nil:
		out = append(out, "Price now:   "+payment.QuotePrice(t.q).String())
		diff := t.q.OutputAmount.Sub(q.OutputAmount)
		change := "the same"
		if !diff.IsZero() {
			change = sign(diff) + amount(diff.Abs(), q.OutputCurrency)
		}
		line := fmt.Sprintf("Receives:    %s at the parked price; %s at today's (%s)",
			q.Receives(), amount(t.q.OutputAmount, t.q.OutputCurrency), change)
		if old > staleAfter && !diff.IsZero() {
			line = th.Warn.Render(line)
		}
		out = append(out, line)
	}
	return out
}

func sign(d decimal.Decimal) string {
	if d.IsNegative() {
		return "−"
	}
	return "+"
}

// ageLong is a duration as the confirmation says it: "5h 02m", "3m 10s".
func ageLong(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd %02dh", int(d.Hours())/24, int(d.Hours())%24)
	case d >= time.Hour:
		return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}
