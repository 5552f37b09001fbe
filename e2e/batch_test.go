package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
)

func TestE2EBatchScreenPaysAFileOnce(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := c.ListBRLAccounts(ctx, api.BeneficiaryFilter{})
	if err != nil || len(p.Items) == 0 {
		t.Fatal("no demo beneficiary", err)
	}
	var sbuf strings.Builder
	sbuf.WriteString("beneficiary;amount;currency;external_id\n")
	for i := range 3 {
		fmt.Fprintf(&sbuf, "%s;%d,50;BRL;e2e-batch-%d\n", p.Items[0].Alias, 20+i, i)
	}
	path := filepath.Join(t.TempDir(), "pay.csv")
	if err := os.WriteFile(path, []byte(sbuf.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	tm := openAs(t, creds, "operator")
	tm.Send("0")
	tm.Send("Tab")
	tm.WaitFor("Batch payouts", 5*time.Second)
	tm.Send("o")
	tm.Type(path)
	tm.Send("Enter")
	tm.WaitFor("Rows: 3 valid of 3", 15*time.Second)
	screen := tm.WaitFor("They receive: 64.50 BRL", 2*time.Second)
	if !strings.Contains(screen, "SANDBOX") || !strings.Contains(screen, p.Items[0].Alias) {
		t.Fatalf("review:\n%s", screen)
	}
	tm.Send("c")
	tm.WaitFor("Pay this batch?", 5*time.Second)
	tm.Send("y")
	tm.WaitFor("created 3", 30*time.Second)

	for i := range 3 {
		tk, found, err := c.FindTicketByExternalID(ctx, [16]byte{}, fmt.Sprintf("e2e-batch-%d", i))
		if err != nil || !found || tk.Quote.OutputAmount.String() != fmt.Sprintf("%d.5", 20+i) {
			t.Errorf("row %d: found %v, %v, %+v", i+1, found, err, tk)
		}
	}
	j, err := os.ReadFile(filepath.Join(tm.State, "journal.jsonl"))
	if err != nil || strings.Count(string(j), `"batch-payout"`) != 3 {
		t.Errorf("journal: %v\n%s", err, j)
	}
}
