package money

import (
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseAmountAccepts(t *testing.T) {
	tests := []struct{ in, cur, want string }{
		{"100", "BRL", "100"},
		{"100.5", "BRL", "100.5"},
		{"100,50", "BRL", "100.5"},
		{"0.01", "USD", "0.01"},
		{",5", "BRL", "0.5"},
		{"  42.10 ", "EUR", "42.1"},
		{"007", "BRL", "7"},
		{"1.123456", "USDC", "1.123456"},
		{"1,000001", "BRLA", "1.000001"},
		{"123456789012345678.99", "BRL", "123456789012345678.99"},
		{"12.5", "brla", "12.5"},
		// Digit groups, where the reading is certain.
		{"1,234.56", "BRL", "1234.56"},
		{"1.234,56", "BRL", "1234.56"},
		{"1,234,567.5", "USD", "1234567.5"},
		{"1.234.567,891011", "USDC", "1234567.891011"},
		{"1,234,567", "USDC", "1234567"},
		{"1.234.567", "BRL", "1234567"},
		{"12,345.678901", "USDT", "12345.678901"},
		// One separator: decimals unless it could group thousands.
		{"0,123", "USDC", "0.123"},
		{".123", "USDC", "0.123"},
		{"1234,567", "USDC", "1234.567"},
		{"1,2345", "USDC", "1.2345"},
		{"1.23", "USDC", "1.23"},
		{"1,2340", "USDC", "1.234"},
	}
	for _, tc := range tests {
		got, err := ParseAmount(tc.in, tc.cur)
		if err != nil {
			t.Errorf("ParseAmount(%q, %s) error: %v", tc.in, tc.cur, err)
			continue
		}
		if !got.Equal(decimal.RequireFromString(tc.want)) {
			t.Errorf("ParseAmount(%q, %s) = %s, want %s", tc.in, tc.cur, got, tc.want)
		}
	}
}

func TestParseAmountRefuses(t *testing.T) {
	tests := []struct{ in, cur, msg string }{
		{"", "BRL", "empty"},
		{"   ", "BRL", "empty"},
		{"0", "BRL", "greater than zero"},
		{"0.00", "BRL", "greater than zero"},
		{"-5", "BRL", "sign"},
		{"+5", "BRL", "sign"},
		{"1e3", "BRL", "1000 instead of 1e3"},
		{"1E3", "BRL", "exponent"},
		{"NaN", "BRL", "not a number"},
		{"Inf", "BRL", "not a number"},
		{"infinity", "BRL", "not a number"},
		// "1,234" is one thousand and more in Brazil, one and a fraction
		// in the United States: refused in every currency, never 1.234.
		{"1,234", "BRL", "if 1,234 means thousands, type 1234"},
		{"1,234", "USDC", "if 1,234 means thousands, type 1234"},
		{"1.234", "USDC", "if 1.234 means thousands, type 1234"},
		{"999,999", "BRLA", "if 999,999 means thousands"},
		{"1,234", "EURC", "if it means 1 and a fraction, type 1.2340"},
		// Groups that do not read one way only.
		{"1,23.45", "BRL", "groups its digits unevenly"},
		{"1234,567.50", "BRL", "groups its digits unevenly"},
		{"01,234.50", "BRL", "groups its digits unevenly"},
		{",234.50", "BRL", "groups its digits unevenly"},
		{"1,,234.50", "BRL", "groups its digits unevenly"},
		{"1.234,567.89", "BRL", "both as a digit group and as the decimal separator"},
		{"1,234.567", "BRL", "at most 2 decimals, got 3"},
		{"1 234", "BRL", "spaces"},
		{"1_000", "BRL", "spaces or digit group separators"},
		{"1.005", "BRL", "at most 2 decimals, got 3"},
		{"1.0000001", "USDC", "at most 6 decimals, got 7"},
		{"10.", "BRL", "ends with a separator"},
		{".", "BRL", "ends with a separator"},
		{"R$10", "BRL", "not a number"},
		{"0x10", "BRL", "not a number"},
		{"１０", "BRL", "not a number"},
		{strings.Repeat("9", 19), "BRL", "too large"},
	}
	for _, tc := range tests {
		got, err := ParseAmount(tc.in, tc.cur)
		if err == nil {
			t.Errorf("ParseAmount(%q, %s) = %s, want an error", tc.in, tc.cur, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseAmount(%q, %s) error %q, want it to contain %q", tc.in, tc.cur, err, tc.msg)
		}
		if !got.IsZero() {
			t.Errorf("ParseAmount(%q) returned %s alongside an error", tc.in, got)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ in, cur, want string }{
		{"1234.5", "BRL", "1,234.50"},
		{"0", "BRL", "0.00"},
		{"999", "USD", "999.00"},
		{"1000", "USD", "1,000.00"},
		{"1234567.891", "BRL", "1,234,567.89"},
		{"1234567.8912345", "USDC", "1,234,567.891235"},
		{"-1234.5", "BRL", "-1,234.50"},
		{"100000", "XYZ", "100,000.00"},
		{"12", "EURC", "12.000000"},
	}
	for _, tc := range tests {
		if got := Format(decimal.RequireFromString(tc.in), tc.cur); got != tc.want {
			t.Errorf("Format(%s, %s) = %q, want %q", tc.in, tc.cur, got, tc.want)
		}
	}
	if got := Wire(decimal.RequireFromString("1234.5"), "BRL"); got != "1234.50" {
		t.Errorf("Wire = %q", got)
	}
}

func TestCatalogue(t *testing.T) {
	if got := Currencies(); !slices.Equal(got, []string{"BRL", "BRLA", "USDC", "USDT", "EURC", "USDM", "USDCe", "USD", "EUR", "COP", "ARS"}) {
		t.Errorf("Currencies() = %v", got)
	}
	want := map[string][]string{
		"BRL":   {"PIX"},
		"BRLA":  {"INTERNAL", "POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"},
		"USDC":  {"INTERNAL", "POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"},
		"USDT":  {"INTERNAL", "POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM", "TRON"},
		"EURC":  {"INTERNAL", "POLYGON", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"},
		"USDM":  {"INTERNAL", "POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"},
		"USDCe": {"INTERNAL", "POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM"},
		"USD":   {"ACH", "WIRE"},
		"EUR":   {"SEPA"},
		"COP":   {"BANK-TRANSFER"},
		"ARS":   {"CVU"},
	}
	for c, m := range want {
		if got := Methods(c); !slices.Equal(got, m) {
			t.Errorf("Methods(%s) = %v, want %v", c, got, m)
		}
		for _, method := range m {
			if !SupportsMethod(c, method) {
				t.Errorf("SupportsMethod(%s, %s) = false", c, method)
			}
		}
	}
	if Methods("XYZ") != nil || SupportsMethod("EURC", "CELO") || SupportsMethod("BRL", "ACH") || SupportsMethod("USDC", "TRON") {
		t.Error("catalogue accepts an unsupported currency or method")
	}
	// Callers cannot corrupt the catalogue through a returned slice.
	m := Methods("BRL")
	m[0] = "BROKEN"
	if Methods("BRL")[0] != "PIX" {
		t.Error("Methods returned the catalogue's own slice")
	}

	for _, c := range []string{"BRLA", "USDC", "USDT", "EURC", "usdc"} {
		if !IsToken(c) || Precision(c) != 6 || OutputOnly(c) {
			t.Errorf("%s: IsToken %v Precision %d OutputOnly %v", c, IsToken(c), Precision(c), OutputOnly(c))
		}
	}
	for _, c := range []string{"BRL", "USD", "EUR", "COP", "ARS", "XYZ"} {
		if IsToken(c) || Precision(c) != 2 {
			t.Errorf("%s: IsToken %v Precision %d", c, IsToken(c), Precision(c))
		}
	}
	for _, c := range []string{"USD", "EUR", "COP", "ARS"} {
		if !OutputOnly(c) {
			t.Errorf("OutputOnly(%s) = false", c)
		}
	}
	if OutputOnly("BRL") {
		t.Error("BRL is an input currency")
	}

	for _, c := range []string{"POLYGON", "CELO", "ETHEREUM", "BASE", "GNOSIS", "MOONBEAM", "TRON", "polygon"} {
		if !IsChain(c) {
			t.Errorf("IsChain(%s) = false", c)
		}
	}
	for _, c := range []string{"INTERNAL", "PIX", "ACH", ""} {
		if IsChain(c) {
			t.Errorf("IsChain(%s) = true", c)
		}
	}
	if got := Chains(); len(got) != 7 || got[0] != "POLYGON" {
		t.Errorf("Chains() = %v", got)
	}

	pegged := [][2]string{{"BRL", "BRLA"}, {"BRLA", "BRL"}, {"USD", "USDC"}, {"USDT", "USD"}, {"USDC", "USDT"}, {"EUR", "EURC"}, {"BRL", "BRL"}, {"COP", "COP"}}
	for _, p := range pegged {
		if !Pegged(p[0], p[1]) {
			t.Errorf("Pegged(%s, %s) = false", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"BRL", "USDC"}, {"EURC", "USD"}, {"XYZ", "XYZ"}, {"COP", "ARS"}} {
		if Pegged(p[0], p[1]) {
			t.Errorf("Pegged(%s, %s) = true", p[0], p[1])
		}
	}
}

// FuzzParseAmount: never a panic; an accepted amount is positive, within
// the precision, and reads back the same from its wire and display forms.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"100", "100,50", "1e3", "-1", "NaN", "1.234,5", "0.000001", "", ".5", "9999999999999999999"} {
		f.Add(s, "BRL")
		f.Add(s, "USDC")
	}
	f.Fuzz(func(t *testing.T, in, cur string) {
		d, err := ParseAmount(in, cur)
		if err != nil {
			if !d.IsZero() || err.Error() == "" {
				t.Fatalf("ParseAmount(%q, %q) = %s, %v", in, cur, d, err)
			}
			return
		}
		if !d.IsPositive() {
			t.Fatalf("ParseAmount(%q) = %s, not positive", in, d)
		}
		if d.Exponent() < -Precision(cur) && !d.Equal(d.Truncate(Precision(cur))) {
			t.Fatalf("ParseAmount(%q, %q) = %s, beyond precision %d", in, cur, d, Precision(cur))
		}
		back, err := ParseAmount(Wire(d, cur), cur)
		if err != nil || !back.Equal(d) {
			t.Fatalf("wire form %q of %s reads back as %s, %v", Wire(d, cur), d, back, err)
		}
		display := Format(d, cur)
		if ungrouped := strings.ReplaceAll(display, ",", ""); !decimal.RequireFromString(ungrouped).Equal(d) {
			t.Fatalf("Format(%s) = %q loses the value", d, display)
		}
		// What the screens show, grouped, is typed back as the same amount.
		if back, err := ParseAmount(display, cur); err != nil || !back.Equal(d) {
			t.Fatalf("display form %q of %s reads back as %s, %v", display, d, back, err)
		}
	})
}

func BenchmarkParseAmount(b *testing.B) {
	for b.Loop() {
		if _, err := ParseAmount("1234,56", "BRL"); err != nil {
			b.Fatal(err)
		}
	}
}
