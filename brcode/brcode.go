// Package brcode encodes and reads the BR Code, the EMV merchant-presented
// QR payload that PIX uses: a sequence of fields written as a 2-digit id, a
// 2-digit length and the value, ending with a CRC-16 so that a single wrong
// character is caught before money moves.
//
// Encode builds the payload of a static (key) or dynamic (URL) charge;
// Parse reads one back and reports precisely what is wrong with a malformed
// code; Verify checks only the field structure and the CRC.
package brcode

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/validate"
)

// Field ids of the BR Code used here.
const (
	idFormat       = "00"
	idInitiation   = "01"
	idMerchantPIX  = "26"
	idCategory     = "52"
	idCurrency     = "53"
	idAmount       = "54"
	idCountry      = "58"
	idName         = "59"
	idCity         = "60"
	idAdditional   = "62"
	idCRC          = "63"
	subGUI         = "00"
	subKey         = "01"
	subURL         = "25"
	subTxID        = "05"
	pixGUI         = "BR.GOV.BCB.PIX"
	currencyBRL    = "986"
	noTxID         = "***"
	maxName        = 25
	maxCity        = 15
	maxKey         = 77
	maxURL         = 77
	maxTxID        = 25
	maxAmountChars = 13
	// MaxLen bounds what Parse reads: a BR Code fits in a QR code, and
	// every field is at most 99 characters.
	MaxLen = 512
)

// Payload is what a BR Code says: who receives (a PIX key for a static code,
// a URL for a dynamic one), how much (zero: the payer types it), the
// receiver's name and city, and the transaction id.
type Payload struct {
	Key          string
	URL          string
	Amount       decimal.Decimal // zero: none
	MerchantName string
	MerchantCity string
	TxID         string // "" is written as "***"
}

// field is one id-length-value triple.
type field struct {
	id    string
	value string
}

func writeField(b *strings.Builder, id, value string) {
	b.WriteString(id)
	if n := len(value); n < 100 {
		b.WriteByte(byte('0' + n/10))
		b.WriteByte(byte('0' + n%10))
	} else {
		b.WriteString(strconv.Itoa(n)) // refused before: no field is that long
	}
	b.WriteString(value)
}

// Encode writes p as a BR Code, CRC included. The key must be a valid PIX
// key (validate.PixKey) and is written normalised. Accents are removed from the
// name and city (the payload is ASCII, and many banking apps show it
// upper-case anyway); every limit of the format is checked and reported.
func Encode(p Payload) (string, error) {
	key, url := strings.TrimSpace(p.Key), strings.TrimSpace(p.URL)
	switch {
	case key == "" && url == "":
		return "", errors.New("brcode: no PIX key and no URL: give one of them")
	case key != "" && url != "":
		return "", errors.New("brcode: both a PIX key and a URL: a code is either static (key) or dynamic (URL)")
	}
	if key != "" {
		// A code with a key the directory cannot hold takes the payer's
		// money nowhere: refuse it here, and write the key as stored.
		_, norm, err := validate.PixKey(key)
		if err != nil {
			return "", fmt.Errorf("brcode: PIX key: %w", err)
		}
		key = norm
		if err := checkKey(key); err != nil {
			return "", err
		}
	}
	if url != "" {
		url = strings.TrimPrefix(url, "https://")
		if err := checkURL(url); err != nil {
			return "", err
		}
	}
	name, err := asciiFold(p.MerchantName)
	if err != nil {
		return "", fmt.Errorf("brcode: merchant name: %w", err)
	}
	city, err := asciiFold(p.MerchantCity)
	if err != nil {
		return "", fmt.Errorf("brcode: merchant city: %w", err)
	}
	if err := checkName(name); err != nil {
		return "", err
	}
	if err := checkCity(city); err != nil {
		return "", err
	}
	txid := strings.TrimSpace(p.TxID)
	if txid == "" {
		txid = noTxID
	}
	if err := checkTxID(txid); err != nil {
		return "", err
	}
	amount := ""
	if !p.Amount.IsZero() {
		if !p.Amount.IsPositive() {
			return "", fmt.Errorf("brcode: amount %s is negative: give a positive amount or none", p.Amount)
		}
		if !p.Amount.Equal(p.Amount.Truncate(2)) {
			return "", fmt.Errorf("brcode: amount %s has more than 2 decimals: round it to cents", p.Amount)
		}
		amount = p.Amount.StringFixed(2)
		if len(amount) > maxAmountChars {
			return "", fmt.Errorf("brcode: amount %s is too large for a BR Code (%d characters at most)", amount, maxAmountChars)
		}
	}

	var mai strings.Builder
	writeField(&mai, subGUI, pixGUI)
	if key != "" {
		writeField(&mai, subKey, key)
	} else {
		writeField(&mai, subURL, url)
	}
	var add strings.Builder
	writeField(&add, subTxID, txid)

	var b strings.Builder
	writeField(&b, idFormat, "01")
	writeField(&b, idMerchantPIX, mai.String())
	writeField(&b, idCategory, "0000")
	writeField(&b, idCurrency, currencyBRL)
	if amount != "" {
		writeField(&b, idAmount, amount)
	}
	writeField(&b, idCountry, "BR")
	writeField(&b, idName, name)
	writeField(&b, idCity, city)
	writeField(&b, idAdditional, add.String())
	b.WriteString(idCRC + "04")
	crc := CRC16([]byte(b.String()))
	const hexDigits = "0123456789ABCDEF"
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[crc>>shift&0xF])
	}
	return b.String(), nil
}

// Verify checks that s is a well-formed sequence of fields that starts with
// the format indicator 000201 and ends with a matching CRC. It does not look
// at what the fields say; Parse does.
func Verify(s string) error {
	_, err := verify(s)
	return err
}

func verify(s string) ([]field, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("brcode: empty: paste the whole BR Code (it starts with 000201)")
	}
	if len(s) > MaxLen {
		return nil, fmt.Errorf("brcode: %d characters is too long for a BR Code (at most %d): paste only the code", len(s), MaxLen)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return nil, fmt.Errorf("brcode: character %d is not printable ASCII: copy the code again", i+1)
		}
	}
	fields, err := splitFields(s)
	if err != nil {
		return nil, err
	}
	if fields[0].id != idFormat || fields[0].value != "01" {
		return nil, errors.New("brcode: does not start with 000201 (payload format indicator): this is not a BR Code, or its start was cut off")
	}
	last := fields[len(fields)-1]
	if last.id != idCRC {
		return nil, errors.New("brcode: does not end with the CRC field 63: the end of the code was cut off")
	}
	if len(last.value) != 4 || !validate.IsHex(last.value) {
		return nil, fmt.Errorf("brcode: CRC field is %q, want 4 hexadecimal digits: the end of the code was cut off", last.value)
	}
	for _, f := range fields[:len(fields)-1] {
		if f.id == idCRC {
			return nil, errors.New("brcode: the CRC field 63 appears before the end: the code was assembled wrongly")
		}
	}
	want := CRC16([]byte(s[:len(s)-4]))
	got, _ := strconv.ParseUint(last.value, 16, 16)
	if uint16(got) != want {
		return nil, fmt.Errorf("brcode: CRC mismatch: the code says %s but its content gives %04X: a character was changed or lost, copy the code again", strings.ToUpper(last.value), want)
	}
	return fields, nil
}

// splitFields reads id-length-value triples until the end of s.
func splitFields(s string) ([]field, error) {
	var out []field
	for i := 0; i < len(s); {
		f, n, err := nextField(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		i = n
	}
	if len(out) == 0 {
		return nil, errors.New("brcode: no fields")
	}
	return out, nil
}

func nextField(s string, i int) (field, int, error) {
	if len(s)-i < 4 {
		return field{}, 0, fmt.Errorf("brcode: bad length at position %d: %d characters left, a field needs at least 4 (id and length): the code was cut off", i+1, len(s)-i)
	}
	id, ls := s[i:i+2], s[i+2:i+4]
	if !validate.IsDigits(id) {
		return field{}, 0, fmt.Errorf("brcode: bad field id %q at position %d: ids are 2 digits", id, i+1)
	}
	if !validate.IsDigits(ls) {
		return field{}, 0, fmt.Errorf("brcode: bad length %q for field %s at position %d: lengths are 2 digits", ls, id, i+3)
	}
	n, _ := strconv.Atoi(ls)
	end := i + 4 + n
	if end > len(s) {
		return field{}, 0, fmt.Errorf("brcode: bad length for field %s: it declares %d characters but only %d remain: the code was cut off or edited", id, n, len(s)-i-4)
	}
	return field{id: id, value: s[i+4 : end]}, end, nil
}

// Parse reads a BR Code: structure and CRC as Verify, then the PIX fields.
// It reads what other issuers write leniently: the key is checked for
// length only, since the payer's bank, not this reader, resolves it.
// Each error names the problem: a bad length, a missing or repeated field, a
// value out of bounds, or a CRC mismatch with the expected and actual values.
func Parse(s string) (*Payload, error) {
	fields, err := verify(s)
	if err != nil {
		return nil, err
	}
	top := map[string]string{}
	for _, f := range fields {
		if _, dup := top[f.id]; dup {
			return nil, fmt.Errorf("brcode: field %s appears twice: the code is malformed", f.id)
		}
		top[f.id] = f.value
	}
	if v, ok := top[idInitiation]; ok && v != "11" && v != "12" {
		return nil, fmt.Errorf("brcode: point of initiation (field 01) is %q, want 11 (static) or 12 (dynamic)", v)
	}
	p := &Payload{}
	if err := parseMerchant(fields, p); err != nil {
		return nil, err
	}
	if v, ok := top[idCategory]; !ok {
		return nil, missing(idCategory, "merchant category code")
	} else if len(v) != 4 || !validate.IsDigits(v) {
		return nil, fmt.Errorf("brcode: merchant category code (field 52) is %q, want 4 digits", v)
	}
	if v, ok := top[idCurrency]; !ok {
		return nil, missing(idCurrency, "currency")
	} else if v != currencyBRL {
		return nil, fmt.Errorf("brcode: currency (field 53) is %q: PIX codes are in BRL (986)", v)
	}
	if v, ok := top[idAmount]; ok {
		d, err := parseAmount(v)
		if err != nil {
			return nil, err
		}
		p.Amount = d
	}
	if v, ok := top[idCountry]; !ok {
		return nil, missing(idCountry, "country code")
	} else if v != "BR" {
		return nil, fmt.Errorf("brcode: country (field 58) is %q: PIX codes say BR", v)
	}
	var ok bool
	if p.MerchantName, ok = top[idName]; !ok {
		return nil, missing(idName, "merchant name")
	}
	p.MerchantName = strings.TrimSpace(p.MerchantName)
	if err := checkName(p.MerchantName); err != nil {
		return nil, err
	}
	if p.MerchantCity, ok = top[idCity]; !ok {
		return nil, missing(idCity, "merchant city")
	}
	p.MerchantCity = strings.TrimSpace(p.MerchantCity)
	if err := checkCity(p.MerchantCity); err != nil {
		return nil, err
	}
	add, ok := top[idAdditional]
	if !ok {
		return nil, missing(idAdditional, "additional data (transaction id)")
	}
	sub, err := splitFields(add)
	if err != nil {
		return nil, inside(idAdditional, err)
	}
	for _, f := range sub {
		if f.id == subTxID {
			p.TxID = f.value
		}
	}
	if p.TxID == "" {
		return nil, errors.New("brcode: missing field 62/05 (transaction id): codes without one carry ***")
	}
	if err := checkTxID(p.TxID); err != nil {
		return nil, err
	}
	if p.TxID == noTxID {
		p.TxID = ""
	}
	return p, nil
}

// parseMerchant finds the PIX merchant account template: field 26 in
// practice, but EMV allows any id from 26 to 51, identified by its GUI.
func parseMerchant(fields []field, p *Payload) error {
	found := false
	for _, f := range fields {
		n, _ := strconv.Atoi(f.id)
		if n < 26 || n > 51 {
			continue
		}
		sub, err := splitFields(f.value)
		if err != nil {
			return inside(f.id, err)
		}
		gui := ""
		for _, s := range sub {
			if s.id == subGUI {
				gui = s.value
			}
		}
		if !strings.EqualFold(gui, pixGUI) {
			continue
		}
		if found {
			return errors.New("brcode: two PIX merchant account fields: the code is malformed")
		}
		found = true
		for _, s := range sub {
			switch s.id {
			case subKey:
				p.Key = s.value
			case subURL:
				p.URL = s.value
			}
		}
	}
	if !found {
		return errors.New("brcode: missing field 26 with BR.GOV.BCB.PIX (merchant account): this is not a PIX code")
	}
	switch {
	case p.Key == "" && p.URL == "":
		return errors.New("brcode: field 26 has neither a key (01) nor a URL (25): the code does not say who receives")
	case p.Key != "" && p.URL != "":
		return errors.New("brcode: field 26 has both a key (01) and a URL (25): the code is malformed")
	case p.Key != "":
		return checkKey(p.Key)
	}
	return checkURL(p.URL)
}

// inside reports a structure error found within a template field.
func inside(id string, err error) error {
	return fmt.Errorf("brcode: inside field %s: %s", id, strings.TrimPrefix(err.Error(), "brcode: "))
}

func missing(id, what string) error {
	return fmt.Errorf("brcode: missing field %s (%s): the code is incomplete", id, what)
}

func parseAmount(v string) (decimal.Decimal, error) {
	bad := fmt.Errorf("brcode: amount (field 54) is %q, want digits with an optional \".\" and up to 2 decimals", v)
	if v == "" || len(v) > maxAmountChars {
		return decimal.Decimal{}, bad
	}
	intPart, frac, _ := strings.Cut(v, ".")
	if (intPart != "" && !validate.IsDigits(intPart)) || (frac != "" && !validate.IsDigits(frac)) || len(frac) > 2 || (intPart == "" && frac == "") {
		return decimal.Decimal{}, bad
	}
	if strings.HasSuffix(v, ".") {
		return decimal.Decimal{}, bad
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		return decimal.Decimal{}, bad
	}
	if !d.IsPositive() {
		return decimal.Decimal{}, errors.New("brcode: amount (field 54) is zero: a code without an amount omits the field")
	}
	return d, nil
}

func checkKey(k string) error {
	if len(k) > maxKey {
		return fmt.Errorf("brcode: bad length: PIX key has %d characters, at most %d", len(k), maxKey)
	}
	if strings.TrimSpace(k) != k || k == "" {
		return errors.New("brcode: PIX key is blank or has spaces around it")
	}
	return nil
}

func checkURL(u string) error {
	if len(u) > maxURL {
		return fmt.Errorf("brcode: bad length: URL has %d characters, at most %d", len(u), maxURL)
	}
	if u == "" || strings.ContainsAny(u, " ") {
		return errors.New("brcode: URL is blank or has spaces")
	}
	if strings.Contains(u, "://") {
		return errors.New("brcode: URL must be written without its https:// scheme")
	}
	return nil
}

func checkName(n string) error {
	if strings.TrimSpace(n) == "" {
		return errors.New("brcode: merchant name is empty: give the receiver's name")
	}
	if len(n) > maxName {
		return fmt.Errorf("brcode: bad length: merchant name has %d characters, at most %d: shorten it", len(n), maxName)
	}
	return nil
}

func checkCity(c string) error {
	if strings.TrimSpace(c) == "" {
		return errors.New("brcode: merchant city is empty: give the receiver's city")
	}
	if len(c) > maxCity {
		return fmt.Errorf("brcode: bad length: merchant city has %d characters, at most %d: shorten it", len(c), maxCity)
	}
	return nil
}

func checkTxID(t string) error {
	if t == noTxID {
		return nil
	}
	if len(t) > maxTxID {
		return fmt.Errorf("brcode: bad length: transaction id has %d characters, at most %d", len(t), maxTxID)
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return fmt.Errorf("brcode: transaction id %q may hold letters and digits only (or *** for none)", t)
		}
	}
	return nil
}

// accents maps the accented letters of Portuguese and Spanish names to
// their plain form; the BR Code carries ASCII only.
var accents = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a",
	"é", "e", "è", "e", "ê", "e", "ë", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i",
	"ó", "o", "ò", "o", "ô", "o", "õ", "o", "ö", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "u",
	"ç", "c", "ñ", "n",
	"Á", "A", "À", "A", "Â", "A", "Ã", "A", "Ä", "A",
	"É", "E", "È", "E", "Ê", "E", "Ë", "E",
	"Í", "I", "Ì", "I", "Î", "I", "Ï", "I",
	"Ó", "O", "Ò", "O", "Ô", "O", "Õ", "O", "Ö", "O",
	"Ú", "U", "Ù", "U", "Û", "U", "Ü", "U",
	"Ç", "C", "Ñ", "N",
)

func asciiFold(s string) (string, error) {
	u := accents.Replace(strings.TrimSpace(s))
	for _, r := range u {
		if r < 0x20 || r > 0x7e {
			return "", fmt.Errorf("%q cannot be written in a BR Code: use plain letters", r)
		}
	}
	return u, nil
}
