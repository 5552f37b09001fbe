package brcode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/validate"
)

// example is the valid BR Code of reference/validation.md.
const example = "00020126580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-4266554400005204000053039865406100.005802BR5913FULANO DE TAL6008BRASILIA62070503***6304D4BC"

func TestCRC16(t *testing.T) {
	if got := CRC16([]byte("123456789")); got != 0x29B1 {
		t.Fatalf("CRC16(123456789) = %04X, want 29B1", got)
	}
	if got := CRC16(nil); got != 0xFFFF {
		t.Fatalf("CRC16(empty) = %04X, want FFFF (the initial value)", got)
	}
	body := example[:len(example)-4]
	if got := fmt.Sprintf("%04X", CRC16([]byte(body))); got != "D4BC" {
		t.Fatalf("CRC of the example = %s, want D4BC", got)
	}
}

func TestParseExample(t *testing.T) {
	p, err := Parse(example)
	if err != nil {
		t.Fatal(err)
	}
	want := Payload{
		Key:          "123e4567-e12b-12d1-a456-426655440000",
		Amount:       decimal.RequireFromString("100.00"),
		MerchantName: "FULANO DE TAL",
		MerchantCity: "BRASILIA",
	}
	if p.Key != want.Key || p.URL != "" || !p.Amount.Equal(want.Amount) || p.MerchantName != want.MerchantName || p.MerchantCity != want.MerchantCity || p.TxID != "" {
		t.Fatalf("Parse(example) = %+v, want %+v", *p, want)
	}
	again, err := Encode(*p)
	if err != nil {
		t.Fatal(err)
	}
	if again != example {
		t.Fatalf("re-encoded example differs:\n got %s\nwant %s", again, example)
	}
	if err := Verify(example); err != nil {
		t.Fatal(err)
	}
	// Surrounding blanks from a copy-paste are harmless.
	if _, err := Parse("  " + example + "\n"); err != nil {
		t.Fatal(err)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	tests := []Payload{
		{Key: "+5511912345678", MerchantName: "Loja", MerchantCity: "Sao Paulo", TxID: "PEDIDO123"},
		{Key: "fulano@example.com", Amount: decimal.RequireFromString("0.01"), MerchantName: "A", MerchantCity: "B"},
		{URL: "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25", Amount: decimal.RequireFromString("1234.5"), MerchantName: strings.Repeat("N", 25), MerchantCity: strings.Repeat("C", 15), TxID: strings.Repeat("x", 25)},
		{Key: "12ABC34501DE35", Amount: decimal.RequireFromString("9999999999.99"), MerchantName: "EMPRESA", MerchantCity: "RECIFE"},
	}
	for _, in := range tests {
		code, err := Encode(in)
		if err != nil {
			t.Fatalf("Encode(%+v): %v", in, err)
		}
		if !strings.HasPrefix(code, "000201") || !strings.Contains(code[len(code)-8:], "6304") {
			t.Errorf("Encode(%+v) = %s: bad frame", in, code)
		}
		p, err := Parse(code)
		if err != nil {
			t.Fatalf("Parse(Encode(%+v)) = %v\n%s", in, err, code)
		}
		if p.Key != in.Key || p.URL != in.URL || !p.Amount.Equal(in.Amount) || p.MerchantName != in.MerchantName || p.MerchantCity != in.MerchantCity || p.TxID != in.TxID {
			t.Errorf("round trip: got %+v, want %+v", *p, in)
		}
		if !in.Amount.IsZero() && !strings.Contains(code, "54") {
			t.Errorf("amount missing from %s", code)
		}
	}
	// A code without an amount has no field 54 at all.
	code, _ := Encode(Payload{Key: "fulano@example.com", MerchantName: "A", MerchantCity: "B"})
	if strings.Contains(code, "5303986"+"54") {
		t.Errorf("code without amount carries field 54: %s", code)
	}
}

func TestEncodeFoldsAccents(t *testing.T) {
	code, err := Encode(Payload{Key: "fulano@example.com", MerchantName: "João Ação", MerchantCity: "São Paulo"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(code)
	if err != nil {
		t.Fatal(err)
	}
	if p.MerchantName != "Joao Acao" || p.MerchantCity != "Sao Paulo" {
		t.Fatalf("got name %q city %q", p.MerchantName, p.MerchantCity)
	}
}

func TestEncodeRefuses(t *testing.T) {
	ok := Payload{Key: "fulano@example.com", MerchantName: "FULANO", MerchantCity: "BRASILIA"}
	tests := []struct {
		name   string
		change func(*Payload)
		msg    string
	}{
		{"no receiver", func(p *Payload) { p.Key = "" }, "no PIX key and no URL"},
		{"both", func(p *Payload) { p.URL = "pix.example.com/x" }, "both a PIX key and a URL"},
		{"long name", func(p *Payload) { p.MerchantName = strings.Repeat("N", 26) }, "merchant name has 26 characters, at most 25"},
		{"long city", func(p *Payload) { p.MerchantCity = strings.Repeat("C", 16) }, "merchant city has 16 characters, at most 15"},
		{"no name", func(p *Payload) { p.MerchantName = " " }, "merchant name is empty"},
		{"no city", func(p *Payload) { p.MerchantCity = "" }, "merchant city is empty"},
		{"negative", func(p *Payload) { p.Amount = decimal.NewFromInt(-1) }, "negative"},
		{"sub-cent", func(p *Payload) { p.Amount = decimal.RequireFromString("1.001") }, "more than 2 decimals"},
		{"huge", func(p *Payload) { p.Amount = decimal.RequireFromString("12345678901234") }, "too large"},
		{"txid chars", func(p *Payload) { p.TxID = "pedido-1" }, "letters and digits only"},
		{"txid long", func(p *Payload) { p.TxID = strings.Repeat("x", 26) }, "transaction id has 26 characters"},
		{"key long", func(p *Payload) { p.Key = strings.Repeat("k", 40) + "@" + strings.Repeat("e", 33) + ".com" }, "at most 77"},
		{"bad key", func(p *Payload) { p.Key = "529.982.247-24" }, "PIX key: read as a CPF, check digits do not match"},
		{"phone without +55", func(p *Payload) { p.Key = "11912345678" }, "+55"},
		{"url scheme", func(p *Payload) { p.Key, p.URL = "", "ftp://pix.example.com/x" }, "without its https:// scheme"},
		{"emoji", func(p *Payload) { p.MerchantName = "Loja ☺" }, "cannot be written"},
	}
	for _, tc := range tests {
		p := ok
		tc.change(&p)
		code, err := Encode(p)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Encode = %q, %v; want error containing %q", tc.name, code, err, tc.msg)
		}
	}
	// The key is written as the directory stores it.
	p := ok
	p.Key = "529.982.247-25"
	code, err := Encode(p)
	if err != nil || !strings.Contains(code, "011152998224725") {
		t.Errorf("Encode(punctuated CPF key) = %q, %v", code, err)
	}
	// https:// is dropped: dynamic codes carry the URL without its scheme.
	p = ok
	p.Key, p.URL = "", "https://pix.example.com/qr/1"
	code, err = Encode(p)
	if err != nil || !strings.Contains(code, "2520pix.example.com/qr/1") {
		t.Errorf("Encode(https URL) = %q, %v", code, err)
	}
}

// withCRC recomputes the CRC so that a test reaches the structure checks.
func withCRC(body string) string {
	body += "6304"
	return body + fmt.Sprintf("%04X", CRC16([]byte(body)))
}

func TestParseErrors(t *testing.T) {
	body := example[:len(example)-8]
	tests := []struct {
		name, code, msg string
	}{
		{"empty", "", "empty"},
		{"crc mismatch", example[:len(example)-4] + "D4BD", "CRC mismatch: the code says D4BD but its content gives D4BC"},
		{"changed digit", strings.Replace(example, "100.00", "900.00", 1), "CRC mismatch"},
		{"truncated", example[:len(example)-10], "bad length"},
		{"no crc", body, "does not end with the CRC field 63"},
		{"short crc", body + "6302D4", "want 4 hexadecimal digits"},
		{"bad start", withCRC("000202" + body[6:]), "does not start with 000201"},
		{"bad id", withCRC(body + "X"), "bad field id"},
		{"bad length digits", withCRC(body + "99ZZ"), "bad length"},
		{"overlong field", withCRC(body + "9950abc"), "declares 50 characters but only 11 remain"},
		{"no merchant", withCRC(strings.Replace(body, "26580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-426655440000", "", 1)), "missing field 26"},
		{"no currency", withCRC(strings.Replace(body, "5303986", "", 1)), "missing field 53"},
		{"usd", withCRC(strings.Replace(body, "5303986", "5303840", 1)), "PIX codes are in BRL"},
		{"no country", withCRC(strings.Replace(body, "5802BR", "", 1)), "missing field 58"},
		{"no name", withCRC(strings.Replace(body, "5913FULANO DE TAL", "", 1)), "missing field 59"},
		{"long name", withCRC(strings.Replace(body, "5913FULANO DE TAL", "5926"+strings.Repeat("N", 26), 1)), "merchant name has 26 characters"},
		{"no city", withCRC(strings.Replace(body, "6008BRASILIA", "", 1)), "missing field 60"},
		{"no additional", withCRC(strings.Replace(body, "62070503***", "", 1)), "missing field 62"},
		{"no txid", withCRC(strings.Replace(body, "62070503***", "62070703***", 1)), "missing field 62/05"},
		{"bad amount", withCRC(strings.Replace(body, "5406100.00", "54061e3.00", 1)), "amount (field 54)"},
		{"zero amount", withCRC(strings.Replace(body, "5406100.00", "54040.00", 1)), "zero"},
		{"duplicate", withCRC(body + "5802BR"), "field 58 appears twice"},
		{"no key", withCRC(strings.Replace(body, "26580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-426655440000", "26180014BR.GOV.BCB.PIX", 1)), "neither a key"},
		{"bad inner", withCRC(strings.Replace(body, "26580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-426655440000", "26050014B", 1)), "inside field 26"},
		{"control char", example[:10] + "\x00" + example[11:], "not printable"},
		{"too long", strings.Repeat("0", MaxLen+1), "too long"},
	}
	for _, tc := range tests {
		p, err := Parse(tc.code)
		if err == nil {
			t.Errorf("%s: Parse accepted %q as %+v", tc.name, tc.code, *p)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Parse error %q, want it to contain %q", tc.name, err, tc.msg)
		}
	}
}

func TestVerifyIsStructureOnly(t *testing.T) {
	// Verify accepts a well-framed code whose content is not PIX; Parse does not.
	code := withCRC("000201" + "5303840")
	if err := Verify(code); err != nil {
		t.Fatalf("Verify(%q) = %v", code, err)
	}
	if _, err := Parse(code); err == nil {
		t.Fatalf("Parse accepted a non-PIX code %q", code)
	}
	if err := Verify(example[:len(example)-1] + "D"); err == nil {
		t.Fatal("Verify accepted a wrong CRC")
	}
	// Lower-case CRC digits are read, though Encode writes upper case.
	if err := Verify(example[:len(example)-4] + "d4bc"); err != nil {
		t.Fatalf("Verify(lower-case CRC) = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(example)
	f.Add(withCRC("000201"))
	f.Add("000201")
	f.Add("")
	f.Add(example[:40])
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			if p != nil || err.Error() == "" {
				t.Fatalf("Parse(%q) = %v, %v", s, p, err)
			}
			return
		}
		if Verify(s) != nil {
			t.Fatalf("Parse accepted %q that Verify refuses", s)
		}
		if p.Key != "" {
			if _, norm, err := validate.PixKey(p.Key); err != nil || norm != p.Key {
				return // Encode is strict about the key; Parse is not.
			}
		}
		// What Parse accepts re-encodes into a code that parses to the
		// same payload (the field order or extra fields may differ).
		code, err := Encode(*p)
		if err != nil {
			t.Fatalf("Encode(Parse(%q)) = %v", s, err)
		}
		q, err := Parse(code)
		if err != nil {
			t.Fatalf("Parse(%q) = %v", code, err)
		}
		if q.Key != p.Key || q.URL != p.URL || !q.Amount.Equal(p.Amount) || q.MerchantName != p.MerchantName || q.MerchantCity != p.MerchantCity || q.TxID != p.TxID {
			t.Fatalf("round trip of %q: %+v != %+v", s, *q, *p)
		}
	})
}

// FuzzParseBody gives the fuzzer codes with a correct CRC, so that it
// explores the field checks behind it rather than stopping at the CRC.
func FuzzParseBody(f *testing.F) {
	f.Add(example[:len(example)-8])
	f.Add("000201")
	f.Add("0002012618" + "0014BR.GOV.BCB.PIX")
	f.Fuzz(func(t *testing.T, body string) {
		code := withCRC(body)
		p, err := Parse(code)
		if err != nil {
			return
		}
		if p.Key != "" {
			if _, norm, err := validate.PixKey(p.Key); err != nil || norm != p.Key {
				return // Encode is strict about the key; Parse is not.
			}
		}
		again, err := Encode(*p)
		if err != nil {
			t.Fatalf("Encode(Parse(%q)) = %v", code, err)
		}
		q, err := Parse(again)
		if err != nil || q.Key != p.Key || q.URL != p.URL || !q.Amount.Equal(p.Amount) || q.MerchantName != p.MerchantName || q.MerchantCity != p.MerchantCity || q.TxID != p.TxID {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", code, q, err, *p)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse(example); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode is what every PIX-in ticket the sandbox creates pays for
// its code.
func BenchmarkEncode(b *testing.B) {
	p := Payload{Key: "+5511912345678", Amount: decimal.RequireFromString("1234.56"), MerchantName: "Fulano de Tal", MerchantCity: "São Paulo", TxID: "ABC123DEF456"}
	for b.Loop() {
		if _, err := Encode(p); err != nil {
			b.Fatal(err)
		}
	}
}
