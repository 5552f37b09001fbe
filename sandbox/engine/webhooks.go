package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// Webhooks (§3, §7.4, §8.6): every ticket transition is an event of its
// account; each webhook that hears it gets a delivery attempt, and the
// delivery itself (the signed POST) is queued once the event is committed,
// for the surface that sends it (Outbox).

// maxWebhooks is how many webhooks an account may register.
const maxWebhooks = 3

// ReceiverPath is the path of the sandbox's own demo receiver, which the
// demo webhooks are registered at (a demo target that verifies the
// signature, so deliveries work without any network).
const ReceiverPath = "/v2/sandbox/webhook-receiver"

// defaultDemoBase is the address the demo webhooks name until the engine
// learns the one it is served at (SetSelfBase).
const defaultDemoBase = "http://127.0.0.1:8443"

// DemoReceiverURL is the URL a demo webhook is registered at: the
// sandbox's own receiver, at the address SetSelfBase then names.
const DemoReceiverURL = defaultDemoBase + ReceiverPath

// Delivery is one signed POST to send: an event's body, to a webhook's
// URL, recorded as an attempt of the webhook's account.
type Delivery struct {
	Account   *Account
	AttemptID uuid.UUID
	URL       string
	Body      []byte
	// Sig is the body's signature, shared by the deliveries of one event
	// (each webhook that hears it gets the same body), so that it is
	// computed once however many webhooks and tries there are; nil: the
	// sender computes it once for this delivery.
	Sig *Signature
}

// Signature is a delivery body's signature, computed once by whichever
// sender needs it first.
type Signature struct {
	once sync.Once
	v    string
}

// Of is the signature, sign(body) computed at the first call.
func (s *Signature) Of(sign func() string) string {
	s.once.Do(func() { s.v = sign() })
	return s.v
}

// Delivered is a delivery's body as the live service sends it (spec
// §8.6): the event, wrapped.
type Delivered struct {
	Event DeliveredEvent `json:"event"`
}

// DeliveredEvent is the event of a delivery, and of GET .../events/{id}:
// data holds the event's type (TICKET-CREATED…) and the record it is
// about (ticket, kycAttempt).
type DeliveredEvent struct {
	ID           string         `json:"id"`
	Subscription string         `json:"subscription"`
	SubAccountID string         `json:"subAccountId"`
	CreatedAt    string         `json:"createdAt"`
	Data         map[string]any `json:"data"`
}

// recordTicketEvent records a ticket transition as an event and queues a
// signed delivery to every webhook subscribed to tickets that hears the
// account: its own and, for a sub-account, the main account's. The live
// catalogue registers and lists webhooks without subAccountId (§7.4), so
// the main account's webhooks hear every sub-account, which the event
// names — those the access that registered the webhook may see (a
// webhook never carries an account its owner is barred from). An attempt
// is kept with the webhook's account. The caller holds e.mu.
func (e *Engine) recordTicketEvent(t *ticket, status string, at time.Time) {
	acct := t.acct
	ev := &Event{ID: e.newID(), Account: acct, Subscription: "TICKET", Status: status, DataID: t.ID.String(), CreatedAt: at}
	e.insertEvent(acct, ev)
	var body []byte
	var sig *Signature
	for _, owner := range e.hearers(acct) {
		for _, w := range owner.webhooks {
			if !slices.Contains(w.Subscriptions, "TICKET") && !slices.Contains(w.Subscriptions, "*") {
				continue
			}
			if !e.hears(w, acct) {
				continue
			}
			if body == nil && e.seed == nil {
				body, _ = json.Marshal(Delivered{Event: DeliveredEvent{
					ID: ev.ID.String(), Subscription: "TICKET", SubAccountID: acct.SubAccountID(), CreatedAt: fmtTime(at),
					Data: map[string]any{"type": status, "ticket": t.Ticket},
				}})
				sig = new(Signature)
			}
			e.addAttemptLocked(owner, ev, w.URL, at, body, sig)
		}
	}
}

// hears reports whether webhook w may carry the events of acct: the
// access that registered it must reach acct. A webhook registered by no
// access in particular (the demo's, or one kept from before webhooks had
// owners) is the account's own and hears all it is registered for; one
// whose access is gone hears nothing. The caller holds e.mu.
func (e *Engine) hears(w *Webhook, acct *Account) bool {
	if w.Owner == uuid.Nil {
		return true
	}
	who := e.st.accessByID[w.Owner]
	return who != nil && who.Reaches(acct) == nil
}

// hearers are the accounts whose webhooks hear acct's events: acct, then
// its main account. The demo history (built from the seed) keeps to acct
// alone, so that the seed gives the same data as before.
func (e *Engine) hearers(acct *Account) []*Account {
	if acct.Main || e.seed != nil || e.st.main == nil || e.st.main == acct {
		return []*Account{acct}
	}
	return []*Account{acct, e.st.main}
}

func (e *Engine) addAttemptLocked(acct *Account, ev *Event, target string, at time.Time, body []byte, sig *Signature) *records.WebhookAttempt {
	id := e.newID()
	a := &records.WebhookAttempt{
		AccountID: acct.ID.String(), CreatedAt: fmtTime(at), UpdatedAt: fmtTime(at), ID: id.String(),
		WebhookEventID: ev.ID.String(), WebhookURL: target, EventAccountID: ev.Account.ID,
	}
	acct.attempts.add(at, id, a)
	defer e.saveAttempt(acct, a)
	if r := e.seed; r != nil {
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
		d := Delivery{Account: acct, AttemptID: id, URL: target, Body: body, Sig: sig}
		e.db.AfterCommit(func() { e.outbox.push(d) })
	}
	return a
}

// SetSelfBase points the demo webhooks, and the demo delivery attempts
// recorded for them, at the receiver of the sandbox as it is served at
// base.
// While a history is built, it is done when the history ends.
func (e *Engine) SetSelfBase(base string) {
	if p := e.presentNow(); p != nil && p.deferBase(base) {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setSelfBaseLocked(base)
}

// setSelfBaseLocked is SetSelfBase for a caller holding e.mu for writing.
func (e *Engine) setSelfBaseLocked(base string) {
	rebase := func(u *string) bool {
		if strings.HasPrefix(*u, defaultDemoBase+ReceiverPath) {
			*u = strings.TrimRight(base, "/") + strings.TrimPrefix(*u, defaultDemoBase)
			return true
		}
		return false
	}
	for _, a := range e.st.accounts {
		for _, w := range a.webhooks {
			if old := w.URL; rebase(&w.URL) && w.URL != old {
				e.changed(a)
			}
		}
		for _, at := range a.attempts.all() {
			if old := at.WebhookURL; rebase(&at.WebhookURL) && at.WebhookURL != old {
				e.saveAttempt(a, at)
			}
		}
	}
}

// Outbox queues the deliveries of committed events for the sender, which
// takes them at once into a queue per endpoint (package delivery): a
// burst of transitions never blocks a request nor starts a goroutine per
// delivery.
type Outbox struct {
	mu    sync.Mutex
	queue []Delivery
	wake  chan struct{}
}

func newOutbox() *Outbox { return &Outbox{wake: make(chan struct{}, 1)} }

func (o *Outbox) push(d Delivery) {
	o.mu.Lock()
	o.queue = append(o.queue, d)
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Pop takes the oldest delivery (false: none queued).
func (o *Outbox) Pop() (Delivery, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.queue) == 0 {
		return Delivery{}, false
	}
	d := o.queue[0]
	o.queue[0] = Delivery{}
	o.queue = o.queue[1:]
	return d, true
}

// Len is how many deliveries are queued.
func (o *Outbox) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.queue)
}

// Wake receives when deliveries may be queued.
func (o *Outbox) Wake() <-chan struct{} { return o.wake }

// Outbox is the queue of deliveries to send.
func (e *Engine) Outbox() *Outbox { return e.outbox }

// Answered records what the webhook answered a delivery (0: nothing).
func (e *Engine) Answered(d Delivery, status int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := d.Account.attempts.get(d.AttemptID); ok {
		a.ResponseStatus = status
		a.UpdatedAt = fmtTime(e.now())
		e.saveAttempt(d.Account, a)
	}
}

// Subscriptions are the kinds of events a webhook may subscribe to.
var Subscriptions = []string{"TICKET", "KYC", "LIMIT-UPDATE", "*"}

// MayManageWebhooks refuses an access that may not register, change or
// delete webhooks (the manageWebhooks permission, spec issue 27).
func (a *Access) MayManageWebhooks(now time.Time) error {
	if err := a.MayWrite(now); err != nil {
		return err
	}
	if !a.Perms.ManageWebhooks {
		return forbidden("missing permission manageWebhooks: this access may not register, change or delete webhooks")
	}
	return nil
}

// mayChange refuses a change of w by who: a webhook is changed or deleted
// only by the access that registered it, and one of the account itself
// (no owner) only by an access barred from no account, since it hears
// them all. The caller holds e.mu.
func (e *Engine) mayChange(who *Access, w *Webhook) error {
	if w.Owner == who.ID {
		return nil
	}
	if w.Owner == uuid.Nil && e.reachesAll(who) {
		return nil
	}
	return refuse(Forbidden, CodeNotWebhookOwner, "webhook %s was registered by another access: only that access may change or delete it", w.ID)
}

// reachesAll reports whether who is barred from none of the accounts. The
// caller holds e.mu.
func (e *Engine) reachesAll(who *Access) bool {
	if who.MainBlacklisted {
		return false
	}
	for _, a := range e.st.subs {
		if who.Blacklisted[a.ID] {
			return false
		}
	}
	return true
}

// RegisterWebhook registers a webhook (its URL and subscriptions checked
// by the caller) for the operated account, up to maxWebhooks, owned by
// the caller's access.
func (e *Engine) RegisterWebhook(c Caller, url string, subscriptions []string) (uuid.UUID, error) {
	if err := c.Access.MayManageWebhooks(c.Now); err != nil {
		return uuid.Nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	if len(acct.webhooks) >= maxWebhooks {
		return uuid.Nil, conflict(CodeLimitReached, "webhookUrl: this account already has %d webhooks, the maximum; delete one first", maxWebhooks)
	}
	w := &Webhook{ID: e.newID(), URL: url, Subscriptions: slices.Clone(subscriptions), CreatedAt: c.Now, Owner: c.Access.ID}
	acct.webhooks = append(acct.webhooks, w)
	e.changed(acct)
	return w.ID, nil
}

// Webhooks are the operated account's webhooks, as copies.
func (e *Engine) Webhooks(c Caller) ([]Webhook, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	out := make([]Webhook, 0, len(acct.webhooks))
	for _, w := range acct.webhooks {
		out = append(out, w.copy())
	}
	return out, nil
}

func (w *Webhook) copy() Webhook {
	c := *w
	c.Subscriptions = slices.Clone(w.Subscriptions)
	return c
}

// Webhook is a copy of the operated account's webhook id.
func (e *Engine) Webhook(c Caller, id uuid.UUID) (Webhook, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return Webhook{}, err
	}
	for _, w := range acct.webhooks {
		if w.ID == id {
			return w.copy(), nil
		}
	}
	return Webhook{}, notFound("webhook", id)
}

// UpdateWebhook points a webhook of the operated account at url, with
// subscriptions (both checked by the caller), if the caller may change
// it.
func (e *Engine) UpdateWebhook(c Caller, id uuid.UUID, url string, subscriptions []string) (Webhook, error) {
	if err := c.Access.MayManageWebhooks(c.Now); err != nil {
		return Webhook{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return Webhook{}, err
	}
	for _, w := range acct.webhooks {
		if w.ID == id {
			if err := e.mayChange(c.Access, w); err != nil {
				return Webhook{}, err
			}
			w.URL, w.Subscriptions = url, slices.Clone(subscriptions)
			e.changed(acct)
			return w.copy(), nil
		}
	}
	return Webhook{}, notFound("webhook", id)
}

// DeleteWebhook deletes a webhook of the operated account, if the caller
// may change it.
func (e *Engine) DeleteWebhook(c Caller, id uuid.UUID) error {
	if err := c.Access.MayManageWebhooks(c.Now); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(acct.webhooks, func(w *Webhook) bool { return w.ID == id })
	if i < 0 {
		return notFound("webhook", id)
	}
	if err := e.mayChange(c.Access, acct.webhooks[i]); err != nil {
		return err
	}
	acct.webhooks = slices.Delete(acct.webhooks, i, i+1)
	e.changed(acct)
	return nil
}

// AckAttempts marks delivery attempts of the operated account
// acknowledged: all or nothing, an unknown id refuses them all.
func (e *Engine) AckAttempts(c Caller, ids []uuid.UUID) error {
	if err := c.writable(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return err
	}
	barred := e.barred(c.Access)
	for _, id := range ids {
		if a, ok := acct.attempts.get(id); !ok || barred[a.EventAccountID] {
			return notFound("webhook attempt", id)
		}
	}
	for _, id := range ids {
		a, _ := acct.attempts.get(id)
		a.Acknowledged = true
		a.UpdatedAt = fmtTime(c.Now)
		e.saveAttempt(acct, a)
	}
	return nil
}

// Barred are the ids of the accounts who is barred from: a webhook
// attempt of an event of one of them is not shown to who.
func (e *Engine) Barred(who *Access) map[uuid.UUID]bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.barred(who)
}

func (e *Engine) barred(who *Access) map[uuid.UUID]bool {
	out := map[uuid.UUID]bool{}
	if who == nil {
		return out
	}
	for _, a := range append([]*Account{e.st.main}, e.st.subs...) {
		if who.Reaches(a) != nil {
			out[a.ID] = true
		}
	}
	return out
}

// EventFilter is an event list query; empty fields do not filter.
type EventFilter struct {
	Subscription, DataID string
	Window               Window
}

// eventAccounts are the accounts whose events c lists: the operated
// account and, for the main account, each sub-account the access may see
// (spec §8.6: subAccountId filters, the main account sees its
// sub-accounts' events). The caller holds e.mu.
func (e *Engine) eventAccounts(c Caller) ([]*Account, error) {
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	out := []*Account{acct}
	if acct.Main {
		for _, a := range e.st.subs {
			if c.Access == nil || c.Access.Reaches(a) == nil {
				out = append(out, a)
			}
		}
	}
	return out, nil
}

// Events is a page of the recorded events c may see, newest first, from
// the cursor.
func (e *Engine) Events(c Caller, f EventFilter, cursor string) ([]Event, string, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	accts, err := e.eventAccounts(c)
	if err != nil {
		return nil, "", err
	}
	after, err := keyOf(cursor)
	if err != nil {
		return nil, "", err
	}
	ids := make([]uuid.UUID, len(accts))
	for i, a := range accts {
		ids[i] = a.ID
	}
	rows, more, err := e.db.Events(ids, store.EventFilter{Subscription: f.Subscription, DataID: f.DataID, From: f.Window.From, To: f.Window.To}, after, PageSize)
	if err != nil {
		return nil, "", err
	}
	out := make([]Event, len(rows))
	for i, r := range rows {
		if out[i], err = e.eventOf(r); err != nil {
			return nil, "", err
		}
	}
	return out, cursorOf(more), nil
}

// Event is one recorded event, of whichever account (spec §8.6: it takes
// no subAccountId), if c may see that account; one it may not is not
// found.
func (e *Engine) Event(c Caller, id uuid.UUID) (Event, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	r, err := e.db.Event(id)
	if err != nil {
		return Event{}, notFound("webhook event", id)
	}
	acct := e.st.accounts[r.Account]
	if acct == nil || (acct.Main && acct != e.st.main) || (!acct.Main && acct.MainID != e.st.main.ID) ||
		(c.Access != nil && c.Access.Reaches(acct) != nil) {
		return Event{}, notFound("webhook event", id)
	}
	return e.eventOf(r)
}

// eventOf is a stored event with the record it is about, as it reads
// now. The caller holds e.mu.
func (e *Engine) eventOf(r store.EventRow) (Event, error) {
	acct := e.st.accounts[r.Account]
	if acct == nil {
		return Event{}, fmt.Errorf("event %s: unknown account %s", r.ID, r.Account)
	}
	ev := Event{ID: r.ID, Account: acct, Subscription: r.Subscription, Status: r.Status, DataID: r.DataID, CreatedAt: r.CreatedAt}
	id, err := uuid.Parse(r.DataID)
	if err != nil {
		return ev, nil
	}
	switch r.Subscription {
	case "TICKET":
		t, err := e.loadTicket(false, acct, id)
		if err != nil {
			return Event{}, err
		}
		if t != nil {
			ev.Record = t.stored
		}
	case "KYC":
		if k, ok := acct.kyc.get(id); ok {
			ev.Record, _ = json.Marshal(k)
		}
	}
	return ev, nil
}
