// Package validate checks what an operator types before anything is sent to
// the service: Brazilian tax ids (CPF, CNPJ, including the alphanumeric CNPJ),
// PIX keys, EVM wallet addresses (EIP-55), IBAN, ABA routing numbers, e-mail
// addresses, dates and ISO 3166-1 country codes.
//
// Every validator returns the value in the form the service expects
// (punctuation stripped, case normalised) and an error whose message says
// what is wrong and how to fix it. Messages never name the form field: the
// caller attaches it with Field, so one message serves every form.
package validate

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// FieldError ties a validation error to the form field it belongs to.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// Field attaches a field name to err; it returns nil when err is nil so that
// it can wrap a validator call directly.
func Field(field string, err error) error {
	if err == nil {
		return nil
	}
	return &FieldError{Field: field, Err: err}
}

// Required refuses an empty or blank value.
func Required(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("required: type a value")
	}
	return nil
}

// Digits checks a bank, branch or account number: between min and max
// digits once spaces, dots and dashes are removed (they are how such numbers
// are printed, "12345-6"). It returns the digits alone.
func Digits(s string, min, max int) (string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return "", fmt.Errorf("required: type %s", digitsRange(min, max))
	}
	var b strings.Builder
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '.' || r == '-':
		default:
			return "", fmt.Errorf("%q is not a digit: type %s", r, digitsRange(min, max))
		}
	}
	d := b.String()
	if len(d) < min || (max > 0 && len(d) > max) {
		return "", fmt.Errorf("has %d digits: type %s", len(d), digitsRange(min, max))
	}
	return d, nil
}

func digitsRange(min, max int) string {
	switch {
	case max <= 0:
		return fmt.Sprintf("at least %d digits", min)
	case min == max:
		return fmt.Sprintf("exactly %d digits", min)
	default:
		return fmt.Sprintf("%d to %d digits", min, max)
	}
}

// Date reads a calendar date written YYYY-MM-DD and returns it at midnight
// UTC. Impossible dates (2023-02-29) are refused.
func Date(s string) (time.Time, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return time.Time{}, errors.New("required: type a date as YYYY-MM-DD, e.g. 1990-07-25")
	}
	if len(t) != 10 || t[4] != '-' || t[7] != '-' {
		return time.Time{}, fmt.Errorf("%q is not a date: type it as YYYY-MM-DD, e.g. 1990-07-25", t)
	}
	d, err := time.Parse(time.DateOnly, t)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a calendar date: check the month (01-12) and the day of that month", t)
	}
	if d.Year() < 1900 {
		return time.Time{}, fmt.Errorf("year %d is too early: type a year from 1900 on", d.Year())
	}
	return d, nil
}

// IsDigits reports whether s is one or more ASCII digits: the shape of the
// numeric codes (tax ids, bank codes, BR Code ids and lengths) that a
// locale's digits or a sign must not slip into.
func IsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// IsHex reports whether s is one or more hexadecimal digits, in either case.
func IsHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}
