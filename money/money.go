// Package money knows the currencies the service handles: their precision,
// which are tokens, which payment methods each one supports (the catalogue),
// and how to read an amount typed by an operator and show one back. Amounts
// are decimal.Decimal everywhere; nothing here ever goes through a float.
package money

import (
	"slices"
	"strings"
)

// evm are the EVM chains every token moves on: whatever a wallet may be
// registered on must be quotable (service.md §7.3).
var evm = []string{"INTERNAL", "POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"}

// catalogue lists each currency with its payment methods, in the order the
// service documents them (service.md §6, §7.3). The order is the display
// order. TRON carries USDT only [decided].
var catalogue = []struct {
	currency string
	methods  []string
}{
	{"BRL", []string{"PIX"}},
	{"BRLA", evm},
	{"USDC", evm},
	{"USDT", append(slices.Clone(evm), "TRON")},
	{"EURC", []string{"INTERNAL", "POLYGON", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"}},
	{"USDM", evm},
	{"USDCe", evm},
	{"USD", []string{"ACH", "WIRE"}},
	{"EUR", []string{"SEPA"}},
	{"COP", []string{"BANK-TRANSFER"}},
	{"ARS", []string{"CVU"}},
}

var tokens = map[string]bool{"BRLA": true, "USDC": true, "USDT": true, "EURC": true, "USDM": true, "USDCe": true}

var outputOnly = map[string]bool{"USD": true, "EUR": true, "COP": true, "ARS": true}

// chains are the blockchains a ticket can move tokens on.
var chains = []string{"POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM", "TRON"}

// peg maps each currency to the fiat it is pegged to (itself for fiat).
var peg = map[string]string{
	"BRL": "BRL", "BRLA": "BRL",
	"USD": "USD", "USDC": "USD", "USDT": "USD", "USDM": "USD", "USDCe": "USD",
	"EUR": "EUR", "EURC": "EUR",
	"COP": "COP", "ARS": "ARS",
}

// norm is the catalogue's spelling of a currency or method, whatever its
// case: upper case, except the mixed-case USDCe.
func norm(currency string) string {
	u := strings.ToUpper(strings.TrimSpace(currency))
	if u == "USDCE" {
		return "USDCe"
	}
	return u
}

// Canonical is the catalogue's spelling of a currency ("usdce" → "USDCe").
func Canonical(currency string) string { return norm(currency) }

// Precision is the number of decimals the service keeps for a currency:
// 6 for tokens, 2 for fiat and for anything unknown.
func Precision(currency string) int32 {
	if IsToken(currency) {
		return 6
	}
	return 2
}

// IsToken reports whether the currency is an on-chain token (BRLA, USDC, USDT, EURC).
func IsToken(currency string) bool { return tokens[norm(currency)] }

// BalanceTokens lists the tokens an account's balance holds (INTERNAL),
// in catalogue order: what a batch pays from and what moves between
// accounts.
func BalanceTokens() []string {
	var out []string
	for _, c := range catalogue {
		if IsToken(c.currency) && SupportsMethod(c.currency, "INTERNAL") {
			out = append(out, c.currency)
		}
	}
	return out
}

// Currencies lists every currency of the catalogue, in catalogue order.
func Currencies() []string {
	out := make([]string, len(catalogue))
	for i, c := range catalogue {
		out[i] = c.currency
	}
	return out
}

// Methods lists the payment methods of a currency (nil when unknown). The
// slice is a copy: callers may change it.
func Methods(currency string) []string {
	c := norm(currency)
	for _, e := range catalogue {
		if e.currency == c {
			return slices.Clone(e.methods)
		}
	}
	return nil
}

// SupportsMethod reports whether the catalogue lists method for currency.
func SupportsMethod(currency, method string) bool {
	return slices.Contains(Methods(currency), norm(method))
}

// IsChain reports whether method names a blockchain rather than a bank rail
// or the internal balance.
func IsChain(method string) bool { return slices.Contains(chains, norm(method)) }

// Chains lists every blockchain the service knows, catalogue chains first.
func Chains() []string { return slices.Clone(chains) }

// OutputOnly reports whether the currency can only be paid out (USD, EUR,
// COP, ARS): it can never be the input of a quote.
func OutputOnly(currency string) bool { return outputOnly[norm(currency)] }

// Pegged reports whether a and b convert at 1 before fees: the same currency,
// or a token and the fiat it tracks (BRL↔BRLA, USD↔USDC/USDT, EUR↔EURC).
func Pegged(a, b string) bool {
	pa, ok := peg[norm(a)]
	if !ok {
		return false
	}
	return pa == peg[norm(b)]
}
