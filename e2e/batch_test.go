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
	"github.com/tesouro-treasury/tesouro/sandbox"
)

func TestE2EBatchScreenPaysAFileOnce(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	path, alias := batchFile(t, c, "pay.csv", "beneficiary;amount;currency;external_id", 3, func(alias string, i int) string {
		return fmt.Sprintf("%s;%d,50;BRL;e2e-batch-%d", alias, 20+i, i)
	})

	tm := openAs(t, creds, "operator")
	tm.Send("0")
	tm.Send("Tab")
	tm.WaitFor("Batch payouts", 5*time.Second)
	tm.Send("o")
	tm.Type(path)
	tm.Send("Enter")
	tm.WaitFor("Rows: 3 to pay, 0 already created, 0 parked earlier, 0 invalid, of 3", 15*time.Second)
	screen := tm.WaitFor("They receive: 64.50 BRL", 2*time.Second)
	if !strings.Contains(screen, "SANDBOX") || !strings.Contains(screen, alias) {
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

// TestE2EAccountSwitchStopsABatchRun: switching account while a batch pays
// asks first, saying what becomes of the run; the run stops after the rows
// in flight, and its outcome is told against the account it paid from. The
// old account's results file and journal say what was created, and nothing
// else was.
func TestE2EAccountSwitchStopsABatchRun(t *testing.T) {
	// Every request takes a while: the run is still paying when the switch
	// comes.
	sb, creds := startSandboxWith(t, sandbox.Config{Seed: 1, Faults: "latency=150ms"})
	c := clientAs(t, sb, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const rows = 40
	path, _ := batchFile(t, c, "friday.csv", "beneficiary;amount;currency", rows, func(alias string, i int) string {
		return fmt.Sprintf("%s;%d,10;BRL", alias, 10+i)
	})

	tm := openAs(t, creds, "operator")
	tm.Send(":")
	tm.Type("batch")
	tm.Send("Enter")
	tm.WaitFor("Batch payouts", 5*time.Second)
	tm.Send("o")
	tm.Type(path)
	tm.Send("Enter")
	tm.WaitFor(fmt.Sprintf("Rows: %d to pay", rows), 60*time.Second)
	tm.Send("c")
	tm.WaitFor("Pay this batch?", 5*time.Second)
	tm.Send("y")
	tm.WaitUntil("a few rows paid", 60*time.Second, func(s string) bool {
		return strings.Contains(s, "created 2 ") || strings.Contains(s, "created 3 ") || strings.Contains(s, "created 4 ")
	})

	tm.Send(":")
	tm.Type("sub Acme Payments")
	tm.Send("Enter")
	tm.WaitFor("Switch to Acme Payments?", 10*time.Second)
	tm.WaitFor("Batch: the batch stops", 2*time.Second)
	tm.Send("y")
	tm.WaitFor("Now operating Acme Payments", 10*time.Second)
	done := tm.WaitFor("(before the switch): batch friday:", 60*time.Second)
	if strings.Contains(done, "Batch payouts") && strings.Contains(done, "Paying…") {
		t.Fatalf("the old account's run is still shown after the switch:\n%s", done)
	}

	// What the old account's run created: the results file and the
	// journal agree with the service, and the rest was not sent.
	res, err := os.ReadFile(strings.TrimSuffix(path, ".csv") + ".results.csv")
	if err != nil {
		t.Fatal(err)
	}
	created := map[string]bool{}
	notSent := 0
	for _, line := range strings.Split(string(res), "\n")[1:] {
		f := strings.Split(line, ",")
		switch {
		case len(f) < 7:
		case f[5] == "created":
			created[f[6]] = true
		case f[5] == "not-sent":
			notSent++
		}
	}
	if len(created) == 0 || len(created) == rows || len(created)+notSent != rows {
		t.Fatalf("results: %d created, %d not sent of %d:\n%s", len(created), notSent, rows, res)
	}
	j, err := os.ReadFile(filepath.Join(tm.State, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	journaled := 0
	for _, line := range strings.Split(strings.TrimSpace(string(j)), "\n") {
		if strings.Contains(line, `"batch-payout"`) && strings.Contains(line, `"outcome":"created"`) && strings.Contains(line, `"account":"main"`) {
			journaled++
		}
	}
	if journaled != len(created) {
		t.Errorf("the journal has %d creations on the main account, the results %d:\n%s", journaled, len(created), j)
	}
	n := 0
	for tk, err := range api.All(ctx, func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
		return c.ListTickets(ctx, api.TicketFilter{Cursor: cursor})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(tk.ExternalID, "friday-") {
			n++
			if !created[tk.ID.String()] {
				t.Errorf("ticket %s (%s) is not in the results", tk.ID, tk.ExternalID)
			}
		}
	}
	if n != len(created) {
		t.Errorf("%d tickets of the batch on the service, %d in the results", n, len(created))
	}
}

// batchFile writes a batch file called name with header and n rows made by
// line, each paying the first demo BRL beneficiary (by its alias), and
// returns its path and that alias.
func batchFile(t *testing.T, c *api.Client, name, header string, n int, line func(alias string, i int) string) (path, alias string) {
	t.Helper()
	p, err := c.ListBRLAccounts(context.Background(), api.BeneficiaryFilter{})
	if err != nil || len(p.Items) == 0 {
		t.Fatal("no demo beneficiary", err)
	}
	alias = p.Items[0].Alias
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range n {
		b.WriteString(line(alias, i) + "\n")
	}
	path = filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, alias
}
