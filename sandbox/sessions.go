package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
)

// Payment sessions (spec/service.md §7.4): a hosted checkout that brings
// money in to the account that opened it. The payer (no credentials) reads
// the session, asks it for a quote and creates its one ticket: input PIX
// or a chain from the payer, output INTERNAL to the owner. Any payout
// block is refused.

type paymentSession struct {
	ID        uuid.UUID
	acct      *account
	who       *access
	CreatedAt time.Time
	sessionDetail
}

// sessionDetail is what the creation body set, and the ticket once made;
// stored as the detail column (schema step 3).
type sessionDetail struct {
	ExternalID               string          `json:"externalId,omitempty"`
	Metadata                 json.RawMessage `json:"metadata,omitempty"`
	OnCompleteRedirectionURL string          `json:"onCompleteRedirectionUrl,omitempty"`
	PaymentOptions           []string        `json:"paymentOptions"`
	OutputCurrency           string          `json:"outputCurrency"`
	Appearance               json.RawMessage `json:"appearance,omitempty"`
	ExpirationInMinutes      int             `json:"expirationInMinutes"`
	ExpiresAt                time.Time       `json:"expiresAt"`
	TicketID                 *uuid.UUID      `json:"ticketId,omitempty"`
}

const (
	defaultSessionMinutes = 60
	maxSessionMinutes     = 7 * 24 * 60
	codeSessionUsed       = "SESSION_USED"
	codeSessionExpired    = "SESSION_EXPIRED"
)

// view is the wire form of a session.
func (ps *paymentSession) view(now time.Time) map[string]any {
	status := "OPEN"
	switch {
	case ps.TicketID != nil:
		status = "TICKET-CREATED"
	case !ps.ExpiresAt.IsZero() && !now.Before(ps.ExpiresAt):
		status = "EXPIRED"
	}
	v := map[string]any{
		"id": ps.ID, "status": status, "externalId": ps.ExternalID, "paymentOptions": ps.PaymentOptions,
		"outputCurrency": ps.OutputCurrency, "expirationInMinutes": ps.ExpirationInMinutes,
		"expiresAt": fmtTime(ps.ExpiresAt), "createdAt": fmtTime(ps.CreatedAt),
		"onCompleteRedirectionUrl": ps.OnCompleteRedirectionURL, "subAccountId": ps.acct.subAccountID(),
	}
	if ps.Metadata != nil {
		v["metadata"] = ps.Metadata
	}
	if ps.Appearance != nil {
		v["appearance"] = ps.Appearance
	}
	if ps.TicketID != nil {
		v["ticketId"] = *ps.TicketID
	}
	return v
}

// POST /v2/account/payment-session: a checkout bound to the operated
// account and the access that opened it.
func (s *Server) createPaymentSession(c *call) error {
	var d sessionDetail
	if err := decodeBody(c, &d); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	// Every ticket of a session is a pay-in to its owner, created with the
	// opener's permissions: an access that may not take money in may not
	// open one (§7.5).
	if !c.who.Perms.PayIn {
		return forbidden("missing permission payIn: a payment session takes money in to the account")
	}
	if len(d.ExternalID) > maxExternalIDLen {
		return badRequest(codeInvalidField, "externalId: at most %d characters", maxExternalIDLen)
	}
	if len(d.PaymentOptions) == 0 {
		return badRequest(codeMissingField, "paymentOptions: at least one of PIX or a chain (%s)", strings.Join(money.Chains(), ", "))
	}
	for _, o := range d.PaymentOptions {
		if o != "PIX" && !money.IsChain(o) {
			return badRequest(codeInvalidField, "paymentOptions: %q is not PIX or a chain", truncate(o, 20))
		}
	}
	if d.OutputCurrency == "" {
		return badRequest(codeMissingField, "outputCurrency: required, the token the owner receives (BRLA, USDC, ...)")
	}
	if !money.IsToken(d.OutputCurrency) || d.OutputCurrency != money.Canonical(d.OutputCurrency) {
		return badRequest(codeInvalidField, "outputCurrency: %q is not a token this service holds in a balance", truncate(d.OutputCurrency, 12))
	}
	if d.OnCompleteRedirectionURL != "" {
		if u, err := url.Parse(d.OnCompleteRedirectionURL); err != nil || u.Scheme != "https" || u.Host == "" {
			return badRequest(codeInvalidField, "onCompleteRedirectionUrl: %q is not an absolute https URL", truncate(d.OnCompleteRedirectionURL, 60))
		}
	}
	for name, raw := range map[string]json.RawMessage{"metadata": d.Metadata, "appearance": d.Appearance} {
		if raw != nil && (len(raw) == 0 || raw[0] != '{') {
			return badRequest(codeInvalidField, "%s: must be a JSON object", name)
		}
	}
	if d.ExpirationInMinutes == 0 {
		d.ExpirationInMinutes = defaultSessionMinutes
	}
	if d.ExpirationInMinutes < 1 || d.ExpirationInMinutes > maxSessionMinutes {
		return badRequest(codeInvalidField, "expirationInMinutes: between 1 and %d, got %d", maxSessionMinutes, d.ExpirationInMinutes)
	}
	d.ExpiresAt, d.TicketID = c.now.Add(time.Duration(d.ExpirationInMinutes)*time.Minute), nil
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	id := s.newID()
	ps := &paymentSession{ID: id, acct: acct, who: c.who, CreatedAt: c.now, sessionDetail: d}
	s.st.sessions[id] = ps
	s.saveSession(ps)
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/account/payment-session: the operated account's sessions,
// newest first.
func (s *Server) listPaymentSessions(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	var mine []*paymentSession
	for _, ps := range s.st.sessions {
		if ps.acct == acct {
			mine = append(mine, ps)
		}
	}
	slices.SortFunc(mine, func(a, b *paymentSession) int { return b.CreatedAt.Compare(a.CreatedAt) })
	out := make([]map[string]any, len(mine))
	for i, ps := range mine {
		out[i] = ps.view(c.now)
	}
	return c.reply(http.StatusOK, map[string]any{"paymentSessions": out, "cursor": ""})
}

// session is the session of the path (public routes). The caller holds s.mu.
func (c *call) session() (*paymentSession, error) {
	id, err := c.pathUUID("id")
	if err != nil {
		return nil, err
	}
	ps, ok := c.s.st.sessions[id]
	if !ok {
		return nil, notFound("payment session", id)
	}
	return ps, nil
}

// GET /v2/payment-session/{id} (public)
func (s *Server) getPaymentSession(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ps, err := c.session()
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"paymentSession": ps.view(c.now)})
}

// GET /v2/payment-session/{id}/fixed-quote (public): a quote made for the
// session's owner, paying in with one of its options and landing as its
// output token in the owner's balance.
func (s *Server) sessionQuote(c *call) error {
	s.mu.RLock()
	ps, err := c.session()
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	if err := ps.open(c.now); err != nil {
		return err
	}
	method := c.query.Get("inputPaymentMethod")
	if !slices.Contains(ps.PaymentOptions, method) {
		return badRequest(codeInvalidField, "inputPaymentMethod: %q is not one of this session's options (%s)", truncate(method, 16), strings.Join(ps.PaymentOptions, ", "))
	}
	q := c.query
	q.Set("outputCurrency", ps.OutputCurrency)
	q.Set("outputPaymentMethod", "INTERNAL")
	q.Del("subAccountId")
	if sub := ps.acct.subAccountID(); sub != "" {
		q.Set("subAccountId", sub)
	}
	for _, k := range []string{"inputThirdParty", "outputThirdParty"} {
		if q.Get(k) == "" {
			q.Set(k, boolText(k == "inputThirdParty"))
		}
	}
	c.who = ps.who
	return s.quote(c)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func (ps *paymentSession) open(now time.Time) error {
	switch {
	case ps.TicketID != nil:
		return conflict(codeSessionUsed, "payment session %s already has its ticket %s", ps.ID, *ps.TicketID)
	case !ps.ExpiresAt.IsZero() && !now.Before(ps.ExpiresAt):
		return conflict(codeSessionExpired, "payment session %s expired at %s", ps.ID, fmtTime(ps.ExpiresAt))
	}
	return nil
}

// POST /v2/payment-session/{id}/create-ticket (public): the session's one
// ticket. It only brings money in: the quote must be one of the session's
// (made for its owner, output INTERNAL in its token); any payout block is
// 400. It is never parked: 200 with the creation answer.
func (s *Server) createSessionTicket(c *call) error {
	var req ticketRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := c.session()
	if err != nil {
		return err
	}
	if err := ps.open(c.now); err != nil {
		return err
	}
	// The ticket is created with the opener's access as it is now, not as
	// it was when the session was opened: an access frozen, made view-only,
	// stripped of payIn or barred from the account since then creates
	// nothing through a session it opened (§7.5). The refusal is the one
	// the access itself would get.
	who := s.st.accessByID[ps.who.ID]
	if who == nil {
		return forbidden("the access that opened payment session %s no longer exists", ps.ID)
	}
	if err := who.mayWrite(c.now); err != nil {
		return err
	}
	if err := who.reaches(ps.acct); err != nil {
		return err
	}
	if !who.Perms.PayIn {
		return forbidden("missing permission payIn: a payment session takes money in to the account")
	}
	for name, sent := range map[string]bool{
		"ticketBrlPixOutput": req.TicketBrlPixOutput != nil, "ticketUsdOutput": req.TicketUsdOutput != nil,
		"ticketUsdWireOutput": req.TicketUsdWireOutput != nil, "ticketEurSepaOutput": req.TicketEurSepaOutput != nil,
		"ticketArsOutput": req.TicketArsOutput != nil, "ticketCopOutput": req.TicketCopOutput != nil,
	} {
		if sent {
			return badRequest(codeUnexpectedBlock, "%s: a payment session only brings money in to its owner; no payout", name)
		}
	}
	q, err := s.openQuote(req.QuoteToken)
	if err != nil {
		return err
	}
	if q.OutputPaymentMethod != "INTERNAL" || q.OutputCurrency != ps.OutputCurrency || !slices.Contains(ps.PaymentOptions, q.InputPaymentMethod) {
		return badRequest(codeQuoteInvalid, "quoteToken: the quote pays %s via %s from %s; this session takes %s into %s (ask GET /v2/payment-session/%s/fixed-quote)",
			q.OutputCurrency, q.OutputPaymentMethod, q.InputPaymentMethod, strings.Join(ps.PaymentOptions, " or "), ps.OutputCurrency, ps.ID)
	}
	if q.AccessID != who.ID {
		return badRequest(codeQuoteInvalid, "quoteToken: the quote was not made for this session")
	}
	p, err := s.planTicket(ps.acct, who, &req, c.now, true, q)
	if err != nil {
		return err
	}
	if req.ExternalID == "" {
		req.ExternalID = ps.ExternalID
	}
	t, err := s.makeTicketLocked(p, c.now)
	if err != nil {
		return err
	}
	ps.TicketID = &t.ID
	s.saveSessionDetail(ps)
	return c.reply(http.StatusOK, createdAnswer(&t.Ticket))
}

// GET /v2/payment-session/{id}/get-ticket (public): the session's ticket.
func (s *Server) getSessionTicket(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ps, err := c.session()
	if err != nil {
		return err
	}
	if ps.TicketID == nil {
		return notFound("ticket of payment session", ps.ID)
	}
	t, err := s.loadTicket(false, ps.acct, *ps.TicketID)
	if err != nil {
		return err
	}
	if t == nil {
		return notFound("ticket", *ps.TicketID)
	}
	return c.reply(http.StatusOK, map[string]any{"ticket": t.Ticket})
}
