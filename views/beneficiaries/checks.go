package beneficiaries

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// The local checks of the create forms, each built on a validator of package
// validate, with the hint that tells the operator what was understood.

// checkTaxID accepts a CPF or a CNPJ (numeric or alphanumeric) and says which.
var checkTaxID form.Check = func(v string, _ func(string) string) (string, string, error) {
	n, kind, err := validate.TaxID(v)
	if err != nil {
		return "", "", err
	}
	return n, "recognised: " + kind + " " + n, nil
}

// checkPixKey recognises the five kinds of PIX key and shows the kind.
var checkPixKey form.Check = func(v string, _ func(string) string) (string, string, error) {
	kind, n, err := validate.PixKey(v)
	if err != nil {
		return "", "", err
	}
	return n, fmt.Sprintf("recognised: %s key %s", pixKindName(kind), n), nil
}

func pixKindName(k validate.PixKeyKind) string {
	switch k {
	case validate.PixPhone:
		return "phone"
	case validate.PixEmail:
		return "e-mail"
	case validate.PixEVP:
		return "random (EVP)"
	}
	return string(k)
}

// checkWalletAddress checks the address by the rules of the chain chosen in
// the same form: EIP-55 on EVM chains (showing the checksummed form that is
// sent), base58check on TRON.
var checkWalletAddress form.Check = func(v string, value func(string) string) (string, string, error) {
	if value("walletChain") == "TRON" {
		if err := tronAddress(v); err != nil {
			return "", "", err
		}
		return v, "TRON address, checksum verified", nil
	}
	sum, warn, err := validate.EVMAddress(v)
	if err != nil {
		return "", "", err
	}
	if warn != "" {
		return sum, "⚠ " + warn, nil
	}
	return sum, "checksummed form: " + sum, nil
}

var (
	checkABA   = form.Plain(validate.ABA)
	checkEmail = form.Plain(validate.Email)
)

// checkBankCode accepts a COMPE code (3 digits) or an ISPB (8 digits).
var checkBankCode = form.Plain(func(s string) (string, error) {
	d, err := validate.Digits(s, 3, 8)
	if err == nil && len(d) != 3 && len(d) != 8 {
		return "", fmt.Errorf("has %d digits: type the 3-digit bank code (COMPE) or the 8-digit ISPB", len(d))
	}
	return d, err
})

// checkDigits checks a bank, branch or account number.
func checkDigits(min, max int) form.Check {
	return form.Plain(func(s string) (string, error) { return validate.Digits(s, min, max) })
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// tronAddress checks a TRON address: base58check of 25 bytes, version byte
// 0x41 (so it starts with "T"), and the first 4 bytes of a double SHA-256 as
// checksum.
func tronAddress(s string) error {
	if !strings.HasPrefix(s, "T") || len(s) != 34 {
		return errors.New(`a TRON address starts with "T" and has 34 characters: paste it again`)
	}
	n := new(big.Int)
	for _, r := range s {
		i := strings.IndexRune(base58Alphabet, r)
		if i < 0 {
			return fmt.Errorf("%q is not a base58 character: paste the address again", r)
		}
		n.Mul(n, big.NewInt(58))
		n.Add(n, big.NewInt(int64(i)))
	}
	b := n.Bytes()
	if len(b) != 25 || b[0] != 0x41 {
		return errors.New("is not a TRON address (wrong length or version): paste it again")
	}
	h1 := sha256.Sum256(b[:21])
	h2 := sha256.Sum256(h1[:])
	if !bytes.Equal(h2[:4], b[21:]) {
		return errors.New("checksum does not match (a character is wrong): copy the address again from its source")
	}
	return nil
}
