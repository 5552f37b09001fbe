package validate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Each fuzz target checks that a validator never panics, that an error
// always has a message and no value, and that an accepted value is a fixed
// point: validating the normalised form gives it back unchanged.

func FuzzCPF(f *testing.F) {
	for _, s := range []string{"529.982.247-25", "123.456.789-09", "529.982.247-24", "111.111.111-11", "", "-./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := CPF(s)
		if !settle(t, got, err) {
			return
		}
		if len(got) != 11 || !IsDigits(got) {
			t.Fatalf("CPF(%q) = %q, want 11 digits", s, got)
		}
		if again, err := CPF(got); err != nil || again != got {
			t.Fatalf("CPF(%q) = %q, %v; not a fixed point", got, again, err)
		}
	})
}

func FuzzCNPJ(f *testing.F) {
	for _, s := range []string{"11.222.333/0001-81", "12.ABC.345/01DE-35", "12abc34501de35", "12ABC34501DE36", "", "ÿ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := CNPJ(s)
		if !settle(t, got, err) {
			return
		}
		if len(got) != 14 || strings.ToUpper(got) != got {
			t.Fatalf("CNPJ(%q) = %q, want 14 upper-case characters", s, got)
		}
		if again, err := CNPJ(got); err != nil || again != got {
			t.Fatalf("CNPJ(%q) = %q, %v; not a fixed point", got, again, err)
		}
		if n, kind, err := TaxID(got); err != nil || n != got || kind != KindCNPJ {
			t.Fatalf("TaxID(%q) = %q, %q, %v", got, n, kind, err)
		}
	})
}

func FuzzTaxID(f *testing.F) {
	for _, s := range []string{"529.982.247-25", "11.222.333/0001-81", "12.ABC.345/01DE-35", "1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, kind, err := TaxID(s)
		if !settle(t, got, err) {
			return
		}
		want := map[string]int{KindCPF: 11, KindCNPJ: 14}[kind]
		if len(got) != want {
			t.Fatalf("TaxID(%q) = %q kind %q", s, got, kind)
		}
		if again, k2, err := TaxID(got); err != nil || again != got || k2 != kind {
			t.Fatalf("TaxID(%q) = %q, %q, %v; not a fixed point", got, again, k2, err)
		}
	})
}

func FuzzPixKey(f *testing.F) {
	for _, s := range []string{"529.982.247-25", "11222333000181", "+5511912345678", "Fulano@Example.com",
		"123e4567-e12b-12d1-a456-426655440000", "11912345678", "+", "@", "------------------------------------"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kind, got, err := PixKey(s)
		if !settle(t, got, err) {
			return
		}
		switch kind {
		case PixCPF, PixCNPJ, PixPhone, PixEVP:
		case PixEmail:
			if len(got) > 77 || strings.ToLower(got) != got {
				t.Fatalf("PixKey(%q) e-mail = %q", s, got)
			}
		default:
			t.Fatalf("PixKey(%q) accepted with kind %q", s, kind)
		}
		if k2, again, err := PixKey(got); err != nil || again != got || k2 != kind {
			t.Fatalf("PixKey(%q) = %q, %q, %v; not a fixed point of kind %q", got, k2, again, err, kind)
		}
	})
}

func FuzzEVMAddress(f *testing.F) {
	for _, s := range []string{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "0x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, warn, err := EVMAddress(s)
		if !settle(t, got, err) {
			if warn != "" {
				t.Fatalf("EVMAddress(%q) warns %q alongside an error", s, warn)
			}
			return
		}
		if len(got) != 42 || !strings.HasPrefix(got, "0x") {
			t.Fatalf("EVMAddress(%q) = %q", s, got)
		}
		// The checksummed form is itself valid without a warning, and
		// differs from the input only in letter case.
		if again, w2, err := EVMAddress(got); err != nil || again != got || w2 != "" {
			t.Fatalf("EVMAddress(%q) = %q, %q, %v; not a fixed point", got, again, w2, err)
		}
		if !strings.EqualFold(got, strings.TrimSpace(s)) {
			t.Fatalf("EVMAddress(%q) = %q changed more than case", s, got)
		}
	})
}

func FuzzIBAN(f *testing.F) {
	for _, s := range []string{"GB82 WEST 1234 5698 7654 32", "DE89 3704 0044 0532 0130 00", "GB82 WEST 1234 5698 7654 33", "XX", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := IBAN(s)
		if !settle(t, got, err) {
			return
		}
		if ibanLengths[got[:2]] != len(got) || ibanMod97(got) != 1 {
			t.Fatalf("IBAN(%q) = %q breaks the length or mod-97 rule", s, got)
		}
		if again, err := IBAN(IBANGroups(got)); err != nil || again != got {
			t.Fatalf("IBAN(%q) = %q, %v; not a fixed point", IBANGroups(got), again, err)
		}
	})
}

func FuzzABA(f *testing.F) {
	for _, s := range []string{"021000021", "011000015", "123456789", "", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ABA(s)
		if !settle(t, got, err) {
			return
		}
		if again, err := ABA(got); err != nil || again != got {
			t.Fatalf("ABA(%q) = %q, %v; not a fixed point", got, again, err)
		}
	})
}

func FuzzEmail(f *testing.F) {
	for _, s := range []string{"fulano@example.com", "A@B.CO", "a@b@c", "@", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Email(s)
		if !settle(t, got, err) {
			return
		}
		if strings.Count(got, "@") != 1 || len(got) > maxEmail {
			t.Fatalf("Email(%q) = %q", s, got)
		}
		if again, err := Email(got); err != nil || again != got {
			t.Fatalf("Email(%q) = %q, %v; not a fixed point", got, again, err)
		}
	})
}

func FuzzDateCountry(f *testing.F) {
	for _, s := range []string{"1990-07-25", "2023-02-29", "BRA", "BR", "", "zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := Date(s); err == nil {
			if again, err := Date(d.Format("2006-01-02")); err != nil || !again.Equal(d) {
				t.Fatalf("Date(%q) = %v, %v; not a fixed point", s, again, err)
			}
		}
		if c, err := CountryAlpha3(s); settle(t, c, err) {
			if len(c) != 3 {
				t.Fatalf("CountryAlpha3(%q) = %q", s, c)
			}
		}
		if c, err := CountryAlpha2(s); settle(t, c, err) {
			if len(c) != 2 {
				t.Fatalf("CountryAlpha2(%q) = %q", s, c)
			}
		}
		if d, err := Digits(s, 1, 20); settle(t, d, err) && !IsDigits(d) {
			t.Fatalf("Digits(%q) = %q", s, d)
		}
	})
}

// settle checks the shape of a validator result and reports whether the
// value was accepted.
func settle(t *testing.T, got string, err error) bool {
	t.Helper()
	if err != nil {
		if got != "" {
			t.Fatalf("value %q returned alongside error %v", got, err)
		}
		if err.Error() == "" || !utf8.ValidString(err.Error()) {
			t.Fatalf("unusable error message %q", err.Error())
		}
		return false
	}
	return true
}
