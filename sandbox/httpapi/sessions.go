package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Payment sessions (spec/service.md §7.4): a hosted checkout that brings
// money in to the account that opened it. The payer (no credentials) reads
// the session, asks it for a quote and creates its one ticket.

const (
	defaultSessionMinutes = 60
	maxSessionMinutes     = 7 * 24 * 60
)

// sessionRequest is the body of POST /v2/account/payment-session; the
// session keeps what it sets (engine.SessionDetail). expiresAt and
// ticketId are the session's own, and replaced whatever is sent.
type sessionRequest struct {
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

// sessionView is the wire form of a session at now.
func sessionView(ps *engine.Session, now time.Time) map[string]any {
	v := map[string]any{
		"id": ps.ID, "status": ps.Status(now), "externalId": ps.ExternalID, "paymentOptions": ps.PaymentOptions,
		"outputCurrency": ps.OutputCurrency, "expirationInMinutes": ps.ExpirationInMinutes,
		"expiresAt": fmtTime(ps.ExpiresAt), "createdAt": fmtTime(ps.CreatedAt),
		"onCompleteRedirectionUrl": ps.OnCompleteRedirectionURL, "subAccountId": ps.Account.SubAccountID(),
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
	var d sessionRequest
	if err := decodeBody(c, &d); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	// Every ticket of a session is a pay-in to its owner, created with the
	// opener's permissions: an access that may not take money in may not
	// open one (§7.5).
	if err := c.who.MayTakeMoneyIn(); err != nil {
		return err
	}
	prefs, saved, err := s.eng.SessionPreferences(c.caller())
	if err != nil {
		return err
	}
	if saved {
		// What the creation leaves out, the account's preferences fill.
		if d.ExternalID == "" {
			d.ExternalID = prefs.ExternalID
		}
		if len(d.PaymentOptions) == 0 && d.OutputCurrency == "" {
			d.PaymentOptions, d.OutputCurrency = prefs.PaymentOptions, prefs.OutputCurrency
		}
		if d.Appearance == nil {
			d.Appearance = prefs.Appearance
		}
		if d.ExpirationInMinutes == 0 {
			d.ExpirationInMinutes = min(prefs.Minutes(), maxSessionMinutes)
		}
	}
	if validate.Chars(d.ExternalID) > engine.MaxExternalIDLen {
		return badRequest(codeInvalidField, "externalId: at most %d characters", engine.MaxExternalIDLen)
	}
	if err := checkPaymentOptions(d.PaymentOptions, d.OutputCurrency); err != nil {
		return err
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
	id, err := s.eng.OpenSession(c.caller(), engine.SessionDetail{
		ExternalID: d.ExternalID, Metadata: d.Metadata, OnCompleteRedirectionURL: d.OnCompleteRedirectionURL,
		PaymentOptions: d.PaymentOptions, OutputCurrency: d.OutputCurrency, Appearance: d.Appearance,
		ExpirationInMinutes: d.ExpirationInMinutes,
	})
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/account/payment-session: the operated account's sessions,
// newest first.
func (s *Server) listPaymentSessions(c *call) error {
	mine, err := s.eng.Sessions(c.caller())
	if err != nil {
		return err
	}
	out := make([]map[string]any, len(mine))
	for i := range mine {
		out[i] = sessionView(&mine[i], c.now)
	}
	return c.reply(http.StatusOK, map[string]any{"paymentSessions": out, "cursor": ""})
}

// session is the session of the path (public routes).
func (c *call) session() (engine.Session, error) {
	id, err := c.pathUUID("id")
	if err != nil {
		return engine.Session{}, err
	}
	return c.s.eng.Session(id)
}

// GET /v2/payment-session/{id} (public)
func (s *Server) getPaymentSession(c *call) error {
	ps, err := c.session()
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"paymentSession": sessionView(&ps, c.now)})
}

// GET /v2/payment-session/{id}/fixed-quote (public): a quote made for the
// session's owner, paying in with one of its options and landing as its
// output token in the owner's balance.
func (s *Server) sessionQuote(c *call) error {
	ps, err := c.session()
	if err != nil {
		return err
	}
	if err := ps.CheckOpen(c.now); err != nil {
		return err
	}
	currency, method := c.query.Get("inputCurrency"), c.query.Get("inputPaymentMethod")
	if _, ok := ps.Option(currency, method); !ok {
		return badRequest(codeInvalidField, "inputCurrency/inputPaymentMethod: %s/%s is not one of this session's options (%s)", truncate(currency, 12), truncate(method, 16), ps.OptionsText())
	}
	q := c.query
	q.Set("outputCurrency", ps.OutputCurrency)
	q.Set("outputPaymentMethod", "INTERNAL")
	q.Del("subAccountId")
	if sub := ps.Account.SubAccountID(); sub != "" {
		q.Set("subAccountId", sub)
	}
	for _, k := range []string{"inputThirdParty", "outputThirdParty"} {
		if q.Get(k) == "" {
			q.Set(k, boolText(k == "inputThirdParty"))
		}
	}
	c.who = ps.Opener
	return s.quote(c)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// POST /v2/payment-session/{id}/create-ticket (public): the session's one
// ticket (engine.CreateSessionTicket). It is never parked: 200 with the
// creation answer.
func (s *Server) createSessionTicket(c *call) error {
	var req engine.TicketRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	t, err := s.eng.CreateSessionTicket(c.now, id, &req)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, createdAnswer(&t))
}

// GET /v2/payment-session/{id}/get-ticket (public): the session's ticket.
func (s *Server) getSessionTicket(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	t, err := s.eng.SessionTicket(id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"ticket": t})
}
