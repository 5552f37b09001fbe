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

// ParseAmount reads an amount typed by an operator for a currency. It
// accepts digits with at most one decimal separator, "." or ",", and at most
// Precision(currency) decimals. It refuses anything that could be read two
// ways or that the service would not accept: signs, exponents, thousands
// separators, spaces inside, NaN/Inf, zero. Surrounding spaces are ignored.
// Errors say what to type instead.
func ParseAmount(input, currency string) (decimal.Decimal, error) {
	s := strings.TrimSpace(input)
	prec := Precision(currency)
	example := exampleAmount(prec)
	if s == "" {
		return decimal.Decimal{}, fmt.Errorf("amount is empty: type a positive number such as %s", example)
	}
	intPart, fracPart, sepCount := s, "", 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' || r == ',':
			sepCount++
			if sepCount == 1 {
				intPart, fracPart = s[:i], s[i+1:]
			}
		case r == '+' || r == '-':
			return decimal.Decimal{}, fmt.Errorf("amount must not carry a sign: type a positive number such as %s", example)
		case r == 'e' || r == 'E':
			if isNonFinite(s) {
				return decimal.Decimal{}, fmt.Errorf("%q is not a number: type digits such as %s", s, example)
			}
			return decimal.Decimal{}, fmt.Errorf("exponent notation is not accepted: type all the digits, e.g. 1000 instead of 1e3")
		case r == ' ' || r == '\t' || r == '_' || r == '\'' || r == '\u00a0' || r == '\u202f':
			return decimal.Decimal{}, fmt.Errorf("amount must not contain spaces or digit group separators: type the digits only, e.g. 1234.50")
		default:
			return decimal.Decimal{}, fmt.Errorf("%q is not a number: type digits with an optional decimal separator, e.g. %s", s, example)
		}
	}
	if sepCount > 1 {
		return decimal.Decimal{}, fmt.Errorf("amount has %d separators: thousands separators are not accepted, type one decimal separator at most, e.g. 1234.50", sepCount)
	}
	if sepCount == 1 && fracPart == "" {
		return decimal.Decimal{}, fmt.Errorf("amount ends with a separator: type the decimals after it or remove it, e.g. %s", example)
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
		if len(fracPart) == 3 && strings.TrimLeft(intPart, "0") != "" {
			// "1,234" or "1.234" is most likely a thousands group.
			return decimal.Decimal{}, fmt.Errorf("%s takes at most %d decimals, got 3: if %s means thousands, type %s%s without a separator", norm(currency), prec, s, strings.TrimLeft(intPart, "0"), fracPart)
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
