package export

import (
	"strings"
	"time"
	"unicode"
)

// FileName names an export: what it holds, the account it comes from and
// when it was made, e.g. tesouro-tickets-acme-ltda-20260114-093000.csv, so
// that files from several accounts never overwrite or pass for each other.
func FileName(kind, account string, at time.Time) string {
	return "tesouro-" + kind + "-" + slug(account) + "-" + at.Format("20060102-150405") + ".csv"
}

// slug keeps letters and digits of name (accents dropped to ASCII where
// simple) and joins words with dashes; a name with none is "account".
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		r = fold(r)
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		return "account"
	}
	return s
}

// fold maps the accented letters of Portuguese and Spanish names to ASCII.
func fold(r rune) rune {
	switch r {
	case 'á', 'à', 'â', 'ã', 'ä':
		return 'a'
	case 'é', 'ê', 'è', 'ë':
		return 'e'
	case 'í', 'ì', 'î', 'ï':
		return 'i'
	case 'ó', 'ò', 'ô', 'õ', 'ö':
		return 'o'
	case 'ú', 'ù', 'û', 'ü':
		return 'u'
	case 'ç':
		return 'c'
	case 'ñ':
		return 'n'
	}
	return r
}
