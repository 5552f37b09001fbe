package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Payment sessions (spec/service.md §7.4): a hosted checkout that brings
// money in to the account that opened it. The payer (no credentials) reads
// the session, asks it for a quote and creates its one ticket: input PIX
// or a chain from the payer, output INTERNAL to the owner. Any payout
// block is refused.

// Session is a payment session: its owner, the access that opened it,
// and what it was opened with.
type Session struct {
	ID        uuid.UUID
	Account   *Account
	Opener    *Access
	CreatedAt time.Time
	SessionDetail
}

// SessionDetail is what the creation body set, and the ticket once made;
// stored as the detail column (schema step 3).
type SessionDetail struct {
	ExternalID               string                  `json:"externalId,omitempty"`
	Metadata                 json.RawMessage         `json:"metadata,omitempty"`
	OnCompleteRedirectionURL string                  `json:"onCompleteRedirectionUrl,omitempty"`
	PaymentOptions           []records.PaymentOption `json:"paymentOptions"`
	OutputCurrency           string                  `json:"outputCurrency"`
	Appearance               json.RawMessage         `json:"appearance,omitempty"`
	ExpirationInMinutes      int                     `json:"expirationInMinutes"`
	ExpiresAt                time.Time               `json:"expiresAt"`
	TicketID                 *uuid.UUID              `json:"ticketId,omitempty"`
}

// The session states as a session's view names them.
const (
	SessionOpen          = "OPEN"
	SessionTicketCreated = "TICKET-CREATED"
	SessionExpired       = "EXPIRED"
)

// Status is the session's state at now.
func (ps *Session) Status(now time.Time) string {
	switch {
	case ps.TicketID != nil:
		return SessionTicketCreated
	case !ps.ExpiresAt.IsZero() && !now.Before(ps.ExpiresAt):
		return SessionExpired
	}
	return SessionOpen
}

// CheckOpen refuses a session that has its ticket or expired.
func (ps *Session) CheckOpen(now time.Time) error {
	switch {
	case ps.TicketID != nil:
		return conflict(CodeSessionUsed, "payment session %s already has its ticket %s", ps.ID, *ps.TicketID)
	case !ps.ExpiresAt.IsZero() && !now.Before(ps.ExpiresAt):
		return conflict(CodeSessionExpired, "payment session %s expired at %s", ps.ID, fmtTime(ps.ExpiresAt))
	}
	return nil
}

// MayTakeMoneyIn refuses an access without payIn the opening of a session:
// every ticket of a session is a pay-in to its owner, created with the
// opener's permissions (§7.5).
func (a *Access) MayTakeMoneyIn() error {
	if !a.Perms.PayIn {
		return forbidden("missing permission payIn: a payment session takes money in to the account")
	}
	return nil
}

// OpenSession opens a payment session of the operated account with d
// (checked by the caller), bound to the caller's access.
func (e *Engine) OpenSession(c Caller, d SessionDetail) (uuid.UUID, error) {
	if err := c.writable(); err != nil {
		return uuid.Nil, err
	}
	if err := c.Access.MayTakeMoneyIn(); err != nil {
		return uuid.Nil, err
	}
	d.ExpiresAt, d.TicketID = c.Now.Add(time.Duration(d.ExpirationInMinutes)*time.Minute), nil
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	id := e.newID()
	ps := &Session{ID: id, Account: acct, Opener: c.Access, CreatedAt: c.Now, SessionDetail: d}
	e.st.sessions[id] = ps
	e.saveSession(ps)
	return id, nil
}

// Sessions are the operated account's sessions, newest first, as copies.
func (e *Engine) Sessions(c Caller) ([]Session, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	var mine []Session
	for _, ps := range e.st.sessions {
		if ps.Account == acct {
			mine = append(mine, *ps)
		}
	}
	slices.SortFunc(mine, func(a, b Session) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return mine, nil
}

// Session is a copy of the session id (its payer's view: no credentials).
func (e *Engine) Session(id uuid.UUID) (Session, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	ps, err := e.session(id)
	if err != nil {
		return Session{}, err
	}
	return *ps, nil
}

// session is the session id. The caller holds e.mu.
func (e *Engine) session(id uuid.UUID) (*Session, error) {
	ps, ok := e.st.sessions[id]
	if !ok {
		return nil, notFound("payment session", id)
	}
	return ps, nil
}

// CreateSessionTicket makes the session's one ticket, for its payer. It
// only brings money in: the quote must be one of the session's (made for
// its owner, output INTERNAL in its token); any payout block is refused.
// It is never parked.
func (e *Engine) CreateSessionTicket(now time.Time, id uuid.UUID, req *TicketRequest) (records.Ticket, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ps, err := e.session(id)
	if err != nil {
		return records.Ticket{}, err
	}
	if err := ps.CheckOpen(now); err != nil {
		return records.Ticket{}, err
	}
	// The ticket is created with the opener's access as it is now, not as
	// it was when the session was opened: an access frozen, made view-only,
	// stripped of payIn or barred from the account since then creates
	// nothing through a session it opened (§7.5). The refusal is the one
	// the access itself would get.
	who := e.st.accessByID[ps.Opener.ID]
	if who == nil {
		return records.Ticket{}, forbidden("the access that opened payment session %s no longer exists", ps.ID)
	}
	if err := who.MayWrite(now); err != nil {
		return records.Ticket{}, err
	}
	if err := who.Reaches(ps.Account); err != nil {
		return records.Ticket{}, err
	}
	if err := who.MayTakeMoneyIn(); err != nil {
		return records.Ticket{}, err
	}
	for name, sent := range map[string]bool{
		"ticketBrlPixOutput": req.TicketBrlPixOutput != nil, "ticketUsdOutput": req.TicketUsdOutput != nil,
		"ticketUsdWireOutput": req.TicketUsdWireOutput != nil, "ticketEurSepaOutput": req.TicketEurSepaOutput != nil,
		"ticketArsOutput": req.TicketArsOutput != nil, "ticketCopOutput": req.TicketCopOutput != nil,
	} {
		if sent {
			return records.Ticket{}, badRequest(CodeUnexpectedBlock, "%s: a payment session only brings money in to its owner; no payout", name)
		}
	}
	q, err := e.openQuote(req.QuoteToken)
	if err != nil {
		return records.Ticket{}, err
	}
	if _, ok := ps.Option(q.InputCurrency, q.InputPaymentMethod); !ok || q.OutputPaymentMethod != "INTERNAL" || q.OutputCurrency != ps.OutputCurrency {
		return records.Ticket{}, badRequest(CodeQuoteInvalid, "quoteToken: the quote pays %s/%s into %s/%s; this session takes %s (ask GET /v2/payment-session/%s/fixed-quote)",
			q.InputCurrency, q.InputPaymentMethod, q.OutputCurrency, q.OutputPaymentMethod, ps.OptionsText(), ps.ID)
	}
	if q.AccessID != who.ID {
		return records.Ticket{}, badRequest(CodeQuoteInvalid, "quoteToken: the quote was not made for this session")
	}
	p, err := e.planTicket(ps.Account, who, req, now, true, q)
	if err != nil {
		return records.Ticket{}, err
	}
	if req.ExternalID == "" {
		req.ExternalID = ps.ExternalID
	}
	t, err := e.makeTicketLocked(p, now)
	if err != nil {
		return records.Ticket{}, err
	}
	ps.TicketID = &t.ID
	e.saveSessionDetail(ps)
	return t.Ticket, nil
}

// Option is the session's option paying in currency by method.
func (ps *Session) Option(currency, method string) (records.PaymentOption, bool) {
	for _, o := range ps.PaymentOptions {
		if o.InputCurrency == currency && o.InputPaymentMethod == method {
			return o, true
		}
	}
	return records.PaymentOption{}, false
}

// OptionsText names the session's options, as "BRL/PIX → BRLA/INTERNAL".
func (ps *Session) OptionsText() string {
	out := make([]string, len(ps.PaymentOptions))
	for i, o := range ps.PaymentOptions {
		out[i] = o.InputCurrency + "/" + o.InputPaymentMethod + " → " + o.OutputCurrency + "/" + o.OutputPaymentMethod
	}
	return strings.Join(out, ", ")
}

// SessionTicket is the session's ticket.
func (e *Engine) SessionTicket(id uuid.UUID) (records.Ticket, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	ps, err := e.session(id)
	if err != nil {
		return records.Ticket{}, err
	}
	if ps.TicketID == nil {
		return records.Ticket{}, notFound("ticket of payment session", ps.ID)
	}
	t, err := e.loadTicket(false, ps.Account, *ps.TicketID)
	if err != nil {
		return records.Ticket{}, err
	}
	if t == nil {
		return records.Ticket{}, notFound("ticket", *ps.TicketID)
	}
	return t.Ticket, nil
}
