package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Every balance change is a move: a ledger row (amount, the balance after
// it, the ticket that caused it) and the balance row, written together.

// Move stores one balance change of an account: amount (negative: a
// debit), the balance it leaves, the ticket that caused it (uuid.Nil:
// none). The caller holds the lock for writing.
func (s *Store) Move(account uuid.UUID, currency string, amount, after decimal.Decimal, ticket uuid.UUID, reason string, at time.Time) {
	var tid any
	if ticket != uuid.Nil {
		tid = ticket.String()
	}
	s.exec("INSERT INTO ledger (account_id, currency, amount, balance_after, ticket_id, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		account.String(), currency, amount.String(), after.String(), tid, reason, at.UnixNano())
	s.exec("INSERT INTO balances (account_id, currency, amount) VALUES (?, ?, ?) ON CONFLICT (account_id, currency) DO UPDATE SET amount = excluded.amount",
		account.String(), currency, after.String())
}

// LedgerLine is one stored move as a statement shows it.
type LedgerLine struct {
	ID                   int64
	Currency             string
	Amount, BalanceAfter string
	TicketID             string // "" for none
	Reason               string
	At                   time.Time
}

// Statement reads up to limit moves of an account, newest first (by id),
// made in [from, to) (zero: open) and before the move beforeID (0: from
// the newest). more says whether older moves remain. The caller holds the
// lock for reading.
func (s *Store) Statement(account uuid.UUID, from, to time.Time, beforeID int64, limit int) (lines []LedgerLine, more bool, err error) {
	where, args := []string{"account_id = ?"}, []any{account.String()}
	if !from.IsZero() {
		where, args = append(where, "at >= ?"), append(args, from.UnixNano())
	}
	if !to.IsZero() {
		where, args = append(where, "at < ?"), append(args, to.UnixNano())
	}
	if beforeID > 0 {
		where, args = append(where, "id < ?"), append(args, beforeID)
	}
	rows, err := s.db.r.QueryContext(context.Background(), "SELECT id, currency, amount, balance_after, ticket_id, reason, at FROM ledger WHERE "+
		strings.Join(where, " AND ")+" ORDER BY id DESC LIMIT ?", append(args, limit+1)...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var l LedgerLine
		var at int64
		var ticket sql.NullString
		if err := rows.Scan(&l.ID, &l.Currency, &l.Amount, &l.BalanceAfter, &ticket, &l.Reason, &at); err != nil {
			return nil, false, err
		}
		if len(lines) == limit {
			return lines, true, rows.Err()
		}
		l.TicketID, l.At = ticket.String, time.Unix(0, at)
		lines = append(lines, l)
	}
	return lines, false, rows.Err()
}

// LedgerMove is a move as the whole ledger is rewritten with (the demo
// history's, put in time order).
type LedgerMove struct {
	Account, Currency, Reason string
	Amount                    decimal.Decimal
	Ticket                    sql.NullString
	At                        int64 // UnixNano
}

// Ledger reads every move in the open transaction, in time order. The
// caller holds the lock for writing.
func (s *Store) Ledger() ([]LedgerMove, error) {
	b := s.tx()
	if b.err != nil {
		return nil, b.err
	}
	rows, err := b.tx.QueryContext(context.Background(), "SELECT account_id, currency, amount, ticket_id, reason, at FROM ledger ORDER BY at, id")
	if err != nil {
		return nil, err
	}
	var out []LedgerMove
	for rows.Next() {
		var m LedgerMove
		var amount string
		if err := rows.Scan(&m.Account, &m.Currency, &amount, &m.Ticket, &m.Reason, &m.At); err != nil {
			rows.Close()
			return nil, err
		}
		if m.Amount, err = decimal.NewFromString(amount); err != nil {
			rows.Close()
			return nil, fmt.Errorf("ledger amount %q: %w", amount, err)
		}
		out = append(out, m)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	return out, nil
}

// ReplaceLedger writes moves as the whole ledger, in their order, each
// with the running balance of its account and currency, and refuses an
// order in which one goes below zero. The balances are not changed: the
// moves must add up to them. The caller holds the lock for writing.
func (s *Store) ReplaceLedger(moves []LedgerMove) error {
	s.exec("DELETE FROM ledger")
	balance := map[[2]string]decimal.Decimal{}
	for i, m := range moves {
		k := [2]string{m.Account, m.Currency}
		balance[k] = balance[k].Add(m.Amount)
		if balance[k].IsNegative() {
			return fmt.Errorf("demo ledger in time order goes below zero: %s %s at move %d", m.Account, m.Currency, i+1)
		}
		s.exec("INSERT INTO ledger (id, account_id, currency, amount, balance_after, ticket_id, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			i+1, m.Account, m.Currency, m.Amount.String(), balance[k].String(), m.Ticket, m.Reason, m.At)
	}
	return s.tx().err
}
