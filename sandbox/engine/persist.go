package engine

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// The records the engine keeps in memory as well as in the database:
// accounts, their small collections, webhook attempts, multi-signature
// operations and payment sessions. Each write goes to the database in the
// transaction of the request that made it.

// saveAccount stores an account's own fields. The caller holds e.mu for
// writing.
func (e *Engine) saveAccount(a *Account) {
	e.db.PutAccount(store.AccountRow{
		ID: a.ID, Name: a.Name, Kind: a.Type, Main: a.Main, MainID: a.MainID, CreatedAt: a.CreatedAt,
		PixKey: a.PixKey, Wallet: a.Wallet, TaxID: a.TaxID,
	})
}

// changed notes that one of acct's small collections (beneficiaries,
// webhooks, trades, compliance records) changed; they are rewritten
// before e.mu is released. The caller holds e.mu for writing.
func (e *Engine) changed(acct *Account) {
	if e.dirty == nil {
		e.dirty = map[*Account]bool{}
	}
	e.dirty[acct] = true
}

// accountRecords is the stored form of an account's small collections.
var accountRecordKinds = []string{"wallets", "brl", "usd", "cop", "webhooks", "trades", "ubos", "w8bens", "poa", "eur", "ars", "documents", "kyc", "metadata", "settings"}

func (a *Account) recordsOf(kind string) any {
	switch kind {
	case "wallets":
		return values(a.wallets)
	case "brl":
		return values(a.brl)
	case "usd":
		return values(a.usd)
	case "cop":
		return values(a.cop)
	case "webhooks":
		out := make([]Webhook, len(a.webhooks))
		for i, w := range a.webhooks {
			out[i] = *w
		}
		return out
	case "trades":
		return values(a.trades)
	case "ubos":
		return values(a.ubos)
	case "w8bens":
		return values(a.w8bens)
	case "eur":
		return values(a.eur)
	case "ars":
		return values(a.ars)
	case "documents":
		return values(a.documents)
	case "kyc":
		return values(a.kyc)
	case "metadata":
		return a.metadata
	case "settings":
		return a.settings
	default:
		return values(a.poa)
	}
}

// flushRecords writes the collections of the accounts changed under the
// lock. The caller holds e.mu for writing.
func (e *Engine) flushRecords() {
	for a := range e.dirty {
		for _, kind := range accountRecordKinds {
			body, err := json.Marshal(a.recordsOf(kind))
			if err != nil {
				e.db.Fail(fmt.Errorf("account %s %s: %w", a.ID, kind, err))
				break
			}
			e.db.PutRecords(a.ID, kind, body)
		}
	}
	e.dirty = nil
}

// values copies a collection out, oldest first, to be saved.
func values[T any](s *series[T]) []T {
	out := make([]T, len(s.es))
	for i, e := range s.es {
		out[i] = *e.v
	}
	return out
}

// restore adds saved records to a collection, each at the creation time
// and under the id key reads.
func restore[T any](s *series[T], saved []T, key func(*T) (time.Time, uuid.UUID)) {
	for _, v := range saved {
		at, id := key(&v)
		s.add(at, id, &v)
	}
}

// insertEvent stores a recorded event.
func (e *Engine) insertEvent(acct *Account, ev *Event) {
	e.db.InsertEvent(store.EventRow{ID: ev.ID, Account: acct.ID, Subscription: ev.Subscription, Status: ev.Status, DataID: ev.DataID, CreatedAt: ev.CreatedAt})
}

// saveAttempt stores a delivery attempt as it is now.
func (e *Engine) saveAttempt(acct *Account, a *records.WebhookAttempt) {
	created, _ := time.Parse(time.RFC3339Nano, a.CreatedAt)
	updated, _ := time.Parse(time.RFC3339Nano, a.UpdatedAt)
	e.db.PutAttempt(store.AttemptRow{
		ID: uuid.MustParse(a.ID), Account: acct.ID, EventID: a.WebhookEventID, URL: a.WebhookURL,
		CreatedAt: created, UpdatedAt: updated, ResponseStatus: a.ResponseStatus, Acknowledged: a.Acknowledged,
	})
}

// operationState is the stored detail of a multi-signature operation.
type operationState struct {
	Status       records.OperationStatus `json:"status"`
	CreatedAt    time.Time               `json:"createdAt"`
	ExpiresAt    time.Time               `json:"expiresAt"`
	Payload      json.RawMessage         `json:"payload"`
	Request      TicketRequest           `json:"request"`
	Quote        QuoteClaims             `json:"quote"`
	Approvals    []uuid.UUID             `json:"approvals"`
	ExecutedID   string                  `json:"executedId"`
	Reason       string                  `json:"reason"`
	DecidedAt    time.Time               `json:"decidedAt"`
	MinApprovals int32                   `json:"minApprovals"`
	RejectedBy   string                  `json:"rejectedBy,omitempty"`
}

// saveOperation stores an operation as it is now.
func (e *Engine) saveOperation(op *Operation) {
	st := operationState{
		Status: op.Status, CreatedAt: op.CreatedAt, ExpiresAt: op.ExpiresAt, Payload: op.Payload, Request: op.req, Quote: op.q,
		ExecutedID: op.ExecutedID, Reason: op.Reason, DecidedAt: op.DecidedAt, MinApprovals: op.MinApprovals, RejectedBy: op.RejectedBy,
	}
	for id := range op.approvals {
		st.Approvals = append(st.Approvals, id)
	}
	detail, err := json.Marshal(st)
	if err != nil {
		e.db.Fail(fmt.Errorf("operation %s: %w", op.ID, err))
		return
	}
	e.db.PutOperation(store.OperationRow{ID: op.ID, Account: op.Acct.ID, Requester: op.Requester.ID, Status: string(op.Status), CreatedAt: op.CreatedAt, Detail: detail})
}

// saveSession stores a new payment session.
func (e *Engine) saveSession(ps *Session) {
	detail, err := json.Marshal(ps.SessionDetail)
	if err != nil {
		e.db.Fail(err)
		return
	}
	e.db.InsertSession(store.SessionRow{ID: ps.ID, Account: ps.Account.ID, Access: ps.Opener.ID, CreatedAt: ps.CreatedAt, Detail: detail})
}

// saveSessionDetail stores what a session holds beyond its owner.
func (e *Engine) saveSessionDetail(ps *Session) {
	detail, err := json.Marshal(ps.SessionDetail)
	if err != nil {
		e.db.Fail(err)
		return
	}
	e.db.SetSessionDetail(ps.ID, detail)
}
