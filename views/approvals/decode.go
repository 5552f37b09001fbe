package approvals

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// The detail of an operation carries the quote, the beneficiary and the
// parked request as free-form objects (the seed does not fix their fields).
// They are read leniently here: a field of the wrong type or a missing one
// leaves its value empty instead of hiding the whole operation.

// quote is the decoded quote of an operation.
type quote struct {
	InputCurrency, InputMethod   string
	InputAmount                  decimal.Decimal
	OutputCurrency, OutputMethod string
	OutputAmount                 decimal.Decimal
	MarkupCurrency               string
	MarkupAmount                 decimal.Decimal
	BasePrice                    decimal.Decimal
	PairName                     string
	SendMethod                   string
	Fees                         []api.Fee
	// At is when it was quoted, when the decoded quote says so.
	At time.Time
}

func object(raw json.RawMessage) map[string]json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

func str(m map[string]json.RawMessage, k string) string {
	raw, ok := m[k]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return fmt.Sprint(b)
	}
	return ""
}

// dec reads an amount carried as a string or a JSON number, never through a
// float.
func dec(m map[string]json.RawMessage, k string) decimal.Decimal {
	s := str(m, k)
	if s == "" {
		return decimal.Zero
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return d
}

// decodeQuote reads the decodedQuote of an operation; nil when absent.
func decodeQuote(raw json.RawMessage) *quote {
	m := object(raw)
	if m == nil {
		return nil
	}
	q := &quote{
		InputCurrency:  str(m, "inputCurrency"),
		InputMethod:    str(m, "inputPaymentMethod"),
		InputAmount:    dec(m, "inputAmount"),
		OutputCurrency: str(m, "outputCurrency"),
		OutputMethod:   str(m, "outputPaymentMethod"),
		OutputAmount:   dec(m, "outputAmount"),
		MarkupCurrency: str(m, "markupCurrency"),
		MarkupAmount:   dec(m, "markupAmount"),
		BasePrice:      dec(m, "basePrice"),
		PairName:       str(m, "pairName"),
		SendMethod:     str(m, "blockchainSendMethod"),
	}
	if q.SendMethod == "" {
		q.SendMethod = str(m, "sendMethod")
	}
	if at, err := time.Parse(time.RFC3339Nano, str(m, "createdAt")); err == nil {
		q.At = at
	}
	var fees []json.RawMessage
	if json.Unmarshal(m["appliedFees"], &fees) == nil {
		for _, raw := range fees {
			fm := object(raw)
			if fm == nil {
				continue
			}
			q.Fees = append(q.Fees, api.Fee{Type: str(fm, "type"), Description: str(fm, "description"),
				Amount: dec(fm, "amount"), Currency: str(fm, "currency")})
		}
	}
	return q
}

// amount shows an amount at its currency's precision with its code.
func amount(d decimal.Decimal, currency string) string {
	if currency == "" {
		return d.String()
	}
	return money.Format(d, currency) + " " + currency
}

// Sends is "1,000.00 BRL".
func (q *quote) Sends() string { return amount(q.InputAmount, q.InputCurrency) }

// Receives is "181.234500 USDC".
func (q *quote) Receives() string { return amount(q.OutputAmount, q.OutputCurrency) }

// Short is the one-line form used in the list and the confirmation.
func (q *quote) Short() string { return q.Sends() + " → " + q.Receives() }

// chargedFees lists the fees charged, amounts only: the confirmation's
// line, where the service's five fees, zero ones and descriptions
// included, would bury the two that cost something.
func (q *quote) chargedFees() []string {
	var out []string
	for _, f := range q.Fees {
		if f.Amount.IsPositive() {
			out = append(out, f.Type+" "+amount(f.Amount, f.Currency))
		}
	}
	if len(out) == 0 && len(q.Fees) > 0 {
		out = append(out, "none")
	}
	return out
}

// feeLines lists each applied fee.
func (q *quote) feeLines() []string {
	out := make([]string, 0, len(q.Fees))
	for _, f := range q.Fees {
		l := f.Type + " " + amount(f.Amount, f.Currency)
		if f.Description != "" && f.Description != f.Type {
			l += " (" + f.Description + ")"
		}
		out = append(out, l)
	}
	return out
}

// beneficiaryKeys are shown first, in this order, when present.
var beneficiaryKeys = []string{"alias", "userName", "beneficiaryName", "bankBeneficiaryName", "pixKey", "pixKeyType",
	"taxId", "walletAddress", "walletChain", "walletMemo", "bankCode", "branchCode", "accountNumber", "accountType",
	"bankRoutingNumber", "bankAccountNumber", "bankName", "breBKey", "id"}

// field is a label and a value of a free-form record.
type field struct{ Key, Value string }

// beneficiaryFields lists the scalar fields of the operation's beneficiary,
// the identifying ones first.
func beneficiaryFields(raw json.RawMessage) []field {
	m := object(raw)
	if m == nil {
		return nil
	}
	var out []field
	for _, k := range beneficiaryKeys {
		if v := str(m, k); v != "" {
			out = append(out, field{k, v})
		}
	}
	rest := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(beneficiaryKeys, k) && k != "createdAt" && k != "userId" {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		if v := str(m, k); v != "" {
			out = append(out, field{k, v})
		}
	}
	return out
}

// payloadFields flattens the parked request into dotted keys and scalar
// values, long values shortened (the quote token is long and opaque).
func payloadFields(raw json.RawMessage) []field {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if len(bytes.TrimSpace(raw)) == 0 || d.Decode(&v) != nil {
		return nil
	}
	var out []field
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch t := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, t[k])
			}
		case []any:
			for i, e := range t {
				walk(fmt.Sprintf("%s[%d]", prefix, i), e)
			}
		case nil:
		default:
			s := fmt.Sprint(t)
			if len(s) > 40 {
				s = s[:20] + "…" + s[len(s)-8:]
			}
			if s != "" {
				out = append(out, field{prefix, s})
			}
		}
	}
	walk("", v)
	return out
}
