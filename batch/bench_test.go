package batch

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkValidateRows measures local checking (parse, amounts,
// validators, beneficiary resolution), the pix-info lookups aside: the
// target is at least 10,000 rows per second.
func BenchmarkValidateRows(b *testing.B) {
	validateRows(b, "beneficiary,chain,amount,currency,source,reference", func(sb *strings.Builder, i int) {
		switch i % 4 {
		case 0:
			fmt.Fprintf(sb, "Maria Silva,,%d.%02d,BRL,,invoice %d\n", i+1, i%100, i)
		case 1:
			fmt.Fprintf(sb, "529.982.247-25,,%d,BRL,BRLA,\n", i+1)
		case 2:
			fmt.Fprintf(sb, "0x52908400098527886E0F7030069857D2E4169EE7,POLYGON,%d.5,USDC,USDC,\n", i)
		default:
			fmt.Fprintf(sb, "pedro@example.com,,%d,BRL,,\n", i+1)
		}
	})
}

// BenchmarkValidateMixedRows is BenchmarkValidateRows over a file that
// pays every kind of beneficiary: BRL, tokens, USD by ACH and WIRE, EUR,
// ARS and COP.
func BenchmarkValidateMixedRows(b *testing.B) {
	validateRows(b, "beneficiary,chain,amount,currency,rail,source,reference", func(sb *strings.Builder, i int) {
		switch i % 8 {
		case 0:
			fmt.Fprintf(sb, "Maria Silva,,%d.%02d,BRL,,,invoice %d\n", i+1, i%100, i)
		case 1:
			fmt.Fprintf(sb, "0x52908400098527886E0F7030069857D2E4169EE7,POLYGON,%d.5,USDC,,USDC,\n", i)
		case 2:
			fmt.Fprintf(sb, "Acme Inc,,%d.10,USD,,USDC,inv %d\n", i+1, i)
		case 3:
			fmt.Fprintf(sb, "Acme Inc,,%d,USD,WIRE,USDC,inv %d\n", i+1, i)
		case 4:
			fmt.Fprintf(sb, "Zeta GmbH,,%d.99,EUR,,EURC,Rechnung %d\n", i+1, i)
		case 5:
			fmt.Fprintf(sb, "Zeta SA,,%d,ARS,,,\n", i+1)
		case 6:
			fmt.Fprintf(sb, "Andes SAS,,%d,COP,,,\n", i+1)
		default:
			fmt.Fprintf(sb, "Pedro Lima,,%d,USD,ACH,USDC,\n", i+1)
		}
	})
}

// validateRows writes a file of 10,000 rows under header, row i by row,
// then parses and resolves it b.N times against the fake's beneficiaries,
// failing on any row with a problem, and reports the rate in rows per
// second.
func validateRows(b *testing.B, header string, row func(sb *strings.Builder, i int)) {
	b.Helper()
	const n = 10000
	var sb strings.Builder
	sb.WriteString(header + "\n")
	for i := range n {
		row(&sb, i)
	}
	dir := NewDirectory(newFake(newClock()).registered())
	data := []byte(sb.String())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f, err := Parse(data, "payouts")
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range Resolve(f, dir) {
			if p.Problem != "" {
				b.Fatalf("row %d: %s", p.N, p.Problem)
			}
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}
