package engine

import (
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// A balance changes only by a move: a ledger row (amount, balance after
// it, the ticket that caused it) and the balance row, in the same
// transaction as the rest of the write. The in-memory balances are a copy
// for reads.

// Why a balance moved.
const (
	moveOpening  = "opening balance"
	moveTransfer = "transferred out of the account" // demo history: what the business took out
	moveDebit    = "ticket input debited"
	moveRefund   = "ticket input refunded"
	moveFunded   = "ticket input received"
	moveDelivery = "ticket input delivered"
	moveCredit   = "ticket output credited"
	moveIn       = "moved in from another account" // §8.5: the ticket is the other account's
	moveMarkup   = "markup credited"
)

// move changes acct's balance of currency by amount (negative: a debit),
// caused by ticket (uuid.Nil: none), at at. The caller holds e.mu for
// writing.
func (e *Engine) move(acct *Account, currency string, amount decimal.Decimal, ticket uuid.UUID, reason string, at time.Time) {
	after := acct.balances[currency].Add(amount)
	acct.balances[currency] = after
	e.db.Move(acct.ID, currency, amount, after, ticket, reason, at)
}

// setBalance moves acct's balance of currency to want (demo data).
func (e *Engine) setBalance(acct *Account, currency string, want decimal.Decimal, at time.Time) {
	if d := want.Sub(acct.balances[currency]); !d.IsZero() {
		e.move(acct, currency, d, uuid.Nil, moveOpening, at)
	}
}

// StatementLine is one balance change as a statement shows it: the
// amount (negative: a debit), the balance it left, and why.
type StatementLine struct {
	ID                   int64
	Currency             string
	Amount, BalanceAfter string
	TicketID             string // "" for none
	Reason               string
	At                   time.Time
}

// Statement is a page of the operated account's ledger made inside w,
// newest first, from the cursor (the id of the last line shown).
func (e *Engine) Statement(c Caller, w Window, cursor string) ([]StatementLine, string, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, "", err
	}
	var before int64
	if cursor != "" {
		n, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || n <= 0 || strconv.FormatInt(n, 10) != cursor {
			return nil, "", badRequest(CodeInvalidCursor, "cursor %q is not one this service returned; start again without a cursor", truncate(cursor, 40))
		}
		before = n
	}
	rows, more, err := e.db.Statement(acct.ID, w.From, w.To, before, PageSize)
	if err != nil {
		return nil, "", err
	}
	out := make([]StatementLine, len(rows))
	for i, r := range rows {
		out[i] = StatementLine(r)
	}
	next := ""
	if more {
		next = strconv.FormatInt(out[len(out)-1].ID, 10)
	}
	return out, next, nil
}
