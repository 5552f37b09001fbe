package validate

import (
	"errors"
	"fmt"
	"strings"
)

// stripTaxPunct removes the punctuation tax ids are printed with (dots,
// dashes, slashes) and surrounding blanks. Any other character is kept so
// that the caller can complain about it.
func stripTaxPunct(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch r {
		case '.', '-', '/':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func allSame(s string) bool {
	return strings.Count(s, s[:1]) == len(s)
}

// mod11Digit is the check digit rule shared by CPF and CNPJ: the weighted
// sum mod 11, a remainder below 2 gives 0, otherwise 11 minus it.
func mod11Digit(vals []int, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += vals[i] * w
	}
	r := sum % 11
	if r < 2 {
		return 0
	}
	return 11 - r
}

// CPF checks a Brazilian individual taxpayer number: 11 digits (dots and the
// dash are optional), not all equal, with both check digits right. It
// returns the 11 digits.
func CPF(s string) (string, error) {
	d := stripTaxPunct(s)
	if d == "" {
		return "", errors.New("required: type the CPF (11 digits, e.g. 529.982.247-25)")
	}
	for _, r := range d {
		if r < '0' || r > '9' {
			return "", fmt.Errorf("%q is not allowed: a CPF has 11 digits, dots and a dash only", r)
		}
	}
	if len(d) != 11 {
		return "", fmt.Errorf("has %d digits, a CPF has 11: re-type the CPF", len(d))
	}
	if allSame(d) {
		return "", errors.New("all digits are equal, which is never a real CPF: re-type the CPF (11 digits)")
	}
	vals := make([]int, 11)
	for i := range d {
		vals[i] = int(d[i] - '0')
	}
	d1 := mod11Digit(vals, []int{10, 9, 8, 7, 6, 5, 4, 3, 2})
	d2 := mod11Digit(vals, []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2})
	if vals[9] != d1 || vals[10] != d2 {
		return "", errors.New("check digits do not match: re-type the CPF (11 digits)")
	}
	return d, nil
}

var (
	cnpjW1 = []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	cnpjW2 = []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
)

// CNPJ checks a Brazilian company number, numeric or in the alphanumeric
// form issued from July 2026: 14 characters, the first 12 letters or digits,
// the last 2 check digits. Letters are upper-cased; dots, the slash and the
// dash are optional. It returns the 14 characters.
func CNPJ(s string) (string, error) {
	d := strings.ToUpper(stripTaxPunct(s))
	if d == "" {
		return "", errors.New("required: type the CNPJ (14 characters, e.g. 11.222.333/0001-81)")
	}
	for _, r := range d {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') {
			return "", fmt.Errorf("%q is not allowed: a CNPJ has letters, digits, dots, a slash and a dash only", r)
		}
	}
	if len(d) != 14 {
		return "", fmt.Errorf("has %d characters, a CNPJ has 14: re-type the CNPJ", len(d))
	}
	for i := 12; i < 14; i++ {
		if d[i] < '0' || d[i] > '9' {
			return "", errors.New("the last 2 characters of a CNPJ are check digits, never letters: re-type the CNPJ")
		}
	}
	if allSame(d) {
		return "", errors.New("all characters are equal, which is never a real CNPJ: re-type the CNPJ (14 characters)")
	}
	vals := make([]int, 14)
	for i := range d {
		vals[i] = int(d[i]) - '0' // 'A' is 17: the rule of the alphanumeric CNPJ
	}
	c1 := mod11Digit(vals, cnpjW1)
	c2 := mod11Digit(vals, cnpjW2)
	if vals[12] != c1 || vals[13] != c2 {
		return "", errors.New("check digits do not match: re-type the CNPJ (14 characters)")
	}
	return d, nil
}

// Tax id kinds returned by TaxID.
const (
	KindCPF  = "CPF"
	KindCNPJ = "CNPJ"
)

// TaxID checks a CPF or a CNPJ, telling them apart by length once the
// punctuation is gone (11 digits: CPF, 14 characters: CNPJ).
func TaxID(s string) (normalized, kind string, err error) {
	d := stripTaxPunct(s)
	switch len(d) {
	case 0:
		return "", "", errors.New("required: type a CPF (11 digits) or a CNPJ (14 characters)")
	case 11:
		n, err := CPF(d)
		return n, KindCPF, err
	case 14:
		n, err := CNPJ(d)
		return n, KindCNPJ, err
	}
	return "", "", fmt.Errorf("has %d characters: type a CPF (11 digits) or a CNPJ (14 characters)", len(d))
}
