package batch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// BenchmarkBatchThroughput pays batches of 50 PIX payouts against the
// sandbox over loopback HTTP (check, price and run, signed requests) and
// reports rows paid per second.
func BenchmarkBatchThroughput(b *testing.B) {
	run, err := sandbox.Start(sandbox.Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer run.Close()
	c := operatorClient(b, run.Creds)
	ctx := context.Background()
	p, err := c.ListBRLAccounts(ctx, api.BeneficiaryFilter{})
	if err != nil || len(p.Items) == 0 {
		b.Fatal("no beneficiary", err)
	}
	const rows = 50
	b.ResetTimer()
	for i := range b.N {
		var sb strings.Builder
		sb.WriteString("beneficiary,amount,currency,reference\n")
		for r := range rows {
			fmt.Fprintf(&sb, "%s,1.00,BRL,bench %d-%d\n", p.Items[0].ID, i, r)
		}
		f, err := batch.Parse([]byte(sb.String()), "bench")
		if err != nil {
			b.Fatal(err)
		}
		plan, err := batch.Check(ctx, c, f, batch.Options{Concurrency: 8})
		if err != nil || !plan.Ready() {
			b.Fatalf("check: %v %v", err, plan.Problems)
		}
		prog, err := batch.Run(ctx, c, plan, batch.Options{Concurrency: 8}, nil)
		if err != nil || prog.Created != rows {
			b.Fatalf("run: %+v %v", prog, err)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// operatorClient is the demo operator's client of the sandbox whose
// credentials are creds, at the address they name.
func operatorClient(tb testing.TB, creds sandbox.Credentials) *api.Client {
	tb.Helper()
	acc, ok := creds.Access("operator")
	if !ok {
		tb.Fatal("no operator in the sandbox credentials")
	}
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := api.New(creds.BaseURL, auth, api.WithTimeout(10*time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
