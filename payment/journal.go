package payment

import (
	"errors"
	"strconv"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/money"
)

// Recorder keeps the journal of write actions; *journal.Journal is one (a
// nil one records nothing).
type Recorder interface {
	Record(journal.Entry) error
}

// Journal actions of a payment.
const (
	ActionCreate = "create-ticket"
	ActionBatch  = "batch-payout"
)

// pathTickets is the endpoint a creation is sent to, as the journal names it.
const pathTickets = "POST /v2/account/tickets/"

// Entry is the journal line of a payment's creation: the account, the ids
// (external id, where the money goes, the ticket or operation), the
// amounts, and the outcome, or the error. It holds no quote token and no
// credential. Who acted, when and in which environment are the journal's
// to stamp.
func Entry(in Intent, q *api.Quote, out Outcome, err error) journal.Entry {
	e := journal.Entry{Account: accountName(in.Account), Action: ActionCreate, Endpoint: pathTickets}
	e.IDs = map[string]string{"externalId": in.ExternalID}
	if in.Origin.Batch != "" {
		e.Action = ActionBatch
		e.IDs["batch"], e.IDs["row"] = in.Origin.Batch, strconv.Itoa(in.Origin.Row)
	}
	destinationIDs(e.IDs, in)
	if q != nil {
		e.Amounts = map[string]string{
			"input":  money.Wire(q.InputAmount, q.InputCurrency) + " " + q.InputCurrency + " " + q.InputPaymentMethod,
			"output": money.Wire(q.OutputAmount, q.OutputCurrency) + " " + q.OutputCurrency + " " + q.OutputPaymentMethod,
		}
		if q.MarkupAmount.IsPositive() {
			e.Amounts["markup"] = q.MarkupAmount.String() + " " + q.MarkupCurrency
		}
	}
	if out.Ticket != nil {
		e.IDs["ticketId"] = out.Ticket.ID.String()
	}
	if out.Operation != nil {
		e.IDs["operationId"] = out.Operation.ID.String()
	}
	var conflict *ConflictError
	switch {
	case errors.As(err, &conflict):
		e.Outcome = "refused: " + err.Error()
	case err != nil:
		e.Outcome = "error: " + err.Error()
	default:
		e.Outcome = string(out.Status)
		if out.Reconciled {
			e.Outcome += " (found by externalId after a failure in transit)"
		}
	}
	return e
}

// accountName is how the journal names an account: "main", or its id.
func accountName(id uuid.UUID) string {
	if id == uuid.Nil {
		return "main"
	}
	return id.String()
}

// destinationIDs names where the money goes: the beneficiary's id under
// its kind, or the key, code or address paid inline (none of which is a
// secret).
func destinationIDs(ids map[string]string, in Intent) {
	rail, _ := in.Rail()
	p := in.Pay
	switch p.Kind {
	case ToBeneficiary:
		if k := beneficiaryIDKey[rail.Payee]; k != "" {
			ids[k] = p.ID.String()
		}
	case ToPixKey:
		ids["pixKey"] = p.PixKey
	case ToBrCode:
		if c, err := brcode.Parse(p.BrCode); err == nil {
			ids["brCodeKey"] = firstOf(c.Key, c.URL)
			ids["brCodeTxId"] = c.TxID
		}
	case ToBankAccount:
		ids["bankAccount"] = p.Bank.BankCode + "/" + p.Bank.BranchCode + "/" + p.Bank.AccountNumber
	case ToAddress:
		ids["walletAddress"] = in.OutMethod + ":" + p.Address
	case ToOwnWallet:
		ids["beneficiaryWalletId"] = uuid.Nil.String()
	case ToAccount:
		ids["beneficiaryWalletId"] = p.ID.String()
	}
}

// beneficiaryIDKey is the journal key of a registered beneficiary's id, as
// the creation request names it.
var beneficiaryIDKey = map[Kind]string{
	KindBRL:    "beneficiaryBrlBankAccountId",
	KindWallet: "beneficiaryWalletId",
	KindUSD:    "beneficiaryUsdBankAccountId",
	KindEUR:    "beneficiaryEurBankAccountId",
	KindARS:    "beneficiaryArsBankAccountId",
	KindCOP:    "beneficiaryCopBankAccountId",
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
