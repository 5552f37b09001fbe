package engine

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// A ticket is stored as one row (store.TicketRow): the ticket as the
// service shows it is its detail, so that answers about it are made of the
// stored bytes, and the columns the list filters and the lifecycle read
// are copied out of it.

// ticketRow is the stored form of a ticket; it keeps the detail it encodes
// as the ticket's stored JSON.
func ticketRow(t *ticket) (*store.TicketRow, error) {
	// Stored as the list answers it, so a page is served from these bytes.
	detail, err := records.Encode(&t.Ticket)
	if err != nil {
		return nil, fmt.Errorf("ticket %s: %w", t.ID, err)
	}
	t.stored = detail
	quote := t.q.raw
	if quote == nil {
		if quote, err = json.Marshal(&t.q); err != nil {
			return nil, fmt.Errorf("ticket %s quote: %w", t.ID, err)
		}
	}
	r := transitionRow(t, detail)
	r.AccountID, r.AccessID, r.ExternalID = t.acct.ID, t.accessID, t.ExternalID
	r.InputCurrency, r.InputMethod = t.Quote.InputCurrency, t.Quote.InputPaymentMethod
	r.OutputCurrency, r.OutputMethod = t.Quote.OutputCurrency, t.Quote.OutputPaymentMethod
	r.QuoteID, r.CreatedAt, r.ExpiresAt = t.Quote.ID, t.CreatedAt.Time, t.ExpiresAt.Time
	r.OutKind, r.OutID, r.Quote = t.outKind, t.outID, quote
	return r, nil
}

// transitionRow is what a transition changes of a ticket's row.
func transitionRow(t *ticket, detail []byte) *store.TicketRow {
	return &store.TicketRow{
		ID: t.ID, Status: string(t.Status), UpdatedAt: t.UpdatedAt.Time,
		SenderE2E: senderE2E(t), ReceiverE2E: receiverE2E(t), FundAt: t.fundAt, PayAt: t.payAt,
		Debited: t.debited, Held: t.held, FailReason: t.failReason, Detail: detail,
	}
}

// insertTicket stores a new ticket. The caller holds e.mu for writing.
func (e *Engine) insertTicket(t *ticket) {
	row, err := ticketRow(t)
	if err != nil {
		e.db.Fail(err)
		return
	}
	e.db.InsertTicket(row)
	e.usage.changed()
}

// saveTicket writes a ticket's transition: one row, and only the columns
// a transition changes (the quote, fixed at creation, is not encoded
// again). The caller holds e.mu for writing.
func (e *Engine) saveTicket(t *ticket) {
	detail, err := records.Encode(&t.Ticket)
	if err != nil {
		e.db.Fail(fmt.Errorf("ticket %s: %w", t.ID, err))
		return
	}
	t.stored = detail
	e.db.UpdateTicket(transitionRow(t, detail))
	e.usage.changed()
}

// ticketOf is the ticket a stored row holds.
func (e *Engine) ticketOf(r *store.TicketRow) (*ticket, error) {
	t := &ticket{failReason: r.FailReason, outKind: r.OutKind, stored: r.Detail}
	if err := json.Unmarshal(t.stored, &t.Ticket); err != nil {
		return nil, fmt.Errorf("ticket %s: detail: %w", r.ID, err)
	}
	if err := json.Unmarshal(r.Quote, &t.q); err != nil {
		return nil, fmt.Errorf("ticket %s: quote: %w", r.ID, err)
	}
	t.acct = e.st.accounts[r.AccountID]
	if t.acct == nil {
		return nil, fmt.Errorf("ticket %s: unknown account %s", r.ID, r.AccountID)
	}
	t.accessID, t.outID, t.debited, t.held, t.fundAt, t.payAt = r.AccessID, r.OutID, r.Debited, r.Held, r.FundAt, r.PayAt
	return t, nil
}

// loadTicket reads a ticket of acct (nil, nil: none); writing says whether
// the caller holds e.mu for writing (and so reads through its
// transaction).
func (e *Engine) loadTicket(writing bool, acct *Account, id uuid.UUID) (*ticket, error) {
	r, err := e.db.Ticket(writing, acct.ID, id)
	if r == nil || err != nil {
		return nil, err
	}
	return e.ticketOf(r)
}

// ticketByID reads a ticket whatever its account (the lifecycle's lookup).
func (e *Engine) ticketByID(writing bool, id uuid.UUID) (*ticket, error) {
	r, err := e.db.TicketByID(writing, id)
	if r == nil || err != nil {
		return nil, err
	}
	return e.ticketOf(r)
}

// ticketPage reads up to limit tickets of acct matching f, newest first,
// from the cursor, as their stored JSON: a page is answered without
// decoding a ticket. next is empty on the last page. The caller holds e.mu.
func (e *Engine) ticketPage(acct *Account, f store.TicketFilter, cursor string, limit int) ([]json.RawMessage, string, error) {
	var after *store.Key
	if cursor != "" {
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		after = &store.Key{At: at, ID: id}
	}
	items, next, err := e.db.TicketPage(acct.ID, f, after, limit)
	if err != nil || next == nil {
		return items, "", err
	}
	return items, encodeCursor(next.At, next.ID), nil
}

// ticketsWithQuote reads the tickets made from a quote, oldest first.
func (e *Engine) ticketsWithQuote(writing bool, acct *Account, quoteID uuid.UUID) ([]*ticket, error) {
	rows, err := e.db.TicketsWithQuote(writing, acct.ID, quoteID)
	if err != nil {
		return nil, err
	}
	return e.ticketsOf(rows)
}

// allTickets reads every ticket of acct, oldest first (demo history only:
// a few hundred).
func (e *Engine) allTickets(writing bool, acct *Account) ([]*ticket, error) {
	rows, err := e.db.AccountTickets(writing, acct.ID)
	if err != nil {
		return nil, err
	}
	return e.ticketsOf(rows)
}

func (e *Engine) ticketsOf(rows []*store.TicketRow) ([]*ticket, error) {
	out := make([]*ticket, 0, len(rows))
	for _, r := range rows {
		t, err := e.ticketOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// countTickets is the number of stored tickets of acct.
func (e *Engine) countTickets(acct *Account) (int, error) { return e.db.CountTickets(acct.ID) }

func senderE2E(t *ticket) string {
	if t.BrazilianFiatSenderInfo != nil {
		return t.BrazilianFiatSenderInfo.EndToEndID
	}
	return ""
}

func receiverE2E(t *ticket) string {
	if t.BrazilianFiatReceiverInfo != nil {
		return t.BrazilianFiatReceiverInfo.EndToEndID
	}
	return ""
}

// CountTickets is the number of stored tickets of acct.
func (e *Engine) CountTickets(acct *Account) (int, error) { return e.countTickets(acct) }
