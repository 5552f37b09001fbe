package sandbox

import (
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
	moveMarkup   = "markup credited"
)

// move changes acct's balance of currency by amount (negative: a debit),
// caused by ticket (uuid.Nil: none), at at. The caller holds s.mu for
// writing.
func (s *Server) move(acct *account, currency string, amount decimal.Decimal, ticket uuid.UUID, reason string, at time.Time) {
	after := acct.balances[currency].Add(amount)
	acct.balances[currency] = after
	s.db.Move(acct.ID, currency, amount, after, ticket, reason, at)
}

// setBalance moves acct's balance of currency to want (demo data).
func (s *Server) setBalance(acct *account, currency string, want decimal.Decimal, at time.Time) {
	if d := want.Sub(acct.balances[currency]); !d.IsZero() {
		s.move(acct, currency, d, uuid.Nil, moveOpening, at)
	}
}
