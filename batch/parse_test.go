package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseReadsBothSeparatorsAndDerivesStableIDs(t *testing.T) {
	comma := "beneficiary,amount,currency,reference\nMaria Silva,150.00,BRL,inv 1\n\"Souza, João\",2,BRL,\n"
	f, err := Parse([]byte(comma), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	if f.Separator != ',' || len(f.Rows) != 2 || f.Rows[1].Beneficiary != "Souza, João" || f.Rows[0].Source != "BRLA" {
		t.Fatalf("rows %+v", f.Rows)
	}
	if f.Rows[0].Problem != "" || f.Rows[0].Amount.String() != "150" {
		t.Errorf("row 1: %+v", f.Rows[0])
	}
	again, _ := Parse([]byte(comma), "payouts")
	if f.Rows[1].ExternalID != again.Rows[1].ExternalID || !f.Rows[1].Derived || f.Rows[0].ExternalID == f.Rows[1].ExternalID {
		t.Errorf("derived ids not stable and distinct: %q %q %q", f.Rows[0].ExternalID, f.Rows[1].ExternalID, again.Rows[1].ExternalID)
	}
	if other, _ := Parse([]byte(comma), "payouts-december"); other.Rows[0].ExternalID == f.Rows[0].ExternalID {
		t.Error("another batch derives the same external id for row 1")
	}

	semi, err := Parse([]byte("\ufeffBeneficiary;Amount;Currency\nMaria Silva;1234,56;brl\n"), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	if semi.Separator != ';' || semi.Rows[0].Problem != "" || semi.Rows[0].Amount.String() != "1234.56" || semi.Rows[0].Currency != "BRL" {
		t.Errorf("semicolon file with a BOM and decimal comma: %+v", semi.Rows[0])
	}
}

// TestRowsKeepTheirIdentity: a derived external id belongs to the row's own
// content (and its ordinal among identical rows), so appending, removing,
// reordering or editing rows changes no other row's id.
func TestRowsKeepTheirIdentity(t *testing.T) {
	const head = "beneficiary,amount,currency,reference\n"
	ids := func(body string) map[string]string {
		t.Helper()
		f, err := Parse([]byte(head+body), "payouts")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, r := range f.Rows {
			key := r.Beneficiary + "/" + r.AmountText + "/" + r.Reference
			for out[key] != "" {
				key += "'"
			}
			out[key] = r.ExternalID
		}
		return out
	}
	first := ids("Maria,10,BRL,a\nAna,20,BRL,b\n")
	appended := ids("Maria,10,BRL,a\nAna,20,BRL,b\nJoão,30,BRL,c\n")
	reordered := ids("Ana,20,BRL,b\nMaria,10,BRL,a\n")
	edited := ids("Maria,10,BRL,a\nAna,25,BRL,b\n")
	removed := ids("Ana,20,BRL,b\n")
	for _, k := range []string{"Maria/10/a", "Ana/20/b"} {
		if appended[k] != first[k] || reordered[k] != first[k] {
			t.Errorf("%s: id %q, then %q appended, %q reordered", k, first[k], appended[k], reordered[k])
		}
	}
	if edited["Maria/10/a"] != first["Maria/10/a"] || edited["Ana/25/b"] == first["Ana/20/b"] || removed["Ana/20/b"] != first["Ana/20/b"] {
		t.Errorf("an edit or a removal moved another row's id: %v %v %v", first, edited, removed)
	}
	// "10" and "10.00" are the same payout; two identical rows are two.
	twice := ids("Maria,10,BRL,a\nMaria,10.00,BRL,a\n")
	if twice["Maria/10/a"] != first["Maria/10/a"] || twice["Maria/10.00/a"] == twice["Maria/10/a"] || !strings.HasPrefix(twice["Maria/10.00/a"], "payouts-") || !strings.HasSuffix(twice["Maria/10.00/a"], "-2") {
		t.Errorf("identical rows: %v", twice)
	}
	if len(first["Maria/10/a"]) > 100 {
		t.Errorf("id %q is longer than an external id may be", first["Maria/10/a"])
	}
}

func TestParseRefusesWithAClearReason(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"UTF-16", "\xff\xfeb\x00", "UTF-16: save it as UTF-8"},
		{"Latin-1", "beneficiary,amount,currency\nJo\xe3o,1,BRL\n", "line 2 is not UTF-8"},
		{"empty", " \n", "empty"},
		{"missing columns", "beneficiary,valor\nMaria,1\n", `unknown column "valor"`},
		{"missing required", "beneficiary,amount\nMaria,1\n", "missing column(s) currency"},
		{"both separators", "beneficiary,amount;currency\n", `both "," and ";"`},
		{"tab", "beneficiary\tamount\tcurrency\n", "tab"},
		{"no rows", "beneficiary,amount,currency\n\n", "no payout rows"},
		{"column twice", "beneficiary,amount,currency,Amount\n", `"amount" appears twice`},
	} {
		_, err := Parse([]byte(tc.data), "payouts")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestParseReportsEveryBadRow(t *testing.T) {
	data := "beneficiary,chain,amount,currency,source,external_id\n" +
		"Maria,,\"12.34,56\",BRL,,\n" + // uneven digit groups
		"Maria,,1.234,BRL,,\n" + // three decimals
		"Maria,,-5,BRL,,\n" +
		"Maria,,1e3,BRL,,\n" +
		",,5,BRL,,\n" +
		"Maria,,5,XYZ,,\n" +
		"Maria,,5,BRL,BRL,\n" + // BRL is no balance
		"0xabc,SOLANA,5,USDC,USDC,\n" +
		"Maria,,5,BRL,,erp-1\n" +
		"Ana,,6,BRL,,erp-1\n" + // duplicate external id
		"Ana,,7,BRL\n" + // short row
		"Ana,,8,BRL,,erp-2\n"
	f, err := Parse([]byte(data), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"groups its digits unevenly",
		"if 1.234 means thousands, type 1234",
		"must not carry a sign",
		"exponent notation",
		"beneficiary is empty",
		"currency XYZ is not one",
		"source BRL is not a balance",
		"chain SOLANA is not a chain",
		"",
		`external_id "erp-1" is also on row 9`,
		"has 4 fields, the header has 6",
		"",
	}
	if len(f.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(f.Rows), len(want))
	}
	for i, w := range want {
		got := f.Rows[i].Problem
		if (w == "") != (got == "") || !strings.Contains(got, w) {
			t.Errorf("row %d (line %d): problem %q, want %q", i+1, f.Rows[i].Line, got, w)
		}
	}
	if f.Rows[0].Line != 2 || f.Rows[11].Line != 13 {
		t.Errorf("lines %d, %d", f.Rows[0].Line, f.Rows[11].Line)
	}
	if f.Invalid() != 10 {
		t.Errorf("%d invalid rows, want 10", f.Invalid())
	}
}

func TestTemplateParses(t *testing.T) {
	f, err := Parse([]byte(Template()), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	if f.Invalid() != 0 {
		t.Errorf("the template has invalid rows: %+v", f.Rows)
	}
}

// TestParseRefusesHostileFiles: an unterminated quote, a line too long and a
// file too large are refused with a reason, never a panic.
func TestParseRefusesHostileFiles(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"unterminated quote", "beneficiary,amount,currency\n\"Maria,10,BRL\n", "line 2: extraneous or missing \" in quoted-field"},
		{"quote at the end", "beneficiary,amount,currency\nMaria,10,\"BRL", "line 2:"},
		{"a line too long", "beneficiary,amount,currency\nMaria," + strings.Repeat("1", MaxLineLength) + ",BRL\n", "line 2 is 4106 bytes long: a row holds at most 4096"},
		{"a file too large", "beneficiary,amount,currency\n" + strings.Repeat("Maria,10,BRL\n", MaxFileSize/13+1), "a batch file holds at most 8.0 MiB"},
	} {
		f, err := Parse([]byte(tc.data), "payouts")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want an error saying %q", tc.name, f, err, tc.want)
		}
	}
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, make([]byte, MaxFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "is larger than 8.0 MiB") {
		t.Errorf("ReadFile of a file too large: %v", err)
	}
}

// FuzzParse: any bytes are read into rows or refused with a reason, never a
// panic; every row read has an external id a ticket can carry, and ids are
// distinct within a file.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		Template(),
		"beneficiary;amount;currency\nMaria;1.234,56;BRL\n",
		"beneficiary,amount,currency\n\"Maria,10,BRL\n",
		"beneficiary,amount,currency,external_id\nA,1,BRL,x\nB,2,BRL,x\n",
		"\ufeffbeneficiary,amount,currency\n\"a\"\"b\",1,BRL\n",
		"beneficiary,amount,currency\n,,\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, "fuzz")
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a reason")
			}
			return
		}
		seen := map[string]bool{}
		for _, r := range file.Rows {
			if r.ExternalID == "" && r.Problem == "" {
				t.Fatalf("row %d has no external id and no problem", r.N)
			}
			if r.Problem == "" && (utf8.RuneCountInString(r.ExternalID) > 100 || seen[r.ExternalID]) {
				t.Fatalf("row %d: external id %q too long or repeated", r.N, r.ExternalID)
			}
			seen[r.ExternalID] = true
		}
	})
}

// An external id is at most 100 characters, as the payment core counts
// them: 100 accented letters (200 bytes) pass, 101 do not.
func TestExternalIDLengthIsInCharacters(t *testing.T) {
	head := "beneficiary,amount,currency,external_id\n"
	f, err := Parse([]byte(head+"Maria,5,BRL,"+strings.Repeat("é", 100)+"\nAna,6,BRL,"+strings.Repeat("é", 101)+"\n"), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Rows[0].Problem; p != "" {
		t.Errorf("100 characters refused: %s", p)
	}
	if p := f.Rows[1].Problem; !strings.Contains(p, "external_id is 101 characters long: at most 100") {
		t.Errorf("101 characters: %q", p)
	}
}
