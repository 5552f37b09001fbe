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
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// eodCutoff is the settlement cut-off, 21:00 UTC (18:00 in São Paulo).
const eodCutoff = 21 * time.Hour

// TradePage is a page of the operated account's trades, newest first,
// created inside w and accepted by match (nil: all), once the trades due
// were settled or cancelled.
func (e *Engine) TradePage(c Caller, w Window, cursor string, match func(*records.Trade) bool) ([]records.Trade, string, error) {
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
	t  *records.Trade
	to records.TradeStatus
	by *ticket // the paid settlement ticket, for SETTLED
}

func (m tradeMove) apply() {
	m.t.Status = m.to
	if m.to == records.TradeSettled {
		id := m.by.ID
		m.t.SettlementTicketID = &id
		m.t.SettledAt = m.by.UpdatedAt
	}
}

// tradeTransitions lists what is due for the account's pending trades at
// now. The caller holds e.mu.
func (e *Engine) tradeTransitions(writing bool, acct *Account, now time.Time) ([]tradeMove, error) {
	var pending []*records.Trade
	for _, t := range acct.trades.all() {
		if t.Status == records.TradePending {
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
		case tk != nil && tk.Status == records.TicketPaid && !tk.UpdatedAt.After(t.SettlementDate.Time):
			moves = append(moves, tradeMove{t: t, to: records.TradeSettled, by: tk})
		case tk != nil && tk.Status.Final() && tk.Status != records.TicketPaid:
			moves = append(moves, tradeMove{t: t, to: records.TradeCancelled})
		case !now.Before(t.SettlementDate.Time):
			moves = append(moves, tradeMove{t: t, to: records.TradeCancelled})
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
		if tk.Status == records.TicketPaid {
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
