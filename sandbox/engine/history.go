package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// The demo history (package demo) is made by the same code that serves
// requests, run at past times, so it obeys every rule: a History is the
// engine while it is built, in one write transaction, with ids and hashes
// drawn from the demo's deterministic source instead of the random one.

// Source is where the ids, hashes and the simulated answers of webhook
// receivers come from while a history is built: deterministic for a seed.
type Source interface {
	UUID() uuid.UUID
	Hex(n int) string
	IntN(n int) int
}

// History is the engine while a demo history is built: it holds the lock
// for writing until End.
type History struct {
	e *Engine
}

// BeginHistory takes the lock for writing and has the engine draw from
// src, the history's "now" being now, until End.
func (e *Engine) BeginHistory(src Source, now time.Time) *History {
	e.mu.Lock()
	e.seed, e.seedNow = src, now
	return &History{e: e}
}

// End stops drawing from the source and releases the lock, committing
// what was built.
func (h *History) End() {
	if err := h.e.endPresent(); err != nil && h.e.seedErr == nil {
		h.Fail(fmt.Errorf("demo present: %w", err))
	}
	h.e.seed = nil
	h.e.mu.Unlock()
}

// Fail records a defect of the demo data: the transaction is not
// committed, and every request is answered with err.
func (h *History) Fail(err error) {
	h.e.seedErr = err
	h.e.db.Fail(err)
}

// Main is the main account.
func (h *History) Main() *Account { return h.e.st.main }

// SubAccounts are the sub-accounts, in creation order.
func (h *History) SubAccounts() []*Account { return h.e.st.subs }

// AccessByMail is the access of an e-mail, or nil.
func (h *History) AccessByMail(mail string) *Access { return h.e.st.accessByMail[mail] }

// SaveSettings stores the seed the history is made from and the number of
// approvals an operation needs.
func (h *History) SaveSettings(seed int64) {
	h.e.db.SetMeta("seed", strconv.FormatInt(seed, 10))
	h.e.db.SetMeta("min_approvals", strconv.Itoa(int(h.e.st.minApprovals)))
}

// SaveAccount stores an account's own fields.
func (h *History) SaveAccount(a *Account) { h.e.saveAccount(a) }

// Open moves amount of currency into acct as an opening balance, at at.
func (h *History) Open(acct *Account, currency string, amount decimal.Decimal, at time.Time) {
	h.e.move(acct, currency, amount, uuid.Nil, moveOpening, at)
}

// Currencies are the currencies acct holds a balance of, sorted.
func (h *History) Currencies(acct *Account) []string { return slices.Sorted(maps.Keys(acct.balances)) }

// SetBalance moves acct's balance of currency to want, at at.
func (h *History) SetBalance(acct *Account, currency string, want decimal.Decimal, at time.Time) {
	h.e.setBalance(acct, currency, want, at)
}

// AddWebhook registers a webhook of acct.
func (h *History) AddWebhook(acct *Account, w *Webhook) {
	acct.webhooks = append(acct.webhooks, w)
	h.e.changed(acct)
}

// LockRail locks the fiat rail of currency for acct (§8.7): its quotes and
// tickets on that rail are refused from now on.
func (h *History) LockRail(acct *Account, currency string) error {
	open := acct.metadata.Rail(currency)
	if open == nil {
		return fmt.Errorf("%s has no fiat rail to lock", currency)
	}
	*open = false
	h.e.changed(acct)
	return nil
}

// Changed says that one of acct's small collections was changed.
func (h *History) Changed(acct *Account) { h.e.changed(acct) }

// Quote prices r as the quote endpoint would have at at, for who on acct,
// at the rates of rateAt; id is the quote's.
func (h *History) Quote(r *QuoteRequest, id uuid.UUID, acct *Account, who *Access, at, rateAt time.Time) (*QuoteClaims, error) {
	bp := basePrice(r.InputCurrency, r.OutputCurrency, rateAt)
	fees, out := r.forward(r.InputAmount, bp)
	if !out.IsPositive() {
		return nil, fmt.Errorf("demo quote %s→%s of %s does not cover its fees", r.InputCurrency, r.OutputCurrency, r.InputAmount)
	}
	q := &QuoteClaims{
		ID: id, SubAccountID: acct.SubAccountID(), AccountID: acct.ID, AccessID: who.ID,
		IssuedAt: at.Add(-3 * time.Second).UnixMilli(), ExpiresAt: at.Add(12 * time.Second).UnixMilli(),
		InputCurrency: r.InputCurrency, InputPaymentMethod: r.InputMethod, InputAmount: r.InputAmount,
		OutputCurrency: r.OutputCurrency, OutputPaymentMethod: r.OutputMethod, OutputAmount: out,
		BasePrice: bp, SendMethod: r.SendMethod, Fees: fees, MarkupAmount: decimal.Zero,
	}
	if r.hasMarkup() {
		q.MarkupCurrency = r.InputCurrency
		q.MarkupAmount = markupTotal(fees, r.InputCurrency, r.InputCurrency, r.OutputCurrency, bp)
	}
	return q, nil
}

// Plan is a ticket creation checked against its quote and account.
type Plan struct{ p *ticketPlan }

// Plan checks a creation of who on acct at at, its quote honoured as a
// parked one is (its expiry not checked).
func (h *History) Plan(acct *Account, who *Access, req *TicketRequest, at time.Time, q *QuoteClaims) (*Plan, error) {
	p, err := h.e.planTicket(acct, who, req, at, false, q)
	if err != nil {
		return nil, err
	}
	return &Plan{p}, nil
}

// Past is a ticket of the history, made at a past time.
type Past struct {
	e *Engine
	t *ticket
}

// Make creates the ticket a plan describes, at at.
func (h *History) Make(p *Plan, at time.Time) (*Past, error) {
	t, err := h.e.makeTicketLocked(p.p, at)
	if err != nil {
		return nil, err
	}
	return &Past{h.e, t}, nil
}

// Ticket is the ticket's record.
func (t *Past) Ticket() *records.Ticket { return &t.t.Ticket }

// PaysOut reports whether the ticket's output leaves the account.
func (t *Past) PaysOut() bool {
	return t.t.outKind != "internal" && t.t.outKind != "own" && t.t.outKind != "move"
}

// FailDelivery has the delivery fail for reason.
func (t *Past) FailDelivery(reason string) {
	t.t.failReason = reason
	t.e.saveTicket(t.t)
}

// FundAt has the payer pay at at.
func (t *Past) FundAt(at time.Time) {
	t.t.fundAt = at
	t.e.schedule(at, dueFund, t.t.ID, nil)
	t.e.saveTicket(t.t)
}

// QueueUntil has the ticket, funded at at, wait in PENDING for payAt, for
// reason.
func (t *Past) QueueUntil(at, payAt time.Time, reason string) {
	t.t.payAt = payAt
	t.t.Reason = reason
	t.e.transitionLocked(t.t, records.TicketPending, at, "DEPOSIT-SUCCESS")
	t.e.schedule(payAt, duePay, t.t.ID, nil)
	t.e.saveTicket(t.t)
}

// CancelAt has the caller cancel the ticket at at.
func (t *Past) CancelAt(at time.Time) {
	t.t.Reason, t.t.fundAt = reasonCanceled, time.Time{}
	t.e.transitionLocked(t.t, records.TicketCanceled, at, "TICKET-CANCELED")
	t.e.saveTicket(t.t)
}

// PartiallyFailAt has part of the ticket's split delivery fail at at, for
// reason.
func (t *Past) PartiallyFailAt(at time.Time, reason string) {
	t.t.payAt = time.Time{}
	t.t.FailureReason = reason
	t.e.transitionLocked(t.t, records.TicketPartialFailed, at, "DELIVERY-FAILED")
	t.e.saveTicket(t.t)
}

// Parked is an operation of the history.
type Parked struct {
	e  *Engine
	op *Operation
}

// Park parks the creation a plan describes as a pending operation at at,
// its quote sealed into the request with key (a key of the history's own:
// such tokens never open with the engine's).
func (h *History) Park(p *Plan, key []byte, at time.Time) (*Parked, error) {
	p.p.req.QuoteToken = sealQuoteWith(key, p.p.q)
	body, err := json.Marshal(p.p.req)
	if err != nil {
		return nil, err
	}
	return &Parked{h.e, h.e.parkLocked(p.p, body, at)}, nil
}

// Approve records who's approval.
func (o *Parked) Approve(who *Access) { o.op.approvals[who.ID] = true }

// Execute creates the operation's ticket at at.
func (o *Parked) Execute(at time.Time) { o.e.executeLocked(o.op, at) }

// Reject has the operation rejected at at, for reason.
func (o *Parked) Reject(reason string, at time.Time) {
	o.op.Status, o.op.Reason, o.op.DecidedAt = records.OperationRejected, reason, at
}

// Save stores the operation as it ended up.
func (o *Parked) Save() { o.e.saveOperation(o.op) }

// Advance applies every transition due at now.
func (h *History) Advance(now time.Time) { h.e.advanceLocked(now) }

// Tickets are every ticket of acct, oldest first.
func (h *History) Tickets(acct *Account) ([]*records.Ticket, error) {
	all, err := h.e.allTickets(true, acct)
	if err != nil {
		return nil, err
	}
	out := make([]*records.Ticket, len(all))
	for i, t := range all {
		out[i] = &t.Ticket
	}
	return out, nil
}

// Ledger is every move, in time order.
func (h *History) Ledger() ([]store.LedgerMove, error) { return h.e.db.Ledger() }

// ReplaceLedger writes moves as the whole ledger.
func (h *History) ReplaceLedger(moves []store.LedgerMove) error { return h.e.db.ReplaceLedger(moves) }

// The reasons of the opening and transfer moves a history's ledger
// starts and ends with.
const (
	MoveOpening  = moveOpening
	MoveTransfer = moveTransfer
)

// EndToEndID is a PIX end-to-end id of a payment at at through ispb.
func (h *History) EndToEndID(ispb string, at time.Time) string { return h.e.endToEndID(ispb, at) }

// Template is the ticket a plan describes at now, made and rolled back:
// nothing of it is stored, and nothing it changed in memory stays.
func (h *History) Template(p *Plan, now time.Time) (*Past, error) {
	t, err := h.e.ticketTemplate(p.p, now)
	if err != nil {
		return nil, err
	}
	return &Past{h.e, t}, nil
}

// Fill stores n copies of a template ticket, the i-th changed by vary
// (its id, times, status, blocks): settled tickets that move no balance.
func (h *History) Fill(n int, tmpl *Past, vary func(i int, t *records.Ticket)) error {
	defer h.e.usage.changed()
	return h.e.db.FillTickets(n, func(i int) (*store.TicketRow, error) {
		t := *tmpl.t
		vary(i, &t.Ticket)
		t.Quote.TicketID = t.ID
		t.fundAt, t.payAt = time.Time{}, time.Time{}
		return ticketRow(&t)
	})
}

// ticketTemplate builds the ticket a plan describes without storing it or
// scheduling anything: the writes it makes go to a scratch transaction.
// The caller holds e.mu for writing.
func (e *Engine) ticketTemplate(p *ticketPlan, now time.Time) (t *ticket, err error) {
	err = e.db.Scratch(func() error {
		// What the request code changes in memory is put back as well.
		due, balances := slices.Clone(e.st.due), maps.Clone(p.acct.balances)
		hearers := e.hearers(p.acct)
		hooks := make([][]*Webhook, len(hearers))
		for i, a := range hearers {
			hooks[i], a.webhooks = a.webhooks, nil
		}
		var err error
		t, err = e.makeTicketLocked(p, now)
		e.st.due, p.acct.balances = due, balances
		for i, a := range hearers {
			a.webhooks = hooks[i]
		}
		return err
	})
	return t, err
}

// AddAccount adds an account (the demo's, at start, before the engine
// serves).
func (e *Engine) AddAccount(a *Account) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.st.addAccount(a)
}

// NewAccount makes an account with empty collections.
func NewAccount(id uuid.UUID, name, typ string, main bool, mainID uuid.UUID, created time.Time) *Account {
	return newAccount(id, name, typ, main, mainID, created)
}

// Load reads a validated database into the engine, which holds the demo
// accesses (they come from the seed, not from the file).
func (e *Engine) Load() error {
	e.mu.Lock()
	st := e.st
	e.mu.Unlock()
	return e.loadState(st)
}
