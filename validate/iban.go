package validate

import (
	"errors"
	"fmt"
	"strings"
)

// ibanLengths is the length of an IBAN for each country of the SWIFT IBAN
// registry. Territories that use their parent's prefix (French overseas
// departments use FR, Åland uses FI) are not listed separately.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16,
	"BG": 22, "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22,
	"CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20,
	"EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22,
	"GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21,
	"HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30,
	"KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
	"LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
	"MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23,
	"PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
	"RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24,
	"SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26,
	"UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// IBAN checks an International Bank Account Number: a known country prefix,
// the length fixed for that country, letters and digits only, and the
// mod-97 check (first four characters moved to the end, letters A=10 …
// Z=35, remainder 1). Spaces are ignored and letters upper-cased; it returns
// the electronic form (no spaces).
func IBAN(s string) (string, error) {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r == ' ' || r == '-':
		case r >= '0' && r <= '9', r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		default:
			return "", fmt.Errorf("%q is not allowed: an IBAN has letters and digits only", r)
		}
	}
	t := b.String()
	if t == "" {
		return "", errors.New("required: type the IBAN, e.g. DE89 3704 0044 0532 0130 00")
	}
	if len(t) < 4 {
		return "", errors.New("too short: an IBAN starts with a 2-letter country code and 2 check digits")
	}
	cc := t[:2]
	if cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
		return "", errors.New("must start with the 2-letter country code, e.g. DE or GB")
	}
	if !IsDigits(t[2:4]) {
		return "", errors.New("characters 3 and 4 are the check digits and must be digits: re-type the IBAN")
	}
	want, ok := ibanLengths[cc]
	if !ok {
		return "", fmt.Errorf("%s does not issue IBANs: check the country code, or use the country's local account format", cc)
	}
	if len(t) != want {
		return "", fmt.Errorf("has %d characters: an IBAN from %s has %d, re-type the IBAN", len(t), cc, want)
	}
	if ibanMod97(t) != 1 {
		return "", errors.New("check digits do not match: re-type the IBAN")
	}
	return t, nil
}

// ibanMod97 computes the ISO 7064 mod-97 remainder of a rearranged IBAN
// digit by digit, so no big integers are needed.
func ibanMod97(t string) int {
	r := 0
	for _, c := range t[4:] + t[:4] {
		if c >= 'A' && c <= 'Z' {
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
		} else {
			r = (r*10 + int(c-'0')) % 97
		}
	}
	return r
}

// IBANGroups shows a normalised IBAN in groups of four, the printed form.
func IBANGroups(iban string) string {
	var b strings.Builder
	for i, r := range iban {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}
