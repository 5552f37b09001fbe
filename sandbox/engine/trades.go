// End-of-day trades (§5) and their demo data.
//
// An end-of-day trade is a conversion agreed during the day at a quoted
// rate and settled by a ticket before a cut-off. The trade and its
// settlement ticket share the quote: trade.quoteTokenId is the ticket's
// quote id. That link drives the lifecycle: a PENDING trade becomes SETTLED
// (settledAt = when the ticket was paid, settlementTicketId = the ticket)
// once its ticket is PAID by the settlement date, and CANCELLED when the
// ticket fails or expires, or when the settlement date passes without a
// paid ticket.

package engine

import (
	"strconv"
	"time"

	"github.com/google/uuid"
)

// eodCutoff is the settlement cut-off, 21:00 UTC (18:00 in São Paulo).
const eodCutoff = 21 * time.Hour

// Demo trades per account.
const (
	demoTradesSettled   = 8
	demoTradesCancelled = 3
	demoTradesPending   = 3 // backed by tickets in flight
	demoTradesOpen      = 2 // no settlement ticket yet
)

// TradePage is a page of the operated account's trades, newest first,
// created inside w and accepted by match (nil: all), once the trades due
// were settled or cancelled.
func (e *Engine) TradePage(c Caller, w Window, cursor string, match func(*Trade) bool) ([]Trade, string, error) {
	if err := e.settleDueTrades(c); err != nil {
		return nil, "", err
	}
	return e.Trades().Page(c, w, cursor, match)
}

// settleDueTrades moves the operated account's pending trades whose
// settlement ticket was decided, or whose settlement date passed. The
// check runs under the read lock; the write lock is taken only when a
// trade actually changes.
func (e *Engine) settleDueTrades(c Caller) error {
	e.mu.RLock()
	acct, err := e.scope(c)
	var moves []tradeMove
	if err == nil {
		moves, err = e.tradeTransitions(false, acct, c.Now)
	}
	e.mu.RUnlock()
	if err != nil || len(moves) == 0 {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err = e.scope(c)
	if err != nil {
		return err
	}
	moves, err = e.tradeTransitions(true, acct, c.Now)
	if err != nil {
		return err
	}
	for _, m := range moves {
		m.apply()
	}
	if len(moves) > 0 {
		e.changed(acct)
	}
	return nil
}

// tradeMove is one pending trade's transition.
type tradeMove struct {
	t  *Trade
	to TradeStatus
	by *ticket // the paid settlement ticket, for SETTLED
}

func (m tradeMove) apply() {
	m.t.Status = m.to
	if m.to == TradeSettled {
		id := m.by.ID
		m.t.SettlementTicketID = &id
		m.t.SettledAt = m.by.UpdatedAt
	}
}

// tradeTransitions lists what is due for the account's pending trades at
// now. The caller holds e.mu.
func (e *Engine) tradeTransitions(writing bool, acct *Account, now time.Time) ([]tradeMove, error) {
	var pending []*Trade
	for _, t := range acct.trades.all() {
		if t.Status == TradePending {
			pending = append(pending, t)
		}
	}
	if len(pending) == 0 {
		return nil, nil
	}
	var moves []tradeMove
	for _, t := range pending {
		tickets, err := e.ticketsWithQuote(writing, acct, t.QuoteTokenID)
		if err != nil {
			return nil, err
		}
		tk := settlementTicket(tickets, t.QuoteTokenID)
		// Decided by what happened first, so the answer does not depend
		// on when somebody looks: a ticket paid after the cut-off missed it.
		switch {
		case tk != nil && tk.Status == TicketPaid && !tk.UpdatedAt.After(t.SettlementDate.Time):
			moves = append(moves, tradeMove{t: t, to: TradeSettled, by: tk})
		case tk != nil && tk.Status.Final() && tk.Status != TicketPaid:
			moves = append(moves, tradeMove{t: t, to: TradeCancelled})
		case !now.Before(t.SettlementDate.Time):
			moves = append(moves, tradeMove{t: t, to: TradeCancelled})
		}
	}
	return moves, nil
}

// settlementTicket finds the ticket made from a trade's quote: the paid
// one if a quote was used more than once, else the newest.
func settlementTicket(tickets []*ticket, quoteID uuid.UUID) *ticket {
	var found *ticket
	for _, tk := range tickets {
		if tk.Quote.ID != quoteID {
			continue
		}
		if tk.Status == TicketPaid {
			return tk
		}
		found = tk
	}
	return found
}

// SettlementDay is the cut-off a trade agreed at created settles by, under
// terms "T+days": the first business-day cut-off not before created, then
// days business days later.
func SettlementDay(created time.Time, days int) time.Time {
	created = created.UTC()
	d := time.Date(created.Year(), created.Month(), created.Day(), 0, 0, 0, 0, time.UTC).Add(eodCutoff)
	if !created.Before(d) {
		d = d.AddDate(0, 0, 1)
	}
	d = businessDay(d)
	for range days {
		d = businessDay(d.AddDate(0, 0, 1))
	}
	return d
}

func businessDay(d time.Time) time.Time {
	for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// tradeFromTicket makes the trade whose settlement ticket is tk: same
// quote, currencies, methods, amounts, rate and fees.
func tradeFromTicket(id uuid.UUID, tk *ticket, days int) *Trade {
	q := tk.Quote
	created := q.CreatedAt.Time
	if created.IsZero() || created.After(tk.CreatedAt.Time) {
		created = tk.CreatedAt.Time
	}
	fees := make([]TradeFee, 0, len(q.AppliedFees))
	for _, f := range q.AppliedFees {
		fees = append(fees, TradeFee{Type: f.Type, Description: f.Description, Amount: f.Amount, Currency: f.Currency})
	}
	return &Trade{
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
		SettlementDate:      NewTime(SettlementDay(created, days)),
		Status:              TradePending,
		CreatedAt:           NewTime(created),
	}
}

// seedTrades adds an account's demo trades, each backed by one of its
// tickets: settled ones by paid tickets, cancelled ones by failed or
// expired tickets, and pending ones by the tickets still in flight, which
// settle or cancel them as they complete, plus a few agreed today and not
// due yet. The history has a dozen or so trades over the last 90 days in
// every state.
func (e *Engine) seedTrades(r demoRand, acct *Account, now time.Time) error {
	since := now.Add(-(demoDays - 4) * 24 * time.Hour)
	var paid, failed, live []*ticket
	all, err := e.allTickets(true, acct)
	if err != nil {
		return err
	}
	for _, tk := range all {
		if tk.Quote.ID == uuid.Nil {
			continue
		}
		switch tk.Status {
		case TicketPaid:
			if tk.CreatedAt.After(since) {
				paid = append(paid, tk)
			}
		case TicketFailed, TicketPartialFailed, TicketCanceled:
			if tk.CreatedAt.After(since) {
				failed = append(failed, tk)
			}
		case TicketUnpaid, TicketProcessing:
			// Held and queued tickets wait on a person or a calendar;
			// a demo trade in flight rides on one that moves by itself.
			live = append(live, tk)
		}
	}
	var trades []*Trade
	for _, tk := range pickTickets(r, paid, demoTradesSettled-1+r.IntN(3)) {
		t := tradeFromTicket(r.uuid(), tk, r.IntN(2))
		t.Status = TradeSettled
		id := tk.ID
		t.SettlementTicketID = &id
		t.SettledAt = tk.UpdatedAt
		if t.SettledAt.After(t.SettlementDate.Time) {
			// Agreed just before a cut-off and paid just after: the next one.
			t.SettlementDate = NewTime(SettlementDay(t.SettledAt.Time, 0))
		}
		trades = append(trades, t)
	}
	for _, tk := range pickTickets(r, failed, demoTradesCancelled-1+r.IntN(2)) {
		t := tradeFromTicket(r.uuid(), tk, r.IntN(2))
		t.Status = TradeCancelled
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
		t.CreatedAt = NewTime(created)
		t.SettlementDate = NewTime(SettlementDay(created, days))
		trades = append(trades, t)
	}
	for _, t := range trades {
		acct.trades.add(t.CreatedAt.Time, t.ID, t)
	}
	return nil
}

// pickTickets draws up to n distinct tickets.
func pickTickets(r demoRand, from []*ticket, n int) []*ticket {
	if n > len(from) {
		n = len(from)
	}
	out := make([]*ticket, 0, n)
	for _, i := range r.Perm(len(from))[:n] {
		out = append(out, from[i])
	}
	return out
}
