package approvals

import (
	"encoding/json"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
)

// destination is where an operation's output goes, read from the parked
// request's output block and the quote's output method, with the
// beneficiary record the service attached when there is one. The record
// alone is not enough: a request may pay an inline PIX key, a BR Code, bank
// fields or a wallet address, for which the service attaches none.
type destination struct {
	// Rail is how the money leaves: "PIX", "POLYGON", "USD WIRE", ...
	Rail string
	// Name is who receives it, when known (the holder or the alias).
	Name string
	// Where is the key, address or account that identifies the payee.
	Where string
	// Stays is true only for an INTERNAL output to the operation's own
	// account: the money does not leave it.
	Stays bool
	// Unknown says the request names no payee the screen can read.
	Unknown bool
}

// destinationOf derives the destination of op, whose decoded quote is q
// (nil when the service sent none): the payment core reads the parked
// request back into the payment it makes (payment.FromRequest), and the
// beneficiary record the service attached names the payee when there is
// one. The request is read leniently: a field of the wrong type is left
// empty, the rest is read.
func destinationOf(op api.Operation, q *quote) destination {
	var req api.CreateTicketRequest
	_ = json.Unmarshal(op.Payload, &req)
	var priced *api.Quote
	if q != nil {
		priced = &api.Quote{InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputMethod, InputAmount: q.InputAmount,
			OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputMethod, OutputAmount: q.OutputAmount}
	}
	in := payment.FromRequest(req, priced)
	rail, known := in.Rail()
	ben := object(op.Beneficiary)
	d := destination{Rail: railLabel(in, rail, known)}
	p := in.Pay
	switch p.Kind {
	case payment.ToBalance:
		switch {
		case known && rail.Takes(payment.ToBalance):
			return destination{Rail: "INTERNAL", Stays: true}
		case ben != nil:
			d.Name, d.Where = recordName(ben), recordWhere(ben)
		}
	case payment.ToBeneficiary:
		d.Name, d.Where = recordName(ben), recordWhere(ben)
		if ben == nil {
			d.Where = registered[rail.Payee] + p.ID.String()
		}
	case payment.ToPixKey:
		d.Where = "PIX key " + p.PixKey
	case payment.ToBrCode:
		d.Where = "BR Code " + abbreviate(p.BrCode)
	case payment.ToBankAccount:
		d.Name = p.Bank.UserName
		d.Where = bankWhere(map[string]string{"bankCode": p.Bank.BankCode, "branchCode": p.Bank.BranchCode, "accountNumber": p.Bank.AccountNumber})
		if p.Bank.TaxID != "" {
			d.Where += " · tax id " + p.Bank.TaxID
		}
	case payment.ToAddress:
		d.Where = p.Address
		if c := strings.ToUpper(in.OutMethod); c != "" {
			d.Where += " on " + c
		}
		if p.Memo != "" {
			d.Where += " (memo " + p.Memo + ")"
		}
	case payment.ToOwnWallet:
		d.Name, d.Where = "the account's own wallet", recordWhere(ben)
	case payment.ToAccount:
		// Funds moved to another account of the workspace (§8.5).
		d.Rail = "INTERNAL move"
		d.Name, d.Where = str(ben, "name"), "account "+p.ID.String()
	}
	if d.Where == "" && d.Name == "" {
		d.Unknown = true
	}
	return d
}

// registered names a registered beneficiary the request gives only by id.
var registered = map[payment.Kind]string{
	payment.KindBRL:    "registered BRL beneficiary ",
	payment.KindWallet: "registered wallet ",
	payment.KindUSD:    "registered beneficiary ",
	payment.KindEUR:    "registered beneficiary ",
	payment.KindARS:    "registered beneficiary ",
	payment.KindCOP:    "registered beneficiary ",
}

// railLabel is how the money leaves, as the inbox says it: "PIX", the
// chain, or the currency and its rail ("USD WIRE").
func railLabel(in payment.Intent, rail payment.Rail, known bool) string {
	switch {
	case known && rail.Block == payment.BlockPixOutput:
		return "PIX"
	case !known, rail.Block == payment.BlockChainOutput, rail.Block == "":
		return strings.ToUpper(in.OutMethod)
	}
	return money.Canonical(in.OutCurrency) + " " + rail.Name
}

// recordName is who a beneficiary record pays: the holder, else its alias.
func recordName(m map[string]json.RawMessage) string {
	for _, k := range []string{"userName", "beneficiaryName", "bankBeneficiaryName", "alias"} {
		if v := str(m, k); v != "" {
			return v
		}
	}
	return ""
}

// recordWhere is what identifies the payee in a beneficiary record.
func recordWhere(m map[string]json.RawMessage) string {
	if m == nil {
		return ""
	}
	switch {
	case str(m, "walletAddress") != "":
		w := str(m, "walletAddress")
		if c := str(m, "walletChain"); c != "" {
			w += " on " + c
		}
		return w
	case str(m, "pixKey") != "":
		return "PIX key " + str(m, "pixKey")
	case str(m, "accountNumber") != "":
		return bankWhere(map[string]string{"bankCode": str(m, "bankCode"), "branchCode": str(m, "branchCode"), "accountNumber": str(m, "accountNumber")})
	case str(m, "iban") != "":
		return "IBAN " + str(m, "iban")
	case str(m, "cvu") != "":
		return "CVU " + str(m, "cvu")
	case str(m, "bankAccountNumber") != "":
		return "account " + str(m, "bankAccountNumber")
	}
	return ""
}

func bankWhere(m map[string]string) string {
	return strings.Join(strings.Fields("bank "+m["bankCode"]+" branch "+m["branchCode"]+" account "+m["accountNumber"]), " ")
}

// abbreviate keeps the ends of a long opaque value (a BR Code).
func abbreviate(s string) string {
	if len([]rune(s)) <= 32 {
		return s
	}
	r := []rune(s)
	return string(r[:20]) + "…" + string(r[len(r)-8:])
}

// Line is the destination in one line, for the confirmation and the detail.
func (d destination) Line(op api.Operation) string {
	switch {
	case d.Stays:
		return "stays in the account (INTERNAL: credited to " + accountLine(op) + ")"
	case d.Unknown && d.Rail != "":
		return "not named by the request (" + d.Rail + " output): check the payload below"
	case d.Unknown:
		return "not named by the request: check the payload below"
	}
	who := strings.TrimSpace(strings.Join(nonEmpty(d.Name, d.Where), " · "))
	if d.Rail == "" {
		return who
	}
	return d.Rail + " to " + who
}

// Short is the destination in a list cell: who, else where.
func (d destination) Short() string {
	switch {
	case d.Stays:
		return "stays in account"
	case d.Name != "":
		return d.Name
	case d.Where != "":
		return d.Where
	}
	return "?"
}

func nonEmpty(ss ...string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
