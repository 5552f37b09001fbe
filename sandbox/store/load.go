package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// What a validated database holds besides its tickets, read once at start
// by the store's user, each kind through its own reader: the settings,
// the accounts and their small collections, balances, webhook attempts,
// operations and sessions, and the tickets the lifecycle still has to
// move. Each reader hands the rows to f in a stable order and stops at the
// first error f returns.

// MinApprovals is the stored number of approvals an operation needs
// (ok false: none stored).
func (s *Store) MinApprovals() (n int32, ok bool, err error) {
	v, ok, err := metaValue(s.ctx, s.db.r, "min_approvals")
	if err != nil || !ok {
		return 0, false, err
	}
	i, _ := strconv.Atoi(v)
	return int32(i), true, nil
}

// EachAccount reads the accounts, oldest first.
func (s *Store) EachAccount(f func(AccountRow) error) error {
	return s.eachRow("SELECT id, name, kind, is_main, main_id, created_at, pix_key, wallet, tax_id FROM accounts ORDER BY created_at, id", func(r *sql.Rows) error {
		var id, mainID string
		var isMain int
		var created int64
		var a AccountRow
		if err := r.Scan(&id, &a.Name, &a.Kind, &isMain, &mainID, &created, &a.PixKey, &a.Wallet, &a.TaxID); err != nil {
			return err
		}
		aid, err1 := uuid.Parse(id)
		mid, err2 := uuid.Parse(mainID)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("account %q has a malformed id", id)
		}
		a.ID, a.MainID, a.Main, a.CreatedAt = aid, mid, isMain == 1, time.Unix(0, created).UTC()
		return f(a)
	})
}

// BalanceRow is one stored balance.
type BalanceRow struct {
	Account, Currency string
	Amount            decimal.Decimal
}

// EachBalance reads the balances.
func (s *Store) EachBalance(f func(BalanceRow) error) error {
	return s.eachRow("SELECT account_id, currency, amount FROM balances", func(r *sql.Rows) error {
		var b BalanceRow
		var amount string
		if err := r.Scan(&b.Account, &b.Currency, &amount); err != nil {
			return err
		}
		d, err := decimal.NewFromString(amount)
		if err != nil {
			return fmt.Errorf("balance %s of account %s is not a number: %q", b.Currency, b.Account, amount)
		}
		b.Amount = d
		return f(b)
	})
}

// EachRecords reads the accounts' small collections, one document per
// account and kind.
func (s *Store) EachRecords(f func(account, kind string, body []byte) error) error {
	return s.eachRow("SELECT account_id, kind, body FROM account_records", func(r *sql.Rows) error {
		var acct, kind, body string
		if err := r.Scan(&acct, &kind, &body); err != nil {
			return err
		}
		return f(acct, kind, []byte(body))
	})
}

// EachAttempt reads the webhook attempts, oldest first, each with the raw
// id of its account (the row's Account is left for f to resolve).
func (s *Store) EachAttempt(f func(account string, a AttemptRow) error) error {
	return s.eachRow(`SELECT a.id, a.account_id, a.event_id, a.url, a.created_at, a.updated_at, a.response_status, a.acknowledged, COALESCE(e.account_id, '')
	FROM attempts a LEFT JOIN events e ON e.id = a.event_id ORDER BY a.created_at, a.id`, func(r *sql.Rows) error {
		var id, acct, evAcct string
		var created, updated int64
		var acked int
		var a AttemptRow
		if err := r.Scan(&id, &acct, &a.EventID, &a.URL, &created, &updated, &a.ResponseStatus, &acked, &evAcct); err != nil {
			return err
		}
		if evAcct != "" {
			a.EventAccount, _ = uuid.Parse(evAcct)
		}
		aid, err := uuid.Parse(id)
		if err != nil {
			return fmt.Errorf("attempt id %q: %w", id, err)
		}
		a.ID = aid
		a.CreatedAt, a.UpdatedAt, a.Acknowledged = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC(), acked == 1
		return f(acct, a)
	})
}

// EachOperation reads the multi-signature operations, oldest first, each
// with the raw id of its account (the row's Account is left for f to
// resolve).
func (s *Store) EachOperation(f func(account string, o OperationRow) error) error {
	return s.eachRow("SELECT id, account_id, requester_id, detail FROM operations ORDER BY created_at, id", func(r *sql.Rows) error {
		var id, acct, requester, detail string
		if err := r.Scan(&id, &acct, &requester, &detail); err != nil {
			return err
		}
		oid, err1 := uuid.Parse(id)
		rid, err2 := uuid.Parse(requester)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("operation %s refers to an unknown access %s", id, requester)
		}
		return f(acct, OperationRow{ID: oid, Requester: rid, Detail: []byte(detail)})
	})
}

// EachSession reads the payment sessions, each with the raw id of its
// account (the row's Account is left for f to resolve).
func (s *Store) EachSession(f func(account string, r SessionRow) error) error {
	return s.eachRow("SELECT id, account_id, access_id, created_at, detail FROM payment_sessions", func(r *sql.Rows) error {
		var id, acct, access, detail string
		var created int64
		if err := r.Scan(&id, &acct, &access, &created, &detail); err != nil {
			return err
		}
		sid, err1 := uuid.Parse(id)
		wid, err2 := uuid.Parse(access)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("payment session %s refers to an unknown access %s", id, access)
		}
		return f(acct, SessionRow{ID: sid, Access: wid, CreatedAt: time.Unix(0, created).UTC(), Detail: []byte(detail)})
	})
}

// LiveTicket is a ticket the lifecycle still has to move, with its
// schedule (zero: nothing scheduled).
type LiveTicket struct {
	ID            uuid.UUID
	Status        string
	FundAt, PayAt time.Time
	ExpiresAt     time.Time
}

// EachLiveTicket reads the tickets still UNPAID, PENDING, ON-HOLD or
// PROCESSING: per account (CROSS JOIN keeps accounts outside), the live
// statuses' ranges of tickets_by_status.
func (s *Store) EachLiveTicket(f func(LiveTicket) error) error {
	return s.eachRow(`SELECT t.id, t.status, t.fund_at, t.pay_at, t.expires_at FROM accounts AS a CROSS JOIN tickets AS t
		WHERE t.account_id = a.id AND t.status IN ('UNPAID', 'PENDING', 'ON-HOLD', 'PROCESSING')`, func(r *sql.Rows) error {
		var id string
		var t LiveTicket
		var fundAt, payAt sql.NullInt64
		var expires int64
		if err := r.Scan(&id, &t.Status, &fundAt, &payAt, &expires); err != nil {
			return err
		}
		tid, err := uuid.Parse(id)
		if err != nil {
			return fmt.Errorf("ticket id %q: %w", id, err)
		}
		t.ID, t.ExpiresAt = tid, time.Unix(0, expires)
		if fundAt.Valid {
			t.FundAt = time.Unix(0, fundAt.Int64)
		}
		if payAt.Valid {
			t.PayAt = time.Unix(0, payAt.Int64)
		}
		return f(t)
	})
}

func (s *Store) eachRow(query string, f func(*sql.Rows) error) error {
	return eachRow(s.ctx, s.db.r, query, f)
}

func eachRow(ctx context.Context, db *sql.DB, query string, f func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Refused is err, a reason the database cannot be served, naming the file
// and the way out.
func (s *Store) Refused(err error) error { return describeCheckError(s.db.path, err) }
