package sandbox

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Webhook limits and the sandbox's own receiver (a demo target that
// verifies the signature, so deliveries work without any network).
const (
	maxWebhooks     = 3
	receiverPath    = "/v2/sandbox/webhook-receiver"
	defaultDemoBase = "http://127.0.0.1:8443"
	signatureHeader = "signature"
)

var subscriptionKinds = []string{"TICKET", "KYC", "LIMIT-UPDATE", "*"}

// delivery is one signed POST to send.
type delivery struct {
	acct      *account
	attemptID uuid.UUID
	url       string
	body      []byte
}

// eventEnvelope is the delivered body [decided: the real payload is not
// documented beyond {subscription, data}].
type eventEnvelope struct {
	ID           string         `json:"id"`
	AccountID    string         `json:"accountId"`
	SubAccountID string         `json:"subAccountId"`
	Subscription string         `json:"subscription"`
	CreatedAt    string         `json:"createdAt"`
	Data         map[string]any `json:"data"`
}

// recordTicketEvent records a ticket transition as an event and queues a
// signed delivery to every webhook subscribed to tickets that hears the
// account: its own and, for a sub-account, the main account's. The live
// catalogue registers and lists webhooks without subAccountId (§7.4), so
// the main account's webhooks hear every sub-account, which the envelope
// names; an attempt is kept with the webhook's account. The caller holds
// s.mu.
func (s *Server) recordTicketEvent(t *ticket, status string, at time.Time) {
	acct := t.acct
	ev := &event{ID: s.newID(), Subscription: "TICKET", Status: status, DataID: t.ID, CreatedAt: at}
	s.insertEvent(acct, ev)
	var body []byte
	for _, owner := range s.hearers(acct) {
		for _, w := range owner.webhooks {
			if !slices.Contains(w.Subscriptions, "TICKET") && !slices.Contains(w.Subscriptions, "*") {
				continue
			}
			if body == nil && s.seedRand == nil {
				body, _ = json.Marshal(eventEnvelope{
					ID: ev.ID.String(), AccountID: acct.MainID.String(), SubAccountID: acct.subAccountID(), Subscription: "TICKET",
					CreatedAt: fmtTime(at), Data: map[string]any{"status": status, "ticket": t.Ticket},
				})
			}
			s.addAttemptLocked(owner, ev, w.URL, at, body)
		}
	}
}

// hearers are the accounts whose webhooks hear acct's events: acct, then
// its main account. The demo history (built from the seed) keeps to acct
// alone, so that the seed gives the same data as before.
func (s *Server) hearers(acct *account) []*account {
	if acct.Main || s.seedRand != nil || s.st.main == nil || s.st.main == acct {
		return []*account{acct}
	}
	return []*account{acct, s.st.main}
}

func (s *Server) addAttemptLocked(acct *account, ev *event, target string, at time.Time, body []byte) *attempt {
	id := s.newID()
	a := &attempt{WebhookAttempt{
		AccountID: acct.ID.String(), CreatedAt: fmtTime(at), UpdatedAt: fmtTime(at), ID: id.String(),
		WebhookEventID: ev.ID.String(), WebhookURL: target,
	}}
	acct.attempts.add(at, id, a)
	defer s.saveAttempt(acct, a)
	if r := s.seedRand; r != nil {
		// Demo history: the receiver answered long ago.
		switch n := r.IntN(100); {
		case n < 4:
			a.ResponseStatus = 500
		case n < 6:
			a.ResponseStatus = 0
		default:
			a.ResponseStatus = 200
			a.Acknowledged = r.IntN(10) < 8
		}
		return a
	}
	if body != nil {
		// Sent once the event is committed: a receiver never hears of a
		// transition that a crash could undo.
		d := delivery{acct: acct, attemptID: id, url: target, body: body}
		s.db.AfterCommit(func() { s.outbox.push(d) })
	}
	return a
}

// signBody is the webhook signature: RSA-PSS SHA-256 over the raw body,
// base64 (standard).
func (s *Server) signBody(body []byte) string {
	h := sha256.Sum256(body)
	sig, err := rsa.SignPSS(rand.Reader, s.webhookKey, crypto.SHA256, h[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(sig)
}

// outbox queues deliveries for the senders: a burst of transitions never
// blocks a request nor starts a goroutine per delivery.
type outbox struct {
	mu    sync.Mutex
	queue []delivery
	wake  chan struct{}
}

func newOutbox() *outbox { return &outbox{wake: make(chan struct{}, 1)} }

func (o *outbox) push(d delivery) {
	o.mu.Lock()
	o.queue = append(o.queue, d)
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

func (o *outbox) pop() (delivery, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.queue) == 0 {
		return delivery{}, false
	}
	d := o.queue[0]
	o.queue[0] = delivery{}
	o.queue = o.queue[1:]
	if len(o.queue) > 0 {
		select { // more work: wake another sender
		case o.wake <- struct{}{}:
		default:
		}
	}
	return d, true
}

func (s *Server) deliverLoop() {
	defer s.wg.Done()
	for {
		d, ok := s.outbox.pop()
		if !ok {
			select {
			case <-s.ctx.Done():
				return
			case <-s.outbox.wake:
				continue
			}
		}
		if s.ctx.Err() != nil {
			return
		}
		{
			status := s.send(d)
			s.mu.Lock()
			if a, ok := d.acct.attempts.get(d.attemptID); ok {
				a.ResponseStatus = status
				a.UpdatedAt = fmtTime(s.now())
				s.saveAttempt(d.acct, a)
			}
			s.mu.Unlock()
		}
	}
}

// send posts one delivery and returns the HTTP status (0: no answer).
// Deliveries to the sandbox's own receiver on a loopback address are
// served in process.
func (s *Server) send(d delivery) int {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, d.url, bytes.NewReader(d.body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(signatureHeader, s.signBody(d.body))
	req.Header.Set("User-Agent", "tesouro-sandbox-webhooks")
	if u, err := url.Parse(d.url); err == nil && u.Path == receiverPath && isLoopbackHost(u.Hostname()) {
		rec := httptest.NewRecorder()
		req.RequestURI = u.RequestURI()
		s.receiveWebhook(rec, req)
		return rec.Code
	}
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	resp, err := s.httpClient.Do(req.WithContext(ctx))
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// receiveWebhook is the demo receiver: it checks the signature with the
// public key, as an integrator would, and answers 200 or 400.
func (s *Server) receiveWebhook(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	_, _ = body.ReadFrom(http.MaxBytesReader(w, r.Body, maxBody))
	sig, err := base64.StdEncoding.DecodeString(r.Header.Get(signatureHeader))
	h := sha256.Sum256(body.Bytes())
	if err != nil || rsa.VerifyPSS(&s.webhookKey.PublicKey, crypto.SHA256, h[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) != nil {
		writeError(w, badRequest(codeBadSignature, "signature header does not verify with GET /v2/public-key"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"received":true}`))
}

func (s *Server) webhookReceiver(c *call) error {
	rec := httptest.NewRecorder()
	req := c.r.Clone(c.r.Context())
	req.Body = httpBody(c.body)
	s.receiveWebhook(rec, req)
	return c.replyRaw(rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes(), nil)
}

// setSelfBase points the demo webhooks, and the demo delivery attempts
// recorded for them, at the receiver of the sandbox as it is served.
func (s *Server) setSelfBase(base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rebase := func(u *string) bool {
		if strings.HasPrefix(*u, defaultDemoBase+receiverPath) {
			*u = strings.TrimRight(base, "/") + strings.TrimPrefix(*u, defaultDemoBase)
			return true
		}
		return false
	}
	for _, a := range s.st.accounts {
		for _, w := range a.webhooks {
			if old := w.URL; rebase(&w.URL) && w.URL != old {
				s.changed(a)
			}
		}
		for _, at := range a.attempts.all() {
			if old := at.WebhookURL; rebase(&at.WebhookURL) && at.WebhookURL != old {
				s.saveAttempt(a, at)
			}
		}
	}
}

// GET /v2/public-key (public): the key that verifies deliveries.
func (s *Server) publicKey(c *call) error {
	der := x509.MarshalPKCS1PublicKey(&s.webhookKey.PublicKey)
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
	case u.Scheme == "http" && !isLoopbackHost(u.Hostname()):
		return nil, badRequest(codeInvalidField, "webhookUrl: plain http is only accepted for loopback addresses; use https")
	case len(subscriptions) == 0:
		return nil, badRequest(codeMissingField, "subscriptions: at least one of TICKET, KYC, LIMIT-UPDATE, *")
	}
	for _, sub := range subscriptions {
		if !slices.Contains(subscriptionKinds, sub) {
			return nil, badRequest(codeInvalidField, "subscriptions: unknown kind %q (kinds: TICKET, KYC, LIMIT-UPDATE, *)", truncate(sub, 20))
		}
	}
	return u, nil
}

// view is the webhook as the service shows it.
func (w *webhook) view() Webhook {
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
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	if len(acct.webhooks) >= maxWebhooks {
		return conflict(codeLimitReached, "webhookUrl: this account already has %d webhooks, the maximum; delete one first", maxWebhooks)
	}
	w := &webhook{ID: s.newID(), URL: u.String(), Subscriptions: slices.Clone(req.Subscriptions), CreatedAt: c.now}
	acct.webhooks = append(acct.webhooks, w)
	s.changed(acct)
	return c.reply(http.StatusOK, map[string]string{"webhookId": w.ID.String()})
}

// GET /v2/notifications/webhooks/
func (s *Server) listWebhooks(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	out := []Webhook{}
	for _, w := range acct.webhooks {
		out = append(out, w.view())
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
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(acct.webhooks, func(w *webhook) bool { return w.ID == id })
	if i < 0 {
		return notFound("webhook", id)
	}
	acct.webhooks = slices.Delete(acct.webhooks, i, i+1)
	s.changed(acct)
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
	match := func(a *attempt) bool {
		return (!unacked || !a.Acknowledged) && (evID == "" || a.WebhookEventID == evID)
	}
	view := func(a *attempt) WebhookAttempt { return a.WebhookAttempt }
	return listPage(s, c, "attempts", w, func(a *account) *series[attempt] { return a.attempts }, match, view)
}

// GET /v2/notifications/webhooks/attempts/{id}
func (s *Server) getAttempt(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, a, err := recordByID(c, func(a *account) *series[attempt] { return a.attempts }, "webhook attempt")
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"eventAttempt": a.WebhookAttempt})
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
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	// All or nothing: an unknown id refuses the whole request.
	for _, id := range ids {
		if _, ok := acct.attempts.get(id); !ok {
			return notFound("webhook attempt", id)
		}
	}
	for _, id := range ids {
		a, _ := acct.attempts.get(id)
		a.Acknowledged = true
		a.UpdatedAt = fmtTime(c.now)
		s.saveAttempt(acct, a)
	}
	return c.reply(http.StatusOK, map[string]any{"acknowledged": len(ids)})
}
