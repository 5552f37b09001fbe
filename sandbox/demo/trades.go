package demo

import (
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Demo trades per account.
const (
	demoTradesSettled   = 8
	demoTradesCancelled = 3
	demoTradesPending   = 3 // backed by tickets in flight
	demoTradesOpen      = 2 // no settlement ticket yet
)

// tradeFromTicket makes the trade whose settlement ticket is tk: same
// quote, currencies, methods, amounts, rate and fees.
func tradeFromTicket(id uuid.UUID, tk *records.Ticket, days int) *records.Trade {
	q := tk.Quote
	created := q.CreatedAt.Time
	if created.IsZero() || created.After(tk.CreatedAt.Time) {
		created = tk.CreatedAt.Time
	}
	fees := make([]records.TradeFee, 0, len(q.AppliedFees))
	for _, f := range q.AppliedFees {
		fees = append(fees, records.TradeFee{Type: f.Type, Description: f.Description, Amount: f.Amount, Currency: f.Currency})
	}
	return &records.Trade{
		ID:                  id,
		InputCurrency:       q.InputCurrency,
		InputPaymentMethod:  q.InputPaymentMethod,
		InputAmount:         q.InputAmount,
		OutputCurrency:      q.OutputCurrency,
		OutputPaymentMethod: q.OutputPaymentMethod,
		OutputAmount:        q.OutputAmount,
		BasePrice:           q.BasePrice,
		AppliedFees:         fees,
		QuoteTokenID:        q.ID,
		SettlementTerms:     "T+" + strconv.Itoa(days),
		SettlementDate:      records.NewTime(engine.SettlementDay(created, days)),
		Status:              records.TradePending,
		CreatedAt:           records.NewTime(created),
	}
}

// trades adds an account's demo trades, each backed by one of its
// tickets: settled ones by paid tickets, cancelled ones by failed or
// expired tickets, and pending ones by the tickets still in flight, which
// settle or cancel them as they complete, plus a few agreed today and not
// due yet. The history has a dozen or so trades over the last 90 days in
// every state.
func (p *past) trades(acct *engine.Account) error {
	r, now := p.r, p.now
	since := now.Add(-(demoDays - 4) * 24 * time.Hour)
	var paid, failed, live []*records.Ticket
	all, err := p.h.Tickets(acct)
	if err != nil {
		return err
	}
	for _, tk := range all {
		if tk.Quote.ID == uuid.Nil {
			continue
		}
		switch tk.Status {
		case records.TicketPaid:
			if tk.CreatedAt.After(since) {
				paid = append(paid, tk)
			}
		case records.TicketFailed, records.TicketPartialFailed, records.TicketCanceled:
			if tk.CreatedAt.After(since) {
				failed = append(failed, tk)
			}
		case records.TicketUnpaid, records.TicketProcessing:
			// Held and queued tickets wait on a person or a calendar;
			// a demo trade in flight rides on one that moves by itself.
			live = append(live, tk)
		}
	}
	var trades []*records.Trade
	for _, tk := range pickTickets(r, paid, demoTradesSettled-1+r.IntN(3)) {
		t := tradeFromTicket(r.uuid(), tk, r.IntN(2))
		t.Status = records.TradeSettled
		id := tk.ID
		t.SettlementTicketID = &id
		t.SettledAt = tk.UpdatedAt
		if t.SettledAt.After(t.SettlementDate.Time) {
			// Agreed just before a cut-off and paid just after: the next one.
			t.SettlementDate = records.NewTime(engine.SettlementDay(t.SettledAt.Time, 0))
		}
		trades = append(trades, t)
	}
	for _, tk := range pickTickets(r, failed, demoTradesCancelled-1+r.IntN(2)) {
		t := tradeFromTicket(r.uuid(), tk, r.IntN(2))
		t.Status = records.TradeCancelled
		trades = append(trades, t)
	}
	// The newest tickets in flight: they decide their trades while the
	// sandbox runs. T+1 leaves them a business day.
	if len(live) > demoTradesPending {
		live = live[len(live)-demoTradesPending:]
	}
	for _, tk := range live {
		trades = append(trades, tradeFromTicket(r.uuid(), tk, 1))
	}
	// Trades agreed today whose settlement ticket is not made yet: they
	// stay pending until their cut-off, a business day or two away, and
	// are cancelled if it passes without a paid ticket from their quote.
	// Their economics repeat a past trade's, on a fresh quote.
	for _, tk := range pickTickets(r, paid, demoTradesOpen) {
		days := 1 + r.IntN(2)
		t := tradeFromTicket(r.uuid(), tk, days)
		t.QuoteTokenID = r.uuid()
		created := now.Add(-time.Duration(5+r.IntN(360)) * time.Minute)
		t.CreatedAt = records.NewTime(created)
		t.SettlementDate = records.NewTime(engine.SettlementDay(created, days))
		trades = append(trades, t)
	}
	for _, t := range trades {
		p.e.Trades().Put(acct, t.CreatedAt.Time, t.ID, t)
	}
	return nil
}

// pickTickets draws up to n distinct tickets.
func pickTickets(r demoRand, from []*records.Ticket, n int) []*records.Ticket {
	if n > len(from) {
		n = len(from)
	}
	out := make([]*records.Ticket, 0, n)
	for _, i := range r.Perm(len(from))[:n] {
		out = append(out, from[i])
	}
	return out
}
