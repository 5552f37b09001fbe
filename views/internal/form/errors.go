package form

import (
	"errors"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
)

// FieldOf finds which of keys an error of the service is about. The service
// names the field in the message of a 400 ("walletAddress: checksum does not
// match") and sometimes in the code ("INVALID_TAX_ID"). It returns the key
// ("" when none is named) and the message to show.
func FieldOf(err error, keys []string) (string, string) {
	if err == nil {
		return "", errNoField.Error()
	}
	var ae *api.Error
	if !errors.As(err, &ae) {
		return "", err.Error()
	}
	msg := ae.Message
	if msg == "" {
		msg = err.Error()
	}
	// "bic: does not match the IBAN's bank" is about bic, though it names
	// iban too: the field a message starts with is the one it is about.
	for _, k := range keys {
		if k != "" && strings.HasPrefix(strings.ToLower(ae.Message), strings.ToLower(k)+":") {
			return k, msg
		}
	}
	if k := keyIn(strings.ToLower(ae.Message), keys, false); k != "" {
		return k, msg
	}
	code := strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(ae.Code))
	if k := keyIn(code, keys, true); k != "" {
		return k, msg
	}
	return "", msg
}

// keyIn returns the longest key found in text. Nested keys
// ("beneficiaryAddress.city") also match by their last part when that part
// belongs to one key only.
func keyIn(text string, keys []string, squash bool) string {
	if text == "" {
		return ""
	}
	norm := func(k string) string {
		k = strings.ToLower(k)
		if squash {
			k = strings.NewReplacer(".", "", "_", "").Replace(k)
		}
		return k
	}
	best := ""
	for _, k := range keys {
		if k == "" || len(k) <= len(best) {
			continue
		}
		if squash && strings.Contains(text, norm(k)) || !squash && containsWord(text, norm(k)) {
			best = k
		}
	}
	if best != "" || squash {
		return best
	}
	found, count := "", 0
	for _, k := range keys {
		i := strings.LastIndex(k, ".")
		if i < 0 {
			continue
		}
		if containsWord(text, strings.ToLower(k[i+1:])) {
			found = k
			count++
		}
	}
	if count == 1 {
		return found
	}
	return ""
}

// containsWord reports whether w occurs in s not glued to other letters, so
// that "name" does not match inside "username".
func containsWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		before := i == 0 || !isLetter(s[i-1])
		after := end == len(s) || !isLetter(s[end])
		if before && after {
			return true
		}
		from = i + 1
	}
}

func isLetter(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
