package beneficiaries

import (
	"strings"

	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// The account a beneficiary pays, written one way for the form and for the
// listed records alike, so that a second record of the same account is
// found: the words name what it is ("CVU 0000…"), as the confirmation
// says it.

func walletKey(address, chain string) string {
	if address == "" {
		return ""
	}
	if strings.HasPrefix(address, "0x") || strings.HasPrefix(address, "0X") {
		address = strings.ToLower(address) // EVM: the checksum is in the case only
	}
	return "wallet " + address + " on " + strings.ToUpper(chain)
}

func pixKeyKey(key string) string {
	if key = strings.ToLower(strings.TrimSpace(key)); key == "" {
		return ""
	}
	return "PIX key " + key
}

// number is a bank, branch or account number without its leading zeros.
func number(s string) string {
	s = strings.TrimLeft(strings.TrimSpace(s), "0")
	if s == "" {
		return "0"
	}
	return s
}

func brlBankKey(bank, branch, account string) string {
	if account == "" {
		return ""
	}
	return "bank account " + number(bank) + "/" + number(branch) + "/" + number(account)
}

func usdKey(routing, account string) string {
	if account == "" {
		return ""
	}
	return "account " + number(account) + " at ABA " + routing
}

func copKey(account, breB string) string {
	switch {
	case account != "":
		return "account " + number(account)
	case breB != "":
		return "Bre-B key " + strings.ToLower(strings.TrimSpace(breB))
	}
	return ""
}

func ibanKey(iban string) string {
	if iban = strings.ToUpper(strings.ReplaceAll(iban, " ", "")); iban == "" {
		return ""
	}
	return "IBAN " + iban
}

func cvuKey(cvu string) string {
	if cvu = strings.ReplaceAll(cvu, " ", ""); cvu == "" {
		return ""
	}
	return "CVU " + cvu
}

// The forms' keys, from the values they send.

func walletFormKey(f *form.Form) string {
	return walletKey(f.Normalized("walletAddress"), f.Normalized("walletChain"))
}

func brlFormKey(f *form.Form) string {
	if f.Value("mode") == modePix {
		return pixKeyKey(f.Normalized("pixKey"))
	}
	return brlBankKey(f.Normalized("bankCode"), f.Normalized("branchCode"), f.Normalized("accountNumber"))
}

func usdFormKey(f *form.Form) string {
	return usdKey(f.Normalized("bankRoutingNumber"), f.Normalized("bankAccountNumber"))
}

func copFormKey(f *form.Form) string {
	return copKey(f.Normalized("bankAccountNumber"), f.Normalized("breBKey"))
}

func eurFormKey(f *form.Form) string { return ibanKey(f.Normalized("iban")) }

func arsFormKey(f *form.Form) string { return cvuKey(f.Normalized("cvu")) }

// nonEmpty is the first of vs that is not blank.
func nonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
