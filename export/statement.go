package export

import (
	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// StatementColumns is the header of a statement export: one row per
// balance change, the account on every row so that files of several
// accounts can be concatenated and still say whose money moved.
var StatementColumns = []string{"account_id", "account_name", "sub_account_id", "sub_account_name",
	"log_id", "created_at", "token", "balance_change", "final_balance", "description", "ticket_id"}

// StatementRow is one ledger entry as a row under StatementColumns.
// Amounts are written exactly, at the token's precision, with a leading
// minus for a debit (a number, which Guard leaves a number).
func StatementRow(a Account, l api.StatementLog) []string {
	return []string{a.ID, a.Name, a.SubAccountID, a.SubAccountName,
		l.ID, timeCell(l.CreatedAt), l.Token,
		money.Wire(l.BalanceChange, l.Token), money.Wire(l.FinalBalance, l.Token),
		l.Description, l.TicketID}
}
