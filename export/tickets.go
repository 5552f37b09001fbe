package export

import (
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
)

// FeeTypes are the fee types the service lists, each with its own pair of
// columns in a ticket export (amount in the input currency, amount in the
// output currency), whether or not the exported rows carry them: columns
// must not move between one day's export and the next. A fee of a type
// not listed here goes to the fees_other column.
var FeeTypes = []string{"In Fee", "Conversion Fee", "Out Fee", "Gas Fee", "Markup Fee"}

// TicketColumns is the header of a ticket export.
var TicketColumns = func() []string {
	cols := []string{"account_id", "account_name", "sub_account_id", "sub_account_name",
		"ticket_id", "external_id", "status", "created_at", "updated_at", "expires_at",
		"pair", "input_currency", "input_payment_method", "input_amount",
		"output_currency", "output_payment_method", "output_amount", "base_price",
		"markup_currency", "markup_amount"}
	for _, t := range FeeTypes {
		k := feeKey(t)
		cols = append(cols, "fee_"+k+"_input", "fee_"+k+"_output")
	}
	// price_base and price_quote say which way base_price reads: units of
	// price_quote for one price_base (the market pair, §8.1).
	return append(cols, "fees_other", "failure_reason", "destination", "end_to_end_id", "tx_hash", "price_base", "price_quote")
}()

// feeKey turns "Conversion Fee" into "conversion".
func feeKey(t string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(t), " Fee"))
}

// Account says which account the exported rows belong to.
type Account struct {
	ID, Name                     string
	SubAccountID, SubAccountName string // empty for the main account
}

// TicketRow is one ticket as a row under TicketColumns. Amounts are the
// service's decimals written out exactly.
func TicketRow(a Account, t api.Ticket) []string {
	q := t.Quote
	row := []string{a.ID, a.Name, a.SubAccountID, a.SubAccountName,
		t.ID.String(), t.ExternalID, string(t.Status), timeCell(t.CreatedAt), timeCell(t.UpdatedAt), timeCell(t.ExpiresAt),
		q.PairName, q.InputCurrency, q.InputPaymentMethod, money.Wire(q.InputAmount, q.InputCurrency),
		q.OutputCurrency, q.OutputPaymentMethod, money.Wire(q.OutputAmount, q.OutputCurrency), q.BasePrice.String(),
		q.MarkupCurrency, markup(q)}
	type side struct{ in, out string }
	fees := map[string]*side{}
	var other []string
	for _, f := range q.AppliedFees {
		known := false
		for _, t := range FeeTypes {
			if strings.EqualFold(strings.TrimSpace(f.Type), t) {
				known = true
			}
		}
		s := fees[feeKey(f.Type)]
		if s == nil {
			s = &side{}
			fees[feeKey(f.Type)] = s
		}
		switch {
		case known && f.Currency == q.InputCurrency && s.in == "":
			s.in = money.Wire(f.Amount, f.Currency)
		case known && f.Currency == q.OutputCurrency && s.out == "":
			s.out = money.Wire(f.Amount, f.Currency)
		default:
			other = append(other, f.Type+" "+money.Wire(f.Amount, f.Currency)+" "+f.Currency)
		}
	}
	for _, t := range FeeTypes {
		s := fees[feeKey(t)]
		if s == nil {
			s = &side{}
		}
		row = append(row, s.in, s.out)
	}
	reason := t.FailureReason
	if reason == "" {
		reason = t.Reason
	}
	price := payment.TicketPrice(q)
	return append(row, strings.Join(other, "; "), reason, Destination(&t), EndToEndID(&t), TxHash(&t), price.Base, price.Quote)
}

// Destination is where a ticket's output went, as its receiver record
// names it: a PIX key or bank account, a wallet on its chain, a US, EU or
// Argentine account; "" when the ticket has no receiver record.
func Destination(t *api.Ticket) string {
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	switch {
	case t.BlockchainReceiverInfo != nil:
		r := t.BlockchainReceiverInfo
		return join(r.WalletAddress, r.WalletChain)
	case t.BrazilianFiatReceiverInfo != nil:
		r := t.BrazilianFiatReceiverInfo
		if r.PixKey != "" {
			return join("PIX key", r.PixKey, r.UserName)
		}
		return join("bank", r.BankCode, "branch", r.BranchCode, "account", r.AccountNumber, r.UserName)
	case t.AmericanFiatReceiverInfo != nil:
		r := t.AmericanFiatReceiverInfo
		return join(r.PaymentRail, "routing", r.BankRoutingNumber, "account", r.BankAccountNumber, r.AccountHolderName)
	case t.EuropeanFiatReceiverInfo != nil:
		r := t.EuropeanFiatReceiverInfo
		return join("IBAN", r.IBAN, r.BankBeneficiaryName)
	case t.ArgentineFiatReceiverInfo != nil:
		r := t.ArgentineFiatReceiverInfo
		return join("CVU", r.CVU, r.AccountHolder)
	}
	return ""
}

// EndToEndID is the PIX end-to-end id of either side, when there is one.
func EndToEndID(t *api.Ticket) string {
	if t.BrazilianFiatSenderInfo != nil && t.BrazilianFiatSenderInfo.EndToEndID != "" {
		return t.BrazilianFiatSenderInfo.EndToEndID
	}
	if t.BrazilianFiatReceiverInfo != nil {
		return t.BrazilianFiatReceiverInfo.EndToEndID
	}
	return ""
}

// TxHash is the hash of the transaction that delivered a ticket's output
// on a chain, else of the one that brought its input.
func TxHash(t *api.Ticket) string {
	if r := t.BlockchainReceiverInfo; r != nil && r.TxHash != "" {
		return r.TxHash
	}
	if s := t.BlockchainSenderInfo; s != nil {
		return s.TxHash
	}
	return ""
}

func timeCell(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// markup is the markup amount, empty when the ticket has none.
func markup(q api.TicketQuote) string {
	if q.MarkupCurrency == "" && q.MarkupAmount.IsZero() {
		return ""
	}
	return money.Wire(q.MarkupAmount.Decimal, q.MarkupCurrency)
}
