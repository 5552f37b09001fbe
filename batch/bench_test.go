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
	svc := newFake(newClock())
	dir := NewDirectory(svc.registered())
	var sb strings.Builder
	sb.WriteString("beneficiary,chain,amount,currency,source,reference\n")
	const n = 10000
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&sb, "Maria Silva,,%d.%02d,BRL,,invoice %d\n", i+1, i%100, i)
		case 1:
			fmt.Fprintf(&sb, "529.982.247-25,,%d,BRL,BRLA,\n", i+1)
		case 2:
			fmt.Fprintf(&sb, "0x52908400098527886E0F7030069857D2E4169EE7,POLYGON,%d.5,USDC,USDC,\n", i)
		default:
			fmt.Fprintf(&sb, "pedro@example.com,,%d,BRL,,\n", i+1)
		}
	}
	data := []byte(sb.String())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f, err := Parse(data)
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
