package httpapi

import (
	"bytes"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/delivery"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Webhooks (§3, §7.4, §8.6): registration, the list and edits, delivery
// attempts and their acknowledgement, recorded events, the key that
// verifies deliveries, and the sending of deliveries with the sandbox's
// own receiver.

// Receiver is the sandbox's own webhook receiver, for the deliveries the
// sandbox sends to itself in process.
func (s *Server) Receiver() http.Handler { return http.HandlerFunc(s.receiveWebhook) }

// receiveWebhook is the demo receiver: it checks the signature with the
// public key, as an integrator would, and answers 200 or 400.
func (s *Server) receiveWebhook(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	_, _ = body.ReadFrom(http.MaxBytesReader(w, r.Body, maxBody))
	if !delivery.Verify(s.webhookKey, body.Bytes(), r.Header.Get(delivery.SignatureHeader)) {
		writeError(w, badRequest(codeBadSignature, "signature header does not verify with GET /v2/public-key"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"received":true}`))
}

func (s *Server) webhookReceiver(c *call) error {
	req := c.r.Clone(c.r.Context())
	req.Body = httpBody(c.body)
	status, contentType, body := delivery.ServeInProcess(http.HandlerFunc(s.receiveWebhook), req)
	return c.replyRaw(status, contentType, body, nil)
}

// GET /v2/public-key (public): the key that verifies deliveries.
func (s *Server) publicKey(c *call) error {
	der := x509.MarshalPKCS1PublicKey(s.webhookKey)
	p := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: der})
	return c.reply(http.StatusOK, map[string]string{"publicKey": string(p)})
}

// checkWebhook checks what a webhook registration or update asks for: an
// absolute http(s) URL (plain http only on loopback) and known
// subscriptions.
func checkWebhook(rawURL string, subscriptions []string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	switch {
	case rawURL == "":
		return nil, badRequest(codeMissingField, "webhookUrl: required")
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return nil, badRequest(codeInvalidField, "webhookUrl: %q is not an absolute http(s) URL", truncate(rawURL, 60))
	case u.Scheme == "http" && !delivery.IsLoopback(u.Hostname()):
		return nil, badRequest(codeInvalidField, "webhookUrl: plain http is only accepted for loopback addresses; use https")
	case len(subscriptions) == 0:
		return nil, badRequest(codeMissingField, "subscriptions: at least one of TICKET, KYC, LIMIT-UPDATE, *")
	}
	for _, sub := range subscriptions {
		if !slices.Contains(engine.Subscriptions, sub) {
			return nil, badRequest(codeInvalidField, "subscriptions: unknown kind %q (kinds: TICKET, KYC, LIMIT-UPDATE, *)", truncate(sub, 20))
		}
	}
	return u, nil
}

// webhookView is the webhook as the service shows it.
func webhookView(w *engine.Webhook) Webhook {
	return Webhook{ID: w.ID.String(), URL: w.URL, Subscriptions: slices.Clone(w.Subscriptions)}
}

// POST /v2/notifications/webhooks/ {webhookUrl, subscriptions}
func (s *Server) registerWebhook(c *call) error {
	var req RegisterWebhookRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	u, err := checkWebhook(req.WebhookURL, req.Subscriptions)
	if err != nil {
		return err
	}
	id, err := s.eng.RegisterWebhook(c.caller(), u.String(), req.Subscriptions)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"webhookId": id.String()})
}

// GET /v2/notifications/webhooks/
func (s *Server) listWebhooks(c *call) error {
	hooks, err := s.eng.Webhooks(c.caller())
	if err != nil {
		return err
	}
	out := []Webhook{}
	for i := range hooks {
		out = append(out, webhookView(&hooks[i]))
	}
	return c.reply(http.StatusOK, map[string]any{"webhooks": out})
}

// DELETE /v2/notifications/webhooks/{id}
func (s *Server) deleteWebhook(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	if err := s.eng.DeleteWebhook(c.caller(), id); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/notifications/webhooks/attempts
func (s *Server) listAttempts(c *call) error {
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	unacked, err := c.queryBool("unackedOnly")
	if err != nil {
		return err
	}
	evID := c.query.Get("webhookEventId")
	barred := s.eng.Barred(c.who)
	match := func(a *records.WebhookAttempt) bool {
		return (!unacked || !a.Acknowledged) && (evID == "" || a.WebhookEventID == evID) && !barred[a.EventAccountID]
	}
	return listPage(c, "attempts", w, s.eng.Attempts(), match)
}

// GET /v2/notifications/webhooks/attempts/{id}: one of an event the
// access may see.
func (s *Server) getAttempt(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	a, err := s.eng.Attempts().Get(c.caller(), id)
	if err != nil {
		return err
	}
	if s.eng.Barred(c.who)[a.EventAccountID] {
		return notFound("webhook attempt", id)
	}
	return c.reply(http.StatusOK, map[string]any{"eventAttempt": a})
}

// PATCH /v2/notifications/webhooks/attempts {ids}
func (s *Server) ackAttempts(c *call) error {
	var req struct {
		IDs []string `json:"ids"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if len(req.IDs) == 0 {
		return badRequest(codeMissingField, "ids: at least one attempt id")
	}
	if len(req.IDs) > 500 {
		return badRequest(codeInvalidField, "ids: at most 500 per request")
	}
	if err := c.writable(); err != nil {
		return err
	}
	ids := make([]uuid.UUID, len(req.IDs))
	for i, raw := range req.IDs {
		id, err := uuid.Parse(raw)
		if err != nil {
			return badRequest(codeInvalidField, "ids[%d]: %q is not an attempt id", i, truncate(raw, 40))
		}
		ids[i] = id
	}
	// All or nothing: an unknown id refuses the whole request.
	if err := s.eng.AckAttempts(c.caller(), ids); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"acknowledged": len(ids)})
}

// eventView is the wire form of a stored event: the object a delivery
// wraps (spec §8.6), data holding its type and the record it is about
// (the ticket, the KYC attempt) as it reads now [decided: the sandbox
// keeps no copy of a record per event].
func eventView(e *engine.Event) WebhookEvent {
	data := map[string]any{"type": e.Status}
	key := map[string]string{"TICKET": "ticket", "KYC": "kycAttempt", "LIMIT-UPDATE": "limitInfo"}[e.Subscription]
	switch {
	case key != "" && e.Record != nil:
		data[key] = json.RawMessage(e.Record)
	case e.Subscription == "TICKET":
		data["ticketId"] = e.DataID
	case e.Subscription == "KYC":
		data["attemptId"] = e.DataID
	default:
		data["id"] = e.DataID
	}
	return WebhookEvent{ID: e.ID.String(), Subscription: e.Subscription, SubAccountID: e.Account.SubAccountID(), Data: data, CreatedAt: records.NewTime(e.CreatedAt)}
}

// GET /v2/notifications/webhooks/events: the recorded events the access
// may see, newest first: the main account's and its sub-accounts', or
// one sub-account's (subAccountId filters, §8.6).
func (s *Server) listEvents(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	f := engine.EventFilter{Subscription: c.query.Get("subscription"), DataID: c.query.Get("dataId"), Window: w}
	events, next, err := s.eng.Events(c.caller(), f, c.query.Get("cursor"))
	if err != nil {
		return err
	}
	out := []WebhookEvent{}
	for i := range events {
		out = append(out, eventView(&events[i]))
	}
	return c.reply(http.StatusOK, map[string]any{"events": out, "cursor": next})
}

// GET /v2/notifications/webhooks/events/{id} (no subAccountId: the event
// names its account, §8.6)
func (s *Server) getEvent(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	e, err := s.eng.Event(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"event": eventView(&e)})
}

// GET /v2/notifications/webhooks/{id}
func (s *Server) getWebhook(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	w, err := s.eng.Webhook(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"webhook": webhookView(&w)})
}

// PATCH /v2/notifications/webhooks {webhookId, webhookUrl, subscriptions}
func (s *Server) updateWebhook(c *call) error {
	var req UpdateWebhookRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	id, err := engine.FieldUUID("webhookId", req.WebhookID)
	if err != nil {
		return err
	}
	u, err := checkWebhook(req.WebhookURL, req.Subscriptions)
	if err != nil {
		return err
	}
	w, err := s.eng.UpdateWebhook(c.caller(), id, u.String(), req.Subscriptions)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"webhook": webhookView(&w)})
}

// Webhook is a registered webhook (§3).
type Webhook struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	Subscriptions []string `json:"subscriptions"`
}

// WebhookEvent is a recorded event (§7.4, §8.6).
type WebhookEvent struct {
	ID           string         `json:"id"`
	Subscription string         `json:"subscription"`
	SubAccountID string         `json:"subAccountId"`
	Data         map[string]any `json:"data"`
	CreatedAt    records.Time   `json:"createdAt"`
}

// RegisterWebhookRequest is POST /v2/notifications/webhooks/ (§3).
type RegisterWebhookRequest struct {
	WebhookURL    string   `json:"webhookUrl"`
	Subscriptions []string `json:"subscriptions"`
}

// UpdateWebhookRequest is PATCH /v2/notifications/webhooks (§7.4).
type UpdateWebhookRequest struct {
	WebhookID     string   `json:"webhookId"`
	WebhookURL    string   `json:"webhookUrl"`
	Subscriptions []string `json:"subscriptions"`
}
