package validate

import (
	"errors"
	"fmt"
	"strings"
)

// PixKeyKind is the kind of a PIX key, as the central bank names them.
type PixKeyKind string

// The five kinds of PIX key.
const (
	PixCPF   PixKeyKind = "CPF"
	PixCNPJ  PixKeyKind = "CNPJ"
	PixPhone PixKeyKind = "PHONE"
	PixEmail PixKeyKind = "EMAIL"
	PixEVP   PixKeyKind = "EVP"
)

// maxPixEmail is the PIX limit for e-mail keys.
const maxPixEmail = 77

// brAreaCodes are the Brazilian long-distance area codes (DDD) in use.
var brAreaCodes = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`11 12 13 14 15 16 17 18 19 21 22 24 27 28
		31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55
		61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89
		91 92 93 94 95 96 97 98 99`) {
		brAreaCodes[c] = true
	}
}

// PixKey recognises and checks a PIX key. The kind is decided by form:
// "+" starts a phone number, "@" makes an e-mail, a UUID is a random key
// (EVP), 11 digits a CPF and 14 characters a CNPJ. Phone numbers must carry
// +55, because 11 bare digits are both a CPF and a mobile number. The key is
// returned as the directory stores it: +55DDNNNNNNNNN, lower-case e-mail,
// lower-case UUID, CPF/CNPJ without punctuation.
func PixKey(s string) (PixKeyKind, string, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return "", "", errors.New("required: type a PIX key (CPF, CNPJ, +55 phone, e-mail or random key)")
	case strings.HasPrefix(t, "+"):
		n, err := pixPhone(t)
		return PixPhone, n, err
	case strings.Contains(t, "@"):
		n, err := pixEmail(t)
		return PixEmail, n, err
	case looksLikeUUID(t):
		n, err := pixEVP(t)
		return PixEVP, n, err
	}
	d := stripTaxPunct(t)
	switch {
	case len(d) == 11 && IsDigits(d):
		n, err := CPF(d)
		if err != nil {
			return PixCPF, "", fmt.Errorf("read as a CPF, %w; for a phone number type it with +55, e.g. +5511912345678", err)
		}
		return PixCPF, n, nil
	case len(d) == 14:
		n, err := CNPJ(d)
		return PixCNPJ, n, err
	case len(d) == 13 && strings.HasPrefix(d, "55") && IsDigits(d):
		return "", "", errors.New("looks like a phone number without the +: type it as +55 followed by area code and number")
	case len(d) == 32 && IsHex(d):
		return "", "", errors.New("looks like a random key without its dashes: type it as a UUID, 8-4-4-4-12 characters")
	}
	return "", "", errors.New("not a PIX key: type a CPF (11 digits), a CNPJ (14 characters), a phone as +55 and 11 digits, an e-mail, or a random key (UUID)")
}

func pixPhone(t string) (string, error) {
	var b strings.Builder
	for i, r := range t {
		switch {
		case r == '+' && i == 0:
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '(' || r == ')' || r == '.':
		default:
			return "", fmt.Errorf("%q is not allowed in a phone number: type +55, the area code and the number", r)
		}
	}
	d := b.String()
	if !strings.HasPrefix(d, "55") {
		return "", errors.New("PIX phone keys are Brazilian: start with +55, then area code and number")
	}
	d = d[2:]
	if len(d) != 11 {
		return "", fmt.Errorf("has %d digits after +55: type the 2-digit area code and the 9-digit mobile number", len(d))
	}
	if !brAreaCodes[d[:2]] {
		return "", fmt.Errorf("%s is not a Brazilian area code: check the 2 digits after +55", d[:2])
	}
	if d[2] != '9' {
		return "", errors.New("the mobile number must start with 9: type the 9-digit mobile number after the area code")
	}
	return "+55" + d, nil
}

func pixEmail(t string) (string, error) {
	e, err := Email(t)
	if err != nil {
		return "", err
	}
	e = strings.ToLower(e)
	if len(e) > maxPixEmail {
		return "", fmt.Errorf("is %d characters long, a PIX e-mail key has at most %d: use another key of the receiver", len(e), maxPixEmail)
	}
	return e, nil
}

func looksLikeUUID(t string) bool {
	return len(t) == 36 && t[8] == '-' && t[13] == '-' && t[18] == '-' && t[23] == '-'
}

func pixEVP(t string) (string, error) {
	hex := strings.ReplaceAll(t, "-", "")
	if len(hex) != 32 || !IsHex(hex) {
		return "", errors.New("a random key is a UUID of hexadecimal digits (0-9, a-f): re-type or paste it again")
	}
	return strings.ToLower(t), nil
}
