package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The rows of what the store's user also keeps in memory: accounts, their
// small collections, events, webhook attempts, multi-signature operations,
// payment sessions and settings. Each write goes to the database in the
// transaction of the request that made it; the caller holds the lock for
// writing.

// AccountRow is an account's own fields.
type AccountRow struct {
	ID, MainID            uuid.UUID
	Name, Kind            string // Kind: INDIVIDUAL or COMPANY
	Main                  bool
	CreatedAt             time.Time
	PixKey, Wallet, TaxID string
}

// PutAccount stores an account's own fields.
func (s *Store) PutAccount(a AccountRow) {
	s.exec(`INSERT INTO accounts (id, name, kind, is_main, main_id, created_at, pix_key, wallet, tax_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, pix_key = excluded.pix_key, wallet = excluded.wallet, tax_id = excluded.tax_id`,
		a.ID.String(), a.Name, a.Kind, boolInt(a.Main), a.MainID.String(), a.CreatedAt.UnixNano(), a.PixKey, a.Wallet, a.TaxID)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PutRecords stores one of an account's small, bounded collections
// (beneficiaries, webhooks, trades, compliance records) as one JSON
// document of its kind.
func (s *Store) PutRecords(account uuid.UUID, kind string, body []byte) {
	s.exec("INSERT INTO account_records (account_id, kind, body) VALUES (?, ?, ?) ON CONFLICT (account_id, kind) DO UPDATE SET body = excluded.body",
		account.String(), kind, string(body))
}

// EventRow is one recorded event.
type EventRow struct {
	ID, Account  uuid.UUID
	Subscription string
	Status       string
	DataID       string
	CreatedAt    time.Time
}

// InsertEvent stores a recorded event.
func (s *Store) InsertEvent(e EventRow) {
	s.exec("INSERT INTO events (id, account_id, subscription, status, data_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
		e.ID.String(), e.Account.String(), e.Subscription, e.Status, e.DataID, e.CreatedAt.UnixNano())
}

// EventFilter is an event list query; empty fields do not filter, and the
// window is From inclusive, To exclusive (zero: open).
type EventFilter struct {
	Subscription, DataID string
	From, To             time.Time
}

// Events reads up to limit events of the accounts matching f, newest
// first, strictly older than after; next is nil on the last page. The
// caller holds the lock for reading.
func (s *Store) Events(accounts []uuid.UUID, f EventFilter, after *Key, limit int) (events []EventRow, next *Key, err error) {
	if len(accounts) == 0 {
		return nil, nil, nil
	}
	marks, args := make([]string, len(accounts)), make([]any, 0, len(accounts)+8)
	for i, a := range accounts {
		marks[i] = "?"
		args = append(args, a.String())
	}
	where := []string{"account_id IN (" + strings.Join(marks, ", ") + ")"}
	if f.Subscription != "" {
		where, args = append(where, "subscription = ?"), append(args, f.Subscription)
	}
	if f.DataID != "" {
		where, args = append(where, "data_id = ?"), append(args, f.DataID)
	}
	if !f.From.IsZero() {
		where, args = append(where, "created_at >= ?"), append(args, f.From.UnixNano())
	}
	if !f.To.IsZero() {
		where, args = append(where, "created_at < ?"), append(args, f.To.UnixNano())
	}
	if after != nil {
		where, args = append(where, "(created_at, id) < (?, ?)"), append(args, after.At, after.ID.String())
	}
	rows, err := s.db.r.QueryContext(context.Background(), "SELECT id, account_id, subscription, status, data_id, created_at FROM events WHERE "+
		strings.Join(where, " AND ")+" ORDER BY created_at DESC, id DESC LIMIT ?", append(args, limit+1)...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e EventRow
		var id, acct string
		var at int64
		if err := rows.Scan(&id, &acct, &e.Subscription, &e.Status, &e.DataID, &at); err != nil {
			return nil, nil, err
		}
		if len(events) == limit {
			last := events[len(events)-1]
			return events, &Key{At: last.CreatedAt.UnixNano(), ID: last.ID}, rows.Err()
		}
		e.ID, e.Account, e.CreatedAt = uuid.MustParse(id), uuid.MustParse(acct), time.Unix(0, at).UTC()
		events = append(events, e)
	}
	return events, nil, rows.Err()
}

// Event reads one event, whatever its account (sql.ErrNoRows: none).
func (s *Store) Event(id uuid.UUID) (EventRow, error) {
	e := EventRow{ID: id}
	var at int64
	var acct string
	err := s.db.r.QueryRowContext(context.Background(), "SELECT account_id, subscription, status, data_id, created_at FROM events WHERE id = ?",
		id.String()).Scan(&acct, &e.Subscription, &e.Status, &e.DataID, &at)
	if err == nil {
		e.Account, err = uuid.Parse(acct)
	}
	e.CreatedAt = time.Unix(0, at).UTC()
	return e, err
}

// AttemptRow is one delivery attempt of an event to a webhook.
type AttemptRow struct {
	ID, Account          uuid.UUID
	EventID, URL         string
	CreatedAt, UpdatedAt time.Time
	ResponseStatus       int
	Acknowledged         bool
	// EventAccount is the event's account (read only, from the event).
	EventAccount uuid.UUID
}

// PutAttempt stores a delivery attempt as it is now.
func (s *Store) PutAttempt(a AttemptRow) {
	s.exec(`INSERT INTO attempts (id, account_id, event_id, url, created_at, updated_at, response_status, acknowledged) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at, response_status = excluded.response_status, acknowledged = excluded.acknowledged`,
		a.ID.String(), a.Account.String(), a.EventID, a.URL, a.CreatedAt.UnixNano(), a.UpdatedAt.UnixNano(), a.ResponseStatus, boolInt(a.Acknowledged))
}

// OperationRow is a multi-signature operation: its owner and requester,
// and the rest of it as its detail (JSON).
type OperationRow struct {
	ID, Account, Requester uuid.UUID
	Status                 string
	CreatedAt              time.Time
	Detail                 []byte
}

// PutOperation stores an operation as it is now.
func (s *Store) PutOperation(o OperationRow) {
	s.exec(`INSERT INTO operations (id, account_id, requester_id, status, created_at, detail) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET status = excluded.status, detail = excluded.detail`,
		o.ID.String(), o.Account.String(), o.Requester.String(), o.Status, o.CreatedAt.UnixNano(), string(o.Detail))
}

// SessionRow is a payment session: its owner and opener, and what it was
// opened with as its detail (JSON).
type SessionRow struct {
	ID, Account, Access uuid.UUID
	CreatedAt           time.Time
	Detail              []byte
}

// InsertSession stores a new payment session.
func (s *Store) InsertSession(r SessionRow) {
	s.exec("INSERT INTO payment_sessions (id, account_id, access_id, created_at) VALUES (?, ?, ?, ?)",
		r.ID.String(), r.Account.String(), r.Access.String(), r.CreatedAt.UnixNano())
	s.SetSessionDetail(r.ID, r.Detail)
}

// SetSessionDetail stores what a session holds beyond its owner.
func (s *Store) SetSessionDetail(id uuid.UUID, detail []byte) {
	s.exec("UPDATE payment_sessions SET detail = ? WHERE id = ?", string(detail), id.String())
}

// SetMeta stores a setting.
func (s *Store) SetMeta(key, value string) {
	s.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
}

// Meta reads a setting stored by SetMeta (ok false when there is none).
func (s *Store) Meta(key string) (value string, ok bool, err error) {
	return metaValue(s.ctx, s.db.r, key)
}

func metaValue(ctx context.Context, db *sql.DB, key string) (string, bool, error) {
	var v string
	err := db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	return v, err == nil, err
}
