package validate

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Vectors from reference/validation.md, plus cases an operator would type.

func TestCPF(t *testing.T) {
	tests := []struct {
		in, want, errHas string
	}{
		{in: "529.982.247-25", want: "52998224725"},
		{in: "123.456.789-09", want: "12345678909"},
		{in: "52998224725", want: "52998224725"},
		{in: "  529.982.247-25 ", want: "52998224725"},
		{in: "529.982.247-24", errHas: "check digits do not match"},
		{in: "111.111.111-11", errHas: "all digits are equal"},
		{in: "000.000.000-00", errHas: "all digits are equal"},
		{in: "123.456.789-90", errHas: "check digits do not match"},
		{in: "5299822472", errHas: "has 10 digits"},
		{in: "529982247255", errHas: "has 12 digits"},
		{in: "529 982 247 25", errHas: "not allowed"},
		{in: "52998224a25", errHas: "not allowed"},
		{in: "", errHas: "required"},
	}
	for _, tc := range tests {
		got, err := CPF(tc.in)
		check(t, "CPF", tc.in, got, err, tc.want, tc.errHas)
	}
}

func TestCNPJ(t *testing.T) {
	tests := []struct {
		in, want, errHas string
	}{
		{in: "11.222.333/0001-81", want: "11222333000181"},
		{in: "12.ABC.345/01DE-35", want: "12ABC34501DE35"},
		{in: "12.abc.345/01de-35", want: "12ABC34501DE35"},
		{in: "11222333000181", want: "11222333000181"},
		{in: "11.222.333/0001-80", errHas: "check digits do not match"},
		{in: "12ABC34501DE36", errHas: "check digits do not match"},
		{in: "12ABC34501DEA5", errHas: "never letters"},
		{in: "00000000000000", errHas: "all characters are equal"},
		{in: "1122233300018", errHas: "has 13 characters"},
		{in: "11.222.333/0001_81", errHas: "not allowed"},
		{in: "", errHas: "required"},
	}
	for _, tc := range tests {
		got, err := CNPJ(tc.in)
		check(t, "CNPJ", tc.in, got, err, tc.want, tc.errHas)
	}
}

func TestTaxID(t *testing.T) {
	tests := []struct {
		in, want, kind, errHas string
	}{
		{in: "529.982.247-25", want: "52998224725", kind: KindCPF},
		{in: "11.222.333/0001-81", want: "11222333000181", kind: KindCNPJ},
		{in: "12.ABC.345/01DE-35", want: "12ABC34501DE35", kind: KindCNPJ},
		{in: "529.982.247-24", kind: KindCPF, errHas: "CPF"},
		{in: "11.222.333/0001-80", kind: KindCNPJ, errHas: "CNPJ"},
		{in: "1234", errHas: "has 4 characters"},
		{in: " ", errHas: "required"},
	}
	for _, tc := range tests {
		got, kind, err := TaxID(tc.in)
		check(t, "TaxID", tc.in, got, err, tc.want, tc.errHas)
		if kind != tc.kind {
			t.Errorf("TaxID(%q) kind = %q, want %q", tc.in, kind, tc.kind)
		}
	}
}

func TestPixKey(t *testing.T) {
	tests := []struct {
		in   string
		kind PixKeyKind
		want string
		err  string
	}{
		{in: "529.982.247-25", kind: PixCPF, want: "52998224725"},
		{in: "11.222.333/0001-81", kind: PixCNPJ, want: "11222333000181"},
		{in: "12ABC34501DE35", kind: PixCNPJ, want: "12ABC34501DE35"},
		{in: "+5511912345678", kind: PixPhone, want: "+5511912345678"},
		{in: "+55 (21) 98765-4321", kind: PixPhone, want: "+5521987654321"},
		{in: "Fulano.Tal@Example.COM", kind: PixEmail, want: "fulano.tal@example.com"},
		{in: "123E4567-E12B-12D1-A456-426655440000", kind: PixEVP, want: "123e4567-e12b-12d1-a456-426655440000"},
		// 11 bare digits are read as a CPF; a phone needs +55.
		{in: "11912345678", kind: PixCPF, err: "+55"},
		{in: "+1 415 555 0100", kind: PixPhone, err: "start with +55"},
		{in: "+5511812345678", kind: PixPhone, err: "must start with 9"},
		{in: "+5510912345678", kind: PixPhone, err: "not a Brazilian area code"},
		{in: "+551191234567", kind: PixPhone, err: "has 10 digits after +55"},
		{in: "+55119123456789", kind: PixPhone, err: "has 12 digits after +55"},
		{in: "5511912345678", err: "without the +"},
		{in: strings.Repeat("a", 40) + "@" + strings.Repeat("b", 33) + ".com", kind: PixEmail, err: "at most 77"},
		{in: "fulano@", kind: PixEmail, err: "nothing after the @"},
		{in: "123e4567-e12b-12d1-a456-42665544000g", kind: PixEVP, err: "hexadecimal"},
		{in: "123e4567e12b12d1a456426655440000", err: "without its dashes"},
		{in: "529.982.247-24", kind: PixCPF, err: "check digits do not match"},
		{in: "hello", err: "not a PIX key"},
		{in: "", err: "required"},
	}
	for _, tc := range tests {
		kind, got, err := PixKey(tc.in)
		check(t, "PixKey", tc.in, got, err, tc.want, tc.err)
		if kind != tc.kind {
			t.Errorf("PixKey(%q) kind = %q, want %q", tc.in, kind, tc.kind)
		}
	}
	// The longest e-mail key accepted is exactly 77 characters.
	e77 := strings.Repeat("a", 40) + "@" + strings.Repeat("b", 32) + ".com"
	if _, _, err := PixKey(e77); err != nil {
		t.Errorf("77-character e-mail key refused: %v", err)
	}
}

func TestEVMAddress(t *testing.T) {
	valid := []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
		"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
	}
	for _, a := range valid {
		got, warn, err := EVMAddress(a)
		if err != nil || got != a || warn != "" {
			t.Errorf("EVMAddress(%q) = %q, %q, %v; want itself, no warning", a, got, warn, err)
		}
		// Unchecksummed forms are accepted with a warning and the checksum shown.
		for _, u := range []string{"0x" + strings.ToLower(a[2:]), "0x" + strings.ToUpper(a[2:])} {
			got, warn, err := EVMAddress(u)
			if err != nil || got != a || !strings.Contains(warn, a) {
				t.Errorf("EVMAddress(%q) = %q, %q, %v; want %q with a warning", u, got, warn, err, a)
			}
		}
	}
	invalid := []struct{ in, err string }{
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "checksum does not match"},
		{"5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", `start with "0x"`},
		{"0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", `lower-case "0x"`},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", "has 39 characters"},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd", "has 41 characters"},
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", "not hexadecimal"},
		{"0x0000000000000000000000000000000000000000", "zero address"},
		{"", "required"},
	}
	for _, tc := range invalid {
		got, _, err := EVMAddress(tc.in)
		check(t, "EVMAddress", tc.in, got, err, "", tc.err)
	}
	// Digits only: nothing to checksum, nothing to warn about.
	d := "0x1234567890123456789012345678901234567890"
	if got, warn, err := EVMAddress(d); err != nil || got != d || warn != "" {
		t.Errorf("EVMAddress(%q) = %q, %q, %v", d, got, warn, err)
	}
}

func TestIBAN(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "GB82 WEST 1234 5698 7654 32", want: "GB82WEST12345698765432"},
		{in: "DE89 3704 0044 0532 0130 00", want: "DE89370400440532013000"},
		{in: "de89370400440532013000", want: "DE89370400440532013000"},
		{in: "FR14 2004 1010 0505 0001 3M02 606", want: "FR1420041010050500013M02606"},
		{in: "BR15 0000 0000 0000 1093 2840 814P 2", want: "BR1500000000000010932840814P2"},
		{in: "NO93 8601 1117 947", want: "NO9386011117947"},
		{in: "GB82 WEST 1234 5698 7654 33", err: "check digits do not match"},
		{in: "GB82 WEST 1234 5698 7654 3", err: "has 21 characters: an IBAN from GB has 22, re-type"},
		{in: "US12 3456 7890", err: "US does not issue IBANs"},
		{in: "1282 WEST 1234 5698 7654 32", err: "2-letter country code"},
		{in: "GBXX WEST 1234 5698 7654 32", err: "check digits and must be digits"},
		{in: "GB82-WEST-1234-5698-7654-32", want: "GB82WEST12345698765432"},
		{in: "GB82 WEST 1234 5698 7654 3#", err: "not allowed"},
		{in: "GB", err: "too short"},
		{in: "", err: "required"},
	}
	for _, tc := range tests {
		got, err := IBAN(tc.in)
		check(t, "IBAN", tc.in, got, err, tc.want, tc.err)
	}
	if g := IBANGroups("GB82WEST12345698765432"); g != "GB82 WEST 1234 5698 7654 32" {
		t.Errorf("IBANGroups = %q", g)
	}
}

func TestABA(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "021000021", want: "021000021"},
		{in: "011000015", want: "011000015"},
		{in: "026009593", want: "026009593"},
		{in: " 026009593 ", want: "026009593"},
		{in: "123456789", err: "check digit does not match"},
		{in: "02100002", err: "has 8 digits"},
		{in: "0210000210", err: "has 10 digits"},
		{in: "02100002a", err: "digits only"},
		{in: "000000000", err: "all zeros"},
		{in: "", err: "required"},
	}
	for _, tc := range tests {
		got, err := ABA(tc.in)
		check(t, "ABA", tc.in, got, err, tc.want, tc.err)
	}
}

func TestEmail(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "fulano@example.com", want: "fulano@example.com"},
		{in: " Fulano.Tal+pix@Example.COM.br ", want: "Fulano.Tal+pix@example.com.br"},
		{in: "fulano", err: "has no @"},
		{in: "a@b@c.com", err: "more than one @"},
		{in: "@example.com", err: "nothing before the @"},
		{in: "fulano@localhost", err: "has no dot"},
		{in: "fulano@example..com", err: "empty part"},
		{in: "ful ano@example.com", err: "not allowed"},
		{in: ".fulano@example.com", err: "misplaced dot"},
		{in: "fulano@-example.com", err: "dash"},
		{in: "fulano@10.0.0.1", err: "ends with digits"},
		{in: "fulano@example.c", err: "one-letter"},
		{in: strings.Repeat("a", 65) + "@example.com", err: "longer than 64"},
		{in: "", err: "required"},
	}
	for _, tc := range tests {
		got, err := Email(tc.in)
		check(t, "Email", tc.in, got, err, tc.want, tc.err)
	}
}

func TestDate(t *testing.T) {
	got, err := Date("1990-07-25")
	if err != nil || !got.Equal(time.Date(1990, 7, 25, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Date(1990-07-25) = %v, %v", got, err)
	}
	if _, err := Date("2024-02-29"); err != nil {
		t.Errorf("leap day refused: %v", err)
	}
	for in, msg := range map[string]string{
		"2023-02-29": "not a calendar date",
		"1990-13-01": "not a calendar date",
		"25/07/1990": "YYYY-MM-DD",
		"1990-7-25":  "YYYY-MM-DD",
		"1850-01-01": "too early",
		"":           "required",
	} {
		_, err := Date(in)
		check(t, "Date", in, "", err, "", msg)
	}
}

func TestCountries(t *testing.T) {
	if n := len(alpha3to2); n != 249 {
		t.Errorf("ISO 3166-1 list has %d alpha-3 codes, want 249", n)
	}
	if n := len(alpha2to3); n != 249 {
		t.Errorf("ISO 3166-1 list has %d alpha-2 codes, want 249", n)
	}
	for _, c := range []string{"BRA", "USA", "DEU", "GBR", "COL", "ARG", "CIV", "ALA"} {
		if got, err := CountryAlpha3(c); err != nil || got != c {
			t.Errorf("CountryAlpha3(%q) = %q, %v", c, got, err)
		}
	}
	if got, err := CountryAlpha3(" bra "); err != nil || got != "BRA" {
		t.Errorf("CountryAlpha3(bra) = %q, %v", got, err)
	}
	for in, msg := range map[string]string{
		"BR":   "type the 3-letter code BRA",
		"XYZ":  "not an ISO 3166 country code",
		"UK":   "has 2 letters",
		"BRAS": "has 4 letters",
		"B1A":  "letters A-Z",
		"":     "required",
	} {
		got, err := CountryAlpha3(in)
		check(t, "CountryAlpha3", in, got, err, "", msg)
	}
	for _, c := range []string{"BR", "US", "DE", "GB", "CO", "AR"} {
		if got, err := CountryAlpha2(c); err != nil || got != c {
			t.Errorf("CountryAlpha2(%q) = %q, %v", c, got, err)
		}
	}
	for in, msg := range map[string]string{
		"BRA": "type the 2-letter code BR",
		"UK":  "not an ISO 3166 country code",
		"B":   "has 1 letters",
		"":    "required",
	} {
		got, err := CountryAlpha2(in)
		check(t, "CountryAlpha2", in, got, err, "", msg)
	}
	if a2, err := Alpha3To2("bra"); err != nil || a2 != "BR" {
		t.Errorf("Alpha3To2(bra) = %q, %v", a2, err)
	}
	if a3, err := Alpha2To3("de"); err != nil || a3 != "DEU" {
		t.Errorf("Alpha2To3(de) = %q, %v", a3, err)
	}
	if _, err := Alpha3To2("XYZ"); err == nil {
		t.Error("Alpha3To2(XYZ) succeeded")
	}
	// Every IBAN country is a real ISO country (Kosovo, XK, is the one
	// user-assigned code the IBAN registry uses).
	for cc := range ibanLengths {
		if _, ok := alpha2to3[cc]; !ok && cc != "XK" {
			t.Errorf("IBAN country %s is not in the ISO 3166-1 list", cc)
		}
	}
}

func TestRequiredDigitsField(t *testing.T) {
	if err := Required("  "); err == nil {
		t.Error("Required accepted a blank value")
	}
	if err := Required("x"); err != nil {
		t.Errorf("Required(x) = %v", err)
	}
	if got, err := Digits("12345-6", 4, 12); err != nil || got != "123456" {
		t.Errorf("Digits(12345-6) = %q, %v", got, err)
	}
	for in, msg := range map[string]string{"12a": "not a digit", "12": "type 4 to 12 digits", "1234567890123": "has 13 digits", "": "required"} {
		got, err := Digits(in, 4, 12)
		check(t, "Digits", in, got, err, "", msg)
	}
	if _, err := Digits("123", 4, 4); err == nil || !strings.Contains(err.Error(), "exactly 4 digits") {
		t.Errorf("Digits exact message: %v", err)
	}

	if Field("cpf", nil) != nil {
		t.Error("Field(nil) is not nil")
	}
	_, inner := CPF("529.982.247-24")
	err := Field("Tax id", inner)
	if err.Error() != "Tax id: "+inner.Error() {
		t.Errorf("FieldError.Error() = %q", err)
	}
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Tax id" || !errors.Is(err, inner) {
		t.Errorf("FieldError does not unwrap: %#v", err)
	}
}

// check asserts a validator outcome: the normalised value, or an error whose
// message contains errHas and is free of the leaked value type noise.
func check(t *testing.T, fn, in, got string, err error, want, errHas string) {
	t.Helper()
	if errHas == "" {
		if err != nil {
			t.Errorf("%s(%q) error: %v", fn, in, err)
		} else if got != want {
			t.Errorf("%s(%q) = %q, want %q", fn, in, got, want)
		}
		return
	}
	if err == nil {
		t.Errorf("%s(%q) = %q, want an error containing %q", fn, in, got, errHas)
		return
	}
	if !strings.Contains(err.Error(), errHas) {
		t.Errorf("%s(%q) error %q, want it to contain %q", fn, in, err, errHas)
	}
	if got != "" {
		t.Errorf("%s(%q) returned %q alongside an error", fn, in, got)
	}
}

func BenchmarkEVMAddress(b *testing.B) {
	for b.Loop() {
		if _, _, err := EVMAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPixKey(b *testing.B) {
	for b.Loop() {
		if _, _, err := PixKey("+55 (11) 91234-5678"); err != nil {
			b.Fatal(err)
		}
	}
}

// Limits count characters, not bytes: 60 × "é" is 120 bytes and 60
// characters, within a 100-character limit; 101 × "é" is over it.
func TestMaxCharsCountsCharacters(t *testing.T) {
	if err := MaxChars(strings.Repeat("é", 60), 100); err != nil {
		t.Fatalf("60 characters refused under a 100-character limit: %v", err)
	}
	if err := MaxChars(strings.Repeat("é", 100), 100); err != nil {
		t.Fatalf("100 characters refused under a 100-character limit: %v", err)
	}
	err := MaxChars(strings.Repeat("é", 101), 100)
	if err == nil || !strings.Contains(err.Error(), "101") || !strings.Contains(err.Error(), "100 characters") {
		t.Fatalf("101 characters: %v", err)
	}
	if Chars("aé😀") != 3 {
		t.Fatalf("Chars(aé😀) = %d, want 3", Chars("aé😀"))
	}
}
