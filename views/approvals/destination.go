package approvals

import (
	"encoding/json"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
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

// outputBlocks are the payload's output blocks with the rail each one is
// (USD's is ACH unless it is the wire block).
var outputBlocks = []struct{ key, rail, idKey string }{
	{"ticketBrlPixOutput", "PIX", "beneficiaryBrlBankAccountId"},
	{"ticketBlockchainOutput", "", "beneficiaryWalletId"},
	{"ticketUsdOutput", "USD ACH", "beneficiaryUsdBankAccountId"},
	{"ticketUsdWireOutput", "USD WIRE", "beneficiaryUsdBankAccountId"},
	{"ticketEurSepaOutput", "EUR SEPA", "beneficiaryEurBankAccountId"},
	{"ticketArsOutput", "ARS CVU", "beneficiaryArsBankAccountId"},
	{"ticketCopOutput", "COP BANK-TRANSFER", "beneficiaryCopBankAccountId"},
}

// destinationOf derives the destination of op, whose decoded quote is q
// (nil when the service sent none).
func destinationOf(op api.Operation, q *quote) destination {
	method := ""
	if q != nil {
		method = strings.ToUpper(q.OutputMethod)
	}
	payload := object(op.Payload)
	ben := object(op.Beneficiary)
	for _, b := range outputBlocks {
		blk := object(payload[b.key])
		if blk == nil {
			continue
		}
		d := destination{Rail: b.rail}
		if d.Rail == "" {
			d.Rail = method
		}
		id := str(blk, b.idKey)
		switch b.key {
		case "ticketBrlPixOutput":
			pixDestination(&d, blk, ben, id)
		case "ticketBlockchainOutput":
			walletDestination(&d, blk, ben, id, method)
		default:
			d.Name, d.Where = recordName(ben), recordWhere(ben)
			if d.Where == "" && id != "" {
				d.Where = "registered beneficiary " + id
			}
		}
		if d.Where == "" && d.Name == "" && !d.Stays {
			d.Unknown = true
		}
		return d
	}
	// No output block: only an INTERNAL output may omit it, and then the
	// money stays in the operation's account.
	switch {
	case method == "INTERNAL":
		return destination{Rail: "INTERNAL", Stays: true}
	case ben != nil:
		return destination{Rail: method, Name: recordName(ben), Where: recordWhere(ben)}
	}
	return destination{Rail: method, Unknown: true}
}

func pixDestination(d *destination, blk, ben map[string]json.RawMessage, id string) {
	switch {
	case id != "" && ben != nil:
		d.Name, d.Where = recordName(ben), recordWhere(ben)
	case id != "":
		d.Where = "registered BRL beneficiary " + id
	case str(blk, "pixKey") != "":
		d.Where = "PIX key " + str(blk, "pixKey")
	case str(blk, "brCode") != "":
		d.Where = "BR Code " + abbreviate(str(blk, "brCode"))
	case str(blk, "accountNumber") != "":
		d.Name = str(blk, "userName")
		d.Where = bankWhere(blk)
		if t := str(blk, "taxId"); t != "" {
			d.Where += " · tax id " + t
		}
	}
}

func walletDestination(d *destination, blk, ben map[string]json.RawMessage, id, method string) {
	switch {
	case id == uuid.Nil.String() && method == "INTERNAL":
		d.Rail, d.Stays = "INTERNAL", true
	case id == uuid.Nil.String():
		d.Name = "the account's own wallet"
		d.Where = recordWhere(ben)
	case id != "" && ben != nil:
		d.Name, d.Where = recordName(ben), recordWhere(ben)
	case id != "":
		d.Where = "registered wallet " + id
	case str(blk, "walletAddress") != "":
		d.Where = str(blk, "walletAddress")
		if c := str(blk, "walletChain"); c != "" {
			d.Where += " on " + c
		}
		if m := str(blk, "walletMemo"); m != "" {
			d.Where += " (memo " + m + ")"
		}
	}
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
		return bankWhere(m)
	case str(m, "iban") != "":
		return "IBAN " + str(m, "iban")
	case str(m, "cvu") != "":
		return "CVU " + str(m, "cvu")
	case str(m, "bankAccountNumber") != "":
		return "account " + str(m, "bankAccountNumber")
	}
	return ""
}

func bankWhere(m map[string]json.RawMessage) string {
	return strings.Join(strings.Fields("bank "+str(m, "bankCode")+" branch "+str(m, "branchCode")+" account "+str(m, "accountNumber")), " ")
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
