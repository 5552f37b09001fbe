package beneficiaries

import (
	"fmt"

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
		if err := validate.TronAddress(v); err != nil {
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
