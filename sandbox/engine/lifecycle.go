package engine

import (
	"container/heap"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// The lifecycle advances from the sandbox clock: every scheduled transition
// sits in a queue ordered by time; each request first applies what is due
// at its clock reading (so a fake clock gives deterministic results), and a
// sweeper does the same in the background so that webhooks fire even when
// nobody asks.

type dueKind int

const (
	dueFund dueKind = iota
	duePay
	dueExpire
	dueOpExpire
)

type dueItem struct {
	at   int64 // UnixNano
	kind dueKind
	t    uuid.UUID // the ticket, read when due
	op   *Operation
}

type dueQueue []dueItem

func (q dueQueue) Len() int           { return len(q) }
func (q dueQueue) Less(i, j int) bool { return q[i].at < q[j].at }
func (q dueQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *dueQueue) Push(x any)        { *q = append(*q, x.(dueItem)) }
func (q *dueQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// schedule queues a transition. The caller holds e.mu.
func (e *Engine) schedule(at time.Time, kind dueKind, t uuid.UUID, op *Operation) {
	heap.Push(&e.st.due, dueItem{at: at.UnixNano(), kind: kind, t: t, op: op})
	e.presentScheduled(at, kind)
	if n := at.UnixNano(); n < e.nextDue.Load() {
		e.nextDue.Store(n)
		select {
		case e.wake <- struct{}{}:
		default:
		}
	}
}

// Scaled is a lifecycle delay at the engine's speed factor.
func (e *Engine) Scaled(d time.Duration) time.Duration { return e.scaled(d) }

// scaled divides a lifecycle delay by the speed factor.
func (e *Engine) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / e.speed)
}

// AdvanceIfDue applies every transition due at now (each request does,
// first, at its own clock reading), once the earliest is Config.Batch
// overdue: the transitions that fell due meanwhile go in the same
// transaction.
func (e *Engine) AdvanceIfDue(now time.Time) {
	if now.UnixNano()-e.batch < e.nextDue.Load() {
		return
	}
	e.advance(now)
}

// advance applies every transition due at now.
func (e *Engine) advance(now time.Time) {
	e.mu.Lock()
	e.advanceLocked(now)
	e.mu.Unlock()
}

// advanceLocked applies every transition due at now, in time order, each at
// its own scheduled time. The caller holds e.mu.
func (e *Engine) advanceLocked(now time.Time) {
	n := now.UnixNano()
	for len(e.st.due) > 0 && e.st.due[0].at <= n {
		it := heap.Pop(&e.st.due).(dueItem)
		at := time.Unix(0, it.at).UTC()
		if it.kind == dueOpExpire {
			if it.op.Status == records.OperationPending {
				it.op.Status = records.OperationExpired
				it.op.DecidedAt = at
				it.op.Reason = "not approved within 24 hours"
				e.saveOperation(it.op)
			}
			continue
		}
		t, err := e.ticketByID(true, it.t)
		if err != nil {
			e.db.Fail(fmt.Errorf("lifecycle of ticket %s: %w", it.t, err))
			continue
		}
		if t == nil {
			continue
		}
		switch it.kind {
		case dueFund:
			if t.Status == records.TicketUnpaid && t.fundAt.Equal(at) && at.Before(t.ExpiresAt.Time) {
				e.fundLocked(t, at)
				e.saveTicket(t)
			}
		case duePay:
			switch {
			case t.Status == records.TicketProcessing && t.payAt.Equal(at):
				e.deliverLocked(t, at)
				e.saveTicket(t)
			case t.Status == records.TicketPending && t.payAt.Equal(at):
				e.startProcessingLocked(t, at, "DELIVERY-PROCESSING")
				e.saveTicket(t)
			}
		case dueExpire:
			if t.Status == records.TicketUnpaid && !at.Before(t.ExpiresAt.Time) {
				t.Reason = ReasonExpired
				e.transitionLocked(t, records.TicketCanceled, at, "TICKET-CANCELED")
				t.fundAt = time.Time{}
				e.saveTicket(t)
			}
		}
	}
	if len(e.st.due) > 0 {
		e.nextDue.Store(e.st.due[0].at)
	} else {
		e.nextDue.Store(math.MaxInt64)
	}
}

// sweepEvery is how often the sweeper reads a clock that is not the
// wall clock (a test's), which may jump at any time.
const sweepEvery = 100 * time.Millisecond

// Sweep applies, until ctx is done, what falls due as the clock moves,
// so that webhooks fire even when nobody asks. On the wall clock it sleeps
// until the next transition is due (a sandbox with nothing scheduled
// never wakes: an idle process costs nothing); on another clock it reads
// it every sweepEvery.
func (e *Engine) Sweep(ctx context.Context) {
	if !e.realClock {
		tick := time.NewTicker(sweepEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				e.AdvanceIfDue(e.now())
			}
		}
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		timer.Stop()
		if n := e.nextDue.Load(); n != math.MaxInt64 {
			// Batch late: what falls due meanwhile goes in the same
			// transaction (AdvanceIfDue).
			timer.Reset(max(time.Until(time.Unix(0, n+e.batch)), 0))
		}
		select {
		case <-ctx.Done():
			return
		case <-e.wake:
		case <-timer.C:
			e.AdvanceIfDue(e.now())
		}
	}
}

// transitionLocked sets a ticket's status and records the event.
func (e *Engine) transitionLocked(t *ticket, status records.TicketStatus, at time.Time, event string) {
	e.stampInfoIDs(t)
	t.Status = status
	t.UpdatedAt = records.NewTime(at)
	e.recordTicketEvent(t, event, at)
}

func randomHex(n int) string {
	b := make([]byte, n/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// newID is a random identifier at run time, and a deterministic one while
// the demo data is built.
func (e *Engine) newID() uuid.UUID {
	if e.seed != nil {
		return e.seed.UUID()
	}
	return uuid.New()
}

func (e *Engine) randomHex(n int) string {
	if e.seed != nil {
		return e.seed.Hex(n)
	}
	return randomHex(n)
}

func (e *Engine) txHash() string { return "0x" + e.randomHex(64) }

// endToEndID is a PIX end-to-end id: E + ISPB (8) + yyyyMMddHHmm + 11
// alphanumerics, 32 characters.
func (e *Engine) endToEndID(ispb string, at time.Time) string {
	return "E" + ispb + at.UTC().Format("200601021504") + strings.ToUpper(e.randomHex(12))[:11]
}

const sandboxISPB = "13370000"

// fundLocked records the input as received: UNPAID → PROCESSING.
func (e *Engine) fundLocked(t *ticket, at time.Time) {
	q := &t.q
	switch {
	case q.InputPaymentMethod == "PIX":
		e2e := e.endToEndID("60701190", at)
		info := &records.BrazilianFiatSenderInfo{
			ID: e.newID().String(), TicketID: t.ID.String(), Name: "Pagador Sandbox", TaxID: "52998224725",
			BankCode: "60701190", BranchCode: "0001", AccountNumber: "12345678", AccountType: "CACC", EndToEndID: e2e,
		}
		if in := t.BrlPixInputInfo; in != nil {
			info.ReferenceLabel, info.AdditionalData, info.BrCode = in.ReferenceLabel, in.AdditionalData, in.BrCode
		}
		t.BrazilianFiatSenderInfo = info
	case money.IsChain(q.InputPaymentMethod):
		info := records.BlockchainSenderInfo{}
		if t.BlockchainSenderInfo != nil {
			info = *t.BlockchainSenderInfo
		}
		info.TxHash = e.txHash()
		t.BlockchainSenderInfo = &info
	}
	// The payment lands in the account as its token until delivery.
	if tok := tokenFor(q.InputCurrency); tok != "" && q.InputPaymentMethod != "INTERNAL" {
		e.move(t.acct, tok, q.InputAmount, t.ID, moveFunded, at)
		t.held = q.InputAmount
	}
	t.fundAt = time.Time{}
	e.startProcessingLocked(t, at, "DEPOSIT-SUCCESS")
}

// tokenFor is the token a fiat amount lands as in a balance.
func tokenFor(currency string) string {
	switch currency {
	case "BRL":
		return "BRLA"
	case "USD":
		return "USDC"
	case "EUR":
		return "EURC"
	}
	if money.IsToken(currency) {
		return currency
	}
	return ""
}

// deliverLocked delivers the output: PROCESSING → PAID, or FAILED when the
// beneficiary disappeared in the meantime.
func (e *Engine) deliverLocked(t *ticket, at time.Time) {
	acct, q := t.acct, &t.q
	t.payAt = time.Time{}
	gone := ""
	switch t.outKind {
	case "brl":
		gone = brlKind.missing(acct, t.outID)
	case "wallet":
		gone = walletKind.missing(acct, t.outID)
	case "usd":
		gone = usdKind.missing(acct, t.outID)
	case "cop":
		gone = copKind.missing(acct, t.outID)
	case "eur":
		gone = eurKind.missing(acct, t.outID)
	case "ars":
		gone = arsKind.missing(acct, t.outID)
	case "move":
		if e.st.accounts[t.outID] == nil {
			gone = "account"
		}
	}
	if gone == "" && t.failReason != "" {
		gone = "-"
	}
	if gone != "" {
		t.FailureReason = fmt.Sprintf("the %s %s was removed before delivery", gone, t.outID)
		if gone == "-" {
			t.FailureReason = t.failReason
		}
		// An INTERNAL input goes back; a funded one stays in the balance.
		if t.debited.IsPositive() {
			e.move(acct, q.InputCurrency, t.debited, t.ID, moveRefund, at)
			t.debited = decimal.Zero
		}
		t.held = decimal.Zero
		e.transitionLocked(t, records.TicketFailed, at, "DELIVERY-FAILED")
		return
	}
	switch {
	case t.BrazilianFiatReceiverInfo != nil:
		r := *t.BrazilianFiatReceiverInfo
		r.EndToEndID = e.endToEndID(sandboxISPB, at)
		t.BrazilianFiatReceiverInfo = &r
	case t.BlockchainReceiverInfo != nil && t.outKind != "move":
		r := *t.BlockchainReceiverInfo
		r.TxHash = e.txHash()
		t.BlockchainReceiverInfo = &r
	}
	if t.held.IsPositive() {
		e.move(acct, tokenFor(q.InputCurrency), t.held.Neg(), t.ID, moveDelivery, at)
		t.held = decimal.Zero
	}
	switch t.outKind {
	case "internal", "own":
		e.move(acct, q.OutputCurrency, q.OutputAmount, t.ID, moveCredit, at)
	case "move":
		e.move(e.st.accounts[t.outID], q.OutputCurrency, q.OutputAmount, t.ID, moveIn, at)
	}
	if t.MarkupInfo != nil {
		m := *t.MarkupInfo
		m.TxHash = e.txHash()
		t.MarkupInfo = &m
		if tok := tokenFor(q.MarkupCurrency); tok != "" {
			e.move(acct, tok, q.MarkupAmount, t.ID, moveMarkup, at)
		}
	}
	t.Rebate = rebateOf(t)
	e.transitionLocked(t, records.TicketPaid, at, "TICKET-COMPLETE")
}

// rebateOf is the part of a delivered ticket's rebatable fees paid back
// (§8.2; the sandbox's rule [decided]): half of them, in the output
// currency at the rate the quote converted at, to the account's service
// wallet (the first of its account-info wallets); nil when none were
// charged. Its id is derived from the ticket's, so that making it draws
// nothing from the demo's source.
func rebateOf(t *ticket) *records.Rebate {
	q := &t.Quote
	reb, total := decimal.Zero, decimal.Zero
	for _, f := range q.AppliedFees {
		if f.Currency != q.InputCurrency {
			continue
		}
		total = total.Add(f.Amount)
		if f.Rebatable != nil && *f.Rebatable {
			reb = reb.Add(f.Amount)
		}
	}
	net := q.InputAmount.Sub(total)
	if !reb.IsPositive() || !net.IsPositive() {
		return nil
	}
	amt := reb.Div(decimal.NewFromInt(2)).Mul(q.OutputAmount).DivRound(net, 18).RoundFloor(money.Precision(q.OutputCurrency))
	if !amt.IsPositive() {
		return nil
	}
	return &records.Rebate{
		ID: uuid.NewSHA1(t.ID, []byte("rebate")), TicketID: t.ID, Amount: amt, Currency: q.OutputCurrency,
		DestinationWalletAddress: t.acct.Wallet,
	}
}
