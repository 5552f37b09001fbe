package sandbox

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// The records the sandbox keeps in memory as well as in the database:
// accounts, their small collections, webhook attempts, multi-signature
// operations and payment sessions. Each write goes to the database in the
// transaction of the request that made it.

// saveAccount stores an account's own fields. The caller holds s.mu for
// writing.
func (s *Server) saveAccount(a *account) {
	s.exec(`INSERT INTO accounts (id, name, kind, is_main, main_id, created_at, pix_key, wallet, tax_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, pix_key = excluded.pix_key, wallet = excluded.wallet, tax_id = excluded.tax_id`,
		a.ID.String(), a.Name, a.Type, boolInt(a.Main), a.MainID.String(), a.CreatedAt.UnixNano(), a.PixKey, a.Wallet, a.TaxID)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// changed notes that one of acct's small collections (beneficiaries,
// webhooks, trades, compliance records) changed; the commit rewrites
// them. The caller holds s.mu for writing.
func (s *Server) changed(acct *account) {
	s.tx()
	if s.dirty == nil {
		s.dirty = map[*account]bool{}
	}
	s.dirty[acct] = true
}

// accountRecords is the stored form of an account's small collections.
var accountRecordKinds = []string{"wallets", "brl", "usd", "cop", "webhooks", "trades", "ubos", "w8bens", "poa", "eur", "ars", "documents", "kyc"}

func (a *account) recordsOf(kind string) any {
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
		out := make([]webhook, len(a.webhooks))
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
	default:
		return values(a.poa)
	}
}

// flushRecords writes the collections of the accounts changed in the
// batch. The caller holds s.mu for writing.
func (s *Server) flushRecords(b *batch) error {
	for a := range s.dirty {
		for _, kind := range accountRecordKinds {
			body, err := json.Marshal(a.recordsOf(kind))
			if err != nil {
				return fmt.Errorf("account %s %s: %w", a.ID, kind, err)
			}
			s.exec("INSERT INTO account_records (account_id, kind, body) VALUES (?, ?, ?) ON CONFLICT (account_id, kind) DO UPDATE SET body = excluded.body",
				a.ID.String(), kind, string(body))
		}
	}
	s.dirty = nil
	return b.err
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
func (s *Server) insertEvent(acct *account, ev *event) {
	s.exec("INSERT INTO events (id, account_id, subscription, status, data_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
		ev.ID.String(), acct.ID.String(), ev.Subscription, ev.Status, ev.DataID.String(), ev.CreatedAt.UnixNano())
}

// saveAttempt stores a delivery attempt as it is now.
func (s *Server) saveAttempt(acct *account, a *attempt) {
	created, _ := time.Parse(time.RFC3339Nano, a.CreatedAt)
	updated, _ := time.Parse(time.RFC3339Nano, a.UpdatedAt)
	s.exec(`INSERT INTO attempts (id, account_id, event_id, url, created_at, updated_at, response_status, acknowledged) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at, response_status = excluded.response_status, acknowledged = excluded.acknowledged`,
		a.ID, acct.ID.String(), a.WebhookEventID, a.WebhookURL, created.UnixNano(), updated.UnixNano(), a.ResponseStatus, boolInt(a.Acknowledged))
}

// operationState is the stored detail of a multi-signature operation.
type operationState struct {
	Status       OperationStatus `json:"status"`
	CreatedAt    time.Time       `json:"createdAt"`
	ExpiresAt    time.Time       `json:"expiresAt"`
	Payload      json.RawMessage `json:"payload"`
	Request      ticketRequest   `json:"request"`
	Quote        quoteClaims     `json:"quote"`
	Approvals    []uuid.UUID     `json:"approvals"`
	ExecutedID   string          `json:"executedId"`
	Reason       string          `json:"reason"`
	DecidedAt    time.Time       `json:"decidedAt"`
	MinApprovals int32           `json:"minApprovals"`
	RejectedBy   string          `json:"rejectedBy,omitempty"`
}

// saveOperation stores an operation as it is now.
func (s *Server) saveOperation(op *operation) {
	st := operationState{
		Status: op.Status, CreatedAt: op.CreatedAt, ExpiresAt: op.ExpiresAt, Payload: op.Payload, Request: op.req, Quote: op.q,
		ExecutedID: op.ExecutedID, Reason: op.Reason, DecidedAt: op.DecidedAt, MinApprovals: op.MinApprovals, RejectedBy: op.RejectedBy,
	}
	for id := range op.approvals {
		st.Approvals = append(st.Approvals, id)
	}
	detail, err := json.Marshal(st)
	if err != nil {
		s.tx().fail(fmt.Errorf("operation %s: %w", op.ID, err))
		return
	}
	s.exec(`INSERT INTO operations (id, account_id, requester_id, status, created_at, detail) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET status = excluded.status, detail = excluded.detail`,
		op.ID.String(), op.Acct.ID.String(), op.Requester.ID.String(), string(op.Status), op.CreatedAt.UnixNano(), string(detail))
}

// saveSession stores a new payment session.
func (s *Server) saveSession(ps *paymentSession) {
	s.exec("INSERT INTO payment_sessions (id, account_id, access_id, created_at) VALUES (?, ?, ?, ?)",
		ps.ID.String(), ps.acct.ID.String(), ps.who.ID.String(), ps.CreatedAt.UnixNano())
}

// saveMeta stores a setting.
func (s *Server) saveMeta(key, value string) {
	s.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
}
