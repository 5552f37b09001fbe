package money

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// maxIntegerDigits bounds what an operator may type; no treasury amount
// needs more, and it keeps a pasted megabyte of digits from being parsed.
const maxIntegerDigits = 18

// ParseAmount reads an amount typed by an operator for a currency: in a form,
// a batch file or a command-line flag, the one reader for all of them.
//
// It accepts digits with an optional decimal separator, "." or ",", and at
// most Precision(currency) decimals. Digit groups are accepted only where
// the reading is certain: "1,234.56" and "1.234,56" (two different
// separators, the last one decimal), or "1,234,567" (one separator used
// more than once can only group). A single separator followed by exactly
// three digits after a short whole part, "1,234" or "1.234", is refused
// whatever the currency: a Brazilian writes one thousand two hundred and
// thirty-four that way, an American one point two three four, and a
// payment must not guess which. It refuses signs, exponents, spaces inside,
// NaN/Inf and zero too. Surrounding spaces are ignored. Errors say what to
// type instead.
func ParseAmount(input, currency string) (decimal.Decimal, error) {
	s := strings.TrimSpace(input)
	prec := Precision(currency)
	example := exampleAmount(prec)
	if s == "" {
		return decimal.Decimal{}, fmt.Errorf("amount is empty: type a positive number such as %s", example)
	}
	var seps []int // byte offsets of every "." and ","
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' || r == ',':
			seps = append(seps, i)
		case r == '+' || r == '-':
			return decimal.Decimal{}, fmt.Errorf("amount must not carry a sign: type a positive number such as %s", example)
		case r == 'e' || r == 'E':
			if isNonFinite(s) {
				return decimal.Decimal{}, fmt.Errorf("%q is not a number: type digits such as %s", s, example)
			}
			return decimal.Decimal{}, fmt.Errorf("exponent notation is not accepted: type all the digits, e.g. 1000 instead of 1e3")
		case r == ' ' || r == '\t' || r == '_' || r == '\'' || r == '\u00a0' || r == '\u202f':
			return decimal.Decimal{}, fmt.Errorf("amount must not contain spaces or digit group separators other than \",\" and \".\": type the digits only, e.g. 1234.50")
		default:
			return decimal.Decimal{}, fmt.Errorf("%q is not a number: type digits with an optional decimal separator, e.g. %s", s, example)
		}
	}
	intPart, fracPart, err := splitAmount(s, seps, example)
	switch {
	case err == errAmbiguous && prec < 3:
		return decimal.Decimal{}, fmt.Errorf("%s takes at most %d decimals, got 3: if %s means thousands, type %s%s without a separator", norm(currency), prec, s, intPart, fracPart)
	case err == errAmbiguous:
		return decimal.Decimal{}, fmt.Errorf("%s can be read two ways: if %s means thousands, type %s%s without a separator; if it means %s and a fraction, type %s.%s0", s, s, intPart, fracPart, intPart, intPart, fracPart)
	case err != nil:
		return decimal.Decimal{}, err
	}
	if intPart == "" {
		intPart = "0"
	}
	if len(strings.TrimLeft(intPart, "0")) > maxIntegerDigits {
		return decimal.Decimal{}, fmt.Errorf("amount is too large: at most %d digits before the decimal separator", maxIntegerDigits)
	}
	if int32(len(fracPart)) > prec {
		if prec == 0 {
			return decimal.Decimal{}, fmt.Errorf("%s takes no decimals: type a whole number", norm(currency))
		}
		return decimal.Decimal{}, fmt.Errorf("%s takes at most %d decimals, got %d: round to e.g. %s", norm(currency), prec, len(fracPart), example)
	}
	canonical := intPart
	if fracPart != "" {
		canonical += "." + fracPart
	}
	d, err := decimal.NewFromString(canonical)
	if err != nil {
		// Unreachable: canonical holds only digits and one dot.
		return decimal.Decimal{}, fmt.Errorf("%q is not a number: type digits such as %s", s, example)
	}
	if !d.IsPositive() {
		return decimal.Decimal{}, errors.New("amount must be greater than zero: type a positive number")
	}
	return d, nil
}

// errAmbiguous is splitAmount's word for "1,234": a thousands group or three
// decimals, which ParseAmount refuses in the currency's own terms.
var errAmbiguous = errors.New("ambiguous amount")

// splitAmount reads the separators of s (digits, "." and "," only, at the
// byte offsets seps) into the whole part's digits and the decimals;
// example is a well-typed amount for the error messages.
func splitAmount(s string, seps []int, example string) (intPart, fracPart string, err error) {
	switch {
	case len(seps) == 0:
		return s, "", nil
	case seps[len(seps)-1] == len(s)-1:
		return "", "", fmt.Errorf("amount ends with a separator: type the decimals after it or remove it, e.g. %s", example)
	}
	last := s[seps[len(seps)-1]]
	distinct := 1
	for _, i := range seps {
		if s[i] != last {
			distinct = 2
		}
	}
	switch {
	case len(seps) == 1:
		intPart, fracPart = s[:seps[0]], s[seps[0]+1:]
		if len(fracPart) == 3 && len(intPart) <= 3 && strings.TrimLeft(intPart, "0") == intPart && intPart != "" {
			// "1,234": a thousands group or three decimals.
			return intPart, fracPart, errAmbiguous
		}
		return intPart, fracPart, nil
	case distinct == 1:
		// The same separator twice or more: it can only group digits.
		digits, err := ungroup(s, s)
		return digits, "", err
	}
	// Two kinds: the last separator is the decimal one; it may appear once,
	// after every group separator.
	dec := seps[len(seps)-1]
	for _, i := range seps[:len(seps)-1] {
		if s[i] == last {
			return "", "", fmt.Errorf("amount %s has %q both as a digit group and as the decimal separator: type e.g. 1,234.50 or 1234.50", s, string(last))
		}
	}
	digits, err := ungroup(s[:dec], s)
	return digits, s[dec+1:], err
}

// ungroup checks that whole (the part before the decimals of amount s) is
// grouped by thousands, one to three digits then groups of exactly three,
// and returns its digits.
func ungroup(whole, s string) (string, error) {
	groups := strings.FieldsFunc(whole, func(r rune) bool { return r == '.' || r == ',' })
	bad := fmt.Errorf("amount %s groups its digits unevenly: digit groups hold three digits, as in 1,234,567.50; or type the digits only, e.g. 1234567.50", s)
	if len(groups) != strings.Count(whole, ".")+strings.Count(whole, ",")+1 {
		return "", bad // an empty group: "1,,234" or ",234"
	}
	for i, g := range groups {
		switch {
		case i == 0 && (len(g) > 3 || g[0] == '0'):
			return "", bad
		case i > 0 && len(g) != 3:
			return "", bad
		}
	}
	return strings.Join(groups, ""), nil
}

func isNonFinite(s string) bool {
	switch strings.ToLower(s) {
	case "inf", "infinity", "nan":
		return true
	}
	return false
}

func exampleAmount(prec int32) string {
	if prec <= 0 {
		return "100"
	}
	return "100." + strings.Repeat("0", int(prec)-1) + "5"
}

// Format shows an amount fixed to the currency's precision, "." as the
// decimal separator and "," between thousands: "1,234.50". Extra decimals
// are rounded half away from zero (the service never sends them).
func Format(d decimal.Decimal, currency string) string {
	s := d.StringFixed(Precision(currency))
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Wire is the form an amount is sent in: fixed to the currency precision,
// "." separator, no grouping.
func Wire(d decimal.Decimal, currency string) string {
	return d.StringFixed(Precision(currency))
}
