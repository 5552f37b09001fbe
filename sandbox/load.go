package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// loadStore reads a validated database into st, which holds the demo
// accesses (they come from the seed, not from the file): the accounts and
// their small collections, balances, attempts, operations and sessions.
// Tickets stay in the database; only the lifecycle's work list (tickets
// still UNPAID, PENDING, ON-HOLD or PROCESSING) is read, to schedule it.
func (s *Server) loadStore(ctx context.Context, st *store) error {
	db := s.db.r
	fresh := newStore()
	for _, a := range st.accesses {
		fresh.addAccess(a)
	}
	fresh.minApprovals = st.minApprovals
	s.st = fresh
	st = fresh

	if v, ok, err := metaValue(ctx, db, "min_approvals"); err != nil {
		return err
	} else if ok {
		n, _ := strconv.Atoi(v)
		st.minApprovals = int32(n)
	}

	rows, err := db.QueryContext(ctx, "SELECT id, name, kind, is_main, main_id, created_at, pix_key, wallet, tax_id FROM accounts ORDER BY created_at, id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id, name, kind, mainID, pix, wallet, tax string
		var isMain int
		var created int64
		if err := rows.Scan(&id, &name, &kind, &isMain, &mainID, &created, &pix, &wallet, &tax); err != nil {
			rows.Close()
			return err
		}
		aid, err1 := uuid.Parse(id)
		mid, err2 := uuid.Parse(mainID)
		if err1 != nil || err2 != nil {
			rows.Close()
			return fmt.Errorf("account %q has a malformed id", id)
		}
		a := newAccount(aid, name, kind, isMain == 1, mid, time.Unix(0, created).UTC())
		a.PixKey, a.Wallet, a.TaxID = pix, wallet, tax
		st.addAccount(a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}

	if err := eachRow(ctx, db, "SELECT account_id, currency, amount FROM balances", func(r *sql.Rows) error {
		var acct, cur, amount string
		if err := r.Scan(&acct, &cur, &amount); err != nil {
			return err
		}
		a, err := s.accountOf(acct)
		if err != nil {
			return err
		}
		d, err := decimal.NewFromString(amount)
		if err != nil {
			return fmt.Errorf("balance %s of account %s is not a number: %q", cur, acct, amount)
		}
		a.balances[cur] = d
		return nil
	}); err != nil {
		return err
	}

	if err := eachRow(ctx, db, "SELECT account_id, kind, body FROM account_records", func(r *sql.Rows) error {
		var acct, kind, body string
		if err := r.Scan(&acct, &kind, &body); err != nil {
			return err
		}
		a, err := s.accountOf(acct)
		if err != nil {
			return err
		}
		if err := a.restoreRecords(kind, []byte(body)); err != nil {
			return fmt.Errorf("account %s %s: %w", acct, kind, err)
		}
		return nil
	}); err != nil {
		return err
	}

	if err := eachRow(ctx, db, "SELECT id, account_id, event_id, url, created_at, updated_at, response_status, acknowledged FROM attempts ORDER BY created_at, id", func(r *sql.Rows) error {
		var id, acct, ev, url string
		var created, updated int64
		var status, acked int
		if err := r.Scan(&id, &acct, &ev, &url, &created, &updated, &status, &acked); err != nil {
			return err
		}
		a, err := s.accountOf(acct)
		if err != nil {
			return err
		}
		aid, err := uuid.Parse(id)
		if err != nil {
			return fmt.Errorf("attempt id %q: %w", id, err)
		}
		at := time.Unix(0, created).UTC()
		a.attempts.add(at, aid, &attempt{WebhookAttempt{
			AccountID: acct, CreatedAt: fmtTime(at), UpdatedAt: fmtTime(time.Unix(0, updated)), ID: id,
			WebhookEventID: ev, WebhookURL: url, ResponseStatus: status, Acknowledged: acked == 1,
		}})
		return nil
	}); err != nil {
		return err
	}

	if err := eachRow(ctx, db, "SELECT id, account_id, requester_id, detail FROM operations ORDER BY created_at, id", func(r *sql.Rows) error {
		var id, acct, requester, detail string
		if err := r.Scan(&id, &acct, &requester, &detail); err != nil {
			return err
		}
		a, err := s.accountOf(acct)
		if err != nil {
			return err
		}
		oid, err1 := uuid.Parse(id)
		rid, err2 := uuid.Parse(requester)
		who := st.accessByID[rid]
		if err1 != nil || err2 != nil || who == nil {
			return fmt.Errorf("operation %s refers to an unknown access %s", id, requester)
		}
		var os operationState
		if err := json.Unmarshal([]byte(detail), &os); err != nil {
			return fmt.Errorf("operation %s: %w", id, err)
		}
		if os.MinApprovals < 1 {
			return fmt.Errorf("operation %s needs %d approvals; at least 1 is sane", id, os.MinApprovals)
		}
		op := &operation{
			ID: oid, Requester: who, Acct: a, Status: os.Status, CreatedAt: os.CreatedAt, ExpiresAt: os.ExpiresAt,
			Payload: os.Payload, req: os.Request, q: os.Quote, approvals: map[uuid.UUID]bool{}, ExecutedID: os.ExecutedID,
			Reason: os.Reason, DecidedAt: os.DecidedAt, MinApprovals: os.MinApprovals, RejectedBy: os.RejectedBy,
		}
		for _, id := range os.Approvals {
			op.approvals[id] = true
		}
		st.operations.add(op.CreatedAt, op.ID, op)
		if op.Status == OperationPending {
			s.schedule(op.ExpiresAt, dueOpExpire, uuid.Nil, op)
		}
		return nil
	}); err != nil {
		return err
	}

	if err := eachRow(ctx, db, "SELECT id, account_id, access_id, created_at, detail FROM payment_sessions", func(r *sql.Rows) error {
		var id, acct, accessID, detail string
		var created int64
		if err := r.Scan(&id, &acct, &accessID, &created, &detail); err != nil {
			return err
		}
		var d sessionDetail
		if err := json.Unmarshal([]byte(detail), &d); err != nil {
			return fmt.Errorf("payment session %s: %w", id, err)
		}
		// A session opened before sessions kept their settings has no
		// expiry (zero ExpiresAt): it stays open as it was.
		a, err := s.accountOf(acct)
		if err != nil {
			return err
		}
		sid, err1 := uuid.Parse(id)
		wid, err2 := uuid.Parse(accessID)
		if err1 != nil || err2 != nil || st.accessByID[wid] == nil {
			return fmt.Errorf("payment session %s refers to an unknown access %s", id, accessID)
		}
		st.sessions[sid] = &paymentSession{ID: sid, acct: a, who: st.accessByID[wid], CreatedAt: time.Unix(0, created).UTC(), sessionDetail: d}
		return nil
	}); err != nil {
		return err
	}

	// The lifecycle's work list: per account (CROSS JOIN keeps accounts
	// outside), the live statuses' ranges of tickets_by_status.
	return eachRow(ctx, db, `SELECT t.id, t.status, t.fund_at, t.pay_at, t.expires_at FROM accounts AS a CROSS JOIN tickets AS t
		WHERE t.account_id = a.id AND t.status IN ('UNPAID', 'PENDING', 'ON-HOLD', 'PROCESSING')`, func(r *sql.Rows) error {
		var id, status string
		var fundAt, payAt sql.NullInt64
		var expires int64
		if err := r.Scan(&id, &status, &fundAt, &payAt, &expires); err != nil {
			return err
		}
		tid, err := uuid.Parse(id)
		if err != nil {
			return fmt.Errorf("ticket id %q: %w", id, err)
		}
		if fundAt.Valid {
			s.schedule(time.Unix(0, fundAt.Int64), dueFund, tid, nil)
		}
		if payAt.Valid {
			s.schedule(time.Unix(0, payAt.Int64), duePay, tid, nil)
		}
		if status == string(TicketUnpaid) {
			s.schedule(time.Unix(0, expires), dueExpire, tid, nil)
		}
		return nil
	})
}

func (s *Server) accountOf(id string) (*account, error) {
	aid, err := uuid.Parse(id)
	if err != nil {
		return nil, fmt.Errorf("account id %q is malformed", id)
	}
	a := s.st.accounts[aid]
	if a == nil {
		return nil, fmt.Errorf("account %s is unknown", id)
	}
	return a, nil
}

func (a *account) restoreRecords(kind string, body []byte) error {
	switch kind {
	case "wallets":
		return restoreJSON(a.wallets, body, func(v *Wallet) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "brl":
		return restoreJSON(a.brl, body, func(v *BRLAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "usd":
		return restoreJSON(a.usd, body, func(v *USDAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "cop":
		return restoreJSON(a.cop, body, func(v *COPAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "trades":
		return restoreJSON(a.trades, body, func(v *Trade) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "ubos":
		return restoreJSON(a.ubos, body, func(v *UBO) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "w8bens":
		return restoreJSON(a.w8bens, body, func(v *W8BEN) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "poa":
		return restoreJSON(a.poa, body, func(v *ProofOfAddressAttempt) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "eur":
		return restoreJSON(a.eur, body, func(v *EURAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "ars":
		return restoreJSON(a.ars, body, func(v *ARSAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "documents":
		return restoreJSON(a.documents, body, func(v *Document) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "kyc":
		return restoreJSON(a.kyc, body, func(v *KYCAttempt) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "webhooks":
		var ws []webhook
		if err := json.Unmarshal(body, &ws); err != nil {
			return err
		}
		for i := range ws {
			a.webhooks = append(a.webhooks, &ws[i])
		}
		return nil
	}
	return fmt.Errorf("unknown kind of record %q", kind)
}

func restoreJSON[T any](s *series[T], body []byte, key func(*T) (time.Time, uuid.UUID)) error {
	var saved []T
	if err := json.Unmarshal(body, &saved); err != nil {
		return err
	}
	restore(s, saved, key)
	return nil
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

func metaValue(ctx context.Context, db *sql.DB, key string) (string, bool, error) {
	var v string
	err := db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	return v, err == nil, err
}
