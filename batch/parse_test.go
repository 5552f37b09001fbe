package batch

import (
	"strings"
	"testing"
)

func TestParseReadsBothSeparatorsAndDerivesStableIDs(t *testing.T) {
	comma := "beneficiary,amount,currency,reference\nMaria Silva,150.00,BRL,inv 1\n\"Souza, João\",2,BRL,\n"
	f, err := Parse([]byte(comma))
	if err != nil {
		t.Fatal(err)
	}
	if f.Separator != ',' || len(f.Rows) != 2 || f.Rows[1].Beneficiary != "Souza, João" || f.Rows[0].Source != "BRLA" {
		t.Fatalf("rows %+v", f.Rows)
	}
	if f.Rows[0].Problem != "" || f.Rows[0].Amount.String() != "150" {
		t.Errorf("row 1: %+v", f.Rows[0])
	}
	again, _ := Parse([]byte(comma))
	if f.Rows[1].ExternalID != again.Rows[1].ExternalID || !f.Rows[1].Derived || f.Rows[0].ExternalID == f.Rows[1].ExternalID {
		t.Errorf("derived ids not stable and distinct: %q %q %q", f.Rows[0].ExternalID, f.Rows[1].ExternalID, again.Rows[1].ExternalID)
	}
	other, _ := Parse([]byte(comma + "Ana,1,BRL,\n"))
	if other.Rows[0].ExternalID == f.Rows[0].ExternalID {
		t.Error("another file derives the same external id for row 1")
	}

	semi, err := Parse([]byte("\ufeffBeneficiary;Amount;Currency\nMaria Silva;1234,56;brl\n"))
	if err != nil {
		t.Fatal(err)
	}
	if semi.Separator != ';' || semi.Rows[0].Problem != "" || semi.Rows[0].Amount.String() != "1234.56" || semi.Rows[0].Currency != "BRL" {
		t.Errorf("semicolon file with a BOM and decimal comma: %+v", semi.Rows[0])
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
		_, err := Parse([]byte(tc.data))
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
	f, err := Parse([]byte(data))
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
	f, err := Parse([]byte(Template()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Invalid() != 0 {
		t.Errorf("the template has invalid rows: %+v", f.Rows)
	}
}
