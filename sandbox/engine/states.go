package engine

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// The live ticket states beyond the plain UNPAID → PROCESSING → PAID path
// (spec/service.md §7.2): cancel, ON-HOLD and its release, PENDING for
// fiat rails funded outside business hours.

// CancelTicket cancels an UNPAID ticket of the operated account (anything
// else is a conflict).
func (e *Engine) CancelTicket(c Caller, id uuid.UUID) (records.Ticket, error) {
	if err := c.writable(); err != nil {
		return records.Ticket{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advanceLocked(c.Now)
	t, err := e.findTicket(c, id, true)
	if err != nil {
		return records.Ticket{}, err
	}
	if t.Status != records.TicketUnpaid {
		return records.Ticket{}, conflict(CodeNotCancelable, "ticket %s is %s; only UNPAID tickets can be canceled", t.ID, t.Status)
	}
	t.Reason = reasonCanceled
	t.fundAt = time.Time{}
	e.transitionLocked(t, records.TicketCanceled, c.Now, "TICKET-CANCELED")
	e.saveTicket(t)
	return t.Ticket, nil
}

// ReleaseTicket passes the review of an ON-HOLD ticket of the operated
// account (sandbox only).
func (e *Engine) ReleaseTicket(c Caller, id uuid.UUID) (records.Ticket, error) {
	if err := c.writable(); err != nil {
		return records.Ticket{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.findTicket(c, id, true)
	if err != nil {
		return records.Ticket{}, err
	}
	if t.Status != records.TicketOnHold {
		return records.Ticket{}, conflict(CodeNotHeld, "ticket %s is %s; only ON-HOLD tickets can be released", t.ID, t.Status)
	}
	// Released: the limit check is done, so it is not held again.
	t.Status = records.TicketPending
	if !businessHoursRail(t.q.OutputPaymentMethod) || nextBusinessStart(c.Now).IsZero() {
		e.transitionLocked(t, records.TicketProcessing, c.Now, "DELIVERY-PROCESSING")
		t.Reason = ""
		t.payAt = c.Now.Add(e.scaled(deliveryDelay))
		e.schedule(t.payAt, duePay, t.ID, nil)
	} else {
		e.startProcessingLocked(t, c.Now, "DEPOSIT-SUCCESS")
	}
	e.saveTicket(t)
	return t.Ticket, nil
}

// Reasons a ticket is CANCELED, in its reason field.
const (
	ReasonExpired  = "expired: the input was not funded before expiresAt"
	reasonCanceled = "canceled by the caller while UNPAID"
)

// singleTicketLimits is the most one ticket may bring in, per input
// currency, before it is held for review (ON-HOLD). The figures are the
// sandbox's own; they are what /v2/account/limits is to report as the
// single-ticket limit.
var singleTicketLimits = map[string]decimal.Decimal{
	"BRL": decimal.NewFromInt(100000), "BRLA": decimal.NewFromInt(100000),
	"USDC": decimal.NewFromInt(20000), "USDT": decimal.NewFromInt(20000), "USDM": decimal.NewFromInt(20000), "USDCe": decimal.NewFromInt(20000),
	"EURC": decimal.NewFromInt(20000),
}

// heldForReview reports whether a ticket's input is above its single-ticket
// limit.
func heldForReview(q *QuoteClaims) bool {
	lim, ok := singleTicketLimits[q.InputCurrency]
	return ok && q.InputAmount.GreaterThan(lim)
}

// businessHoursRail reports whether an output rail only moves on business
// days (the sandbox's rule: ACH, WIRE and SEPA rest on Saturday and
// Sunday, UTC; PIX and chains never rest).
func businessHoursRail(method string) bool {
	return method == "ACH" || method == "WIRE" || method == "SEPA"
}

// nextBusinessStart is the next Monday 00:00 UTC when at falls on a
// weekend, else the zero time.
func nextBusinessStart(at time.Time) time.Time {
	at = at.UTC()
	days := 0
	switch at.Weekday() {
	case time.Saturday:
		days = 2
	case time.Sunday:
		days = 1
	default:
		return time.Time{}
	}
	d := at.AddDate(0, 0, days)
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
}

// startProcessingLocked moves a funded ticket on: ON-HOLD when its input
// is above the single-ticket limit, PENDING when its rail rests, else
// PROCESSING with the delivery scheduled. event is the webhook status of
// the funding. The caller holds e.mu.
func (e *Engine) startProcessingLocked(t *ticket, at time.Time, event string) {
	switch {
	case heldForReview(&t.q) && t.Status != records.TicketOnHold:
		t.Reason = "held for review: the input is above the single-ticket limit; release it with POST /v2/sandbox/tickets/{id}/release"
		e.transitionLocked(t, records.TicketOnHold, at, event)
		t.payAt = time.Time{}
		return
	case businessHoursRail(t.q.OutputPaymentMethod) && !nextBusinessStart(at).IsZero():
		if t.Status != records.TicketPending {
			t.Reason = "queued: " + t.q.OutputPaymentMethod + " moves on business days only"
			e.transitionLocked(t, records.TicketPending, at, event)
		}
		t.payAt = nextBusinessStart(at)
		e.schedule(t.payAt, duePay, t.ID, nil)
		return
	}
	if t.Status == records.TicketPending || t.Status == records.TicketOnHold {
		t.Reason = ""
		event = "DELIVERY-PROCESSING"
	}
	e.transitionLocked(t, records.TicketProcessing, at, event)
	t.payAt = at.Add(e.scaled(deliveryDelay))
	e.schedule(t.payAt, duePay, t.ID, nil)
}

// stampInfoIDs gives every info block of a ticket its own id and the
// ticket's id, as live records carry them (§7.2). Blocks keep the ids they
// have. The caller holds e.mu.
func (e *Engine) stampInfoIDs(t *ticket) {
	tid := t.ID.String()
	stamp := func(id, ticketID *string) {
		if *id == "" {
			*id = e.newID().String()
		}
		*ticketID = tid
	}
	if b := t.BrazilianFiatSenderInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.BrazilianFiatReceiverInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.BlockchainSenderInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.BlockchainReceiverInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.AmericanFiatReceiverInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.EuropeanFiatReceiverInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.ArgentineFiatReceiverInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.MarkupInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.BrlPixInputInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
	if b := t.BlockchainInputInfo; b != nil {
		stamp(&b.ID, &b.TicketID)
	}
}
