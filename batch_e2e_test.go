package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// sandboxProcess runs the built binary's "tesouro sandbox" with extra flags
// and returns its credentials file.
func sandboxProcess(t *testing.T, flags ...string) string {
	t.Helper()
	bin := buildBinary(t)
	creds := filepath.Join(t.TempDir(), "creds.json")
	cmd := exec.Command(bin, append([]string{"sandbox", "--addr", "127.0.0.1:0", "--credentials-out", creds}, flags...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	waitFor(t, sandboxStartWait, "the sandbox to listen", func() bool { return strings.Contains(out.String(), "press Ctrl-C") })
	return creds
}

// demoClient is an api client of a demo access of a running sandbox, with
// patient retries: the tests count through the same faults.
func demoClient(t *testing.T, creds, name string) *api.Client {
	t.Helper()
	c, err := sandbox.ReadCredentials(creds)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := c.Access(name)
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := api.New(c.BaseURL, auth, api.WithTimeout(10*time.Second),
		api.WithRetryPolicy(api.RetryPolicy{MaxRetries: 10, BaseDelay: 20 * time.Millisecond, MaxDelay: 200 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// payoutFile writes a batch of n small PIX payouts to a registered
// beneficiary of the main account and returns its path and the batch's
// name.
func payoutFile(t *testing.T, c *api.Client, n int) (string, string) {
	t.Helper()
	var bene api.BRLAccount
	for b, err := range api.All(context.Background(), func(ctx context.Context, cursor string) (api.Page[api.BRLAccount], error) {
		return c.ListBRLAccounts(ctx, api.BeneficiaryFilter{Cursor: cursor})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		if b.PixKey != "" {
			bene = b
			break
		}
	}
	if bene.ID == uuid.Nil {
		t.Fatal("no demo PIX beneficiary")
	}
	var sb strings.Builder
	sb.WriteString("beneficiary;amount;currency;reference\n")
	for i := range n {
		fmt.Fprintf(&sb, "%s;%d,%02d;BRL;supplier %d\n", bene.ID, 1+i%3, i%100, i)
	}
	path := filepath.Join(t.TempDir(), "payouts.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := batch.Parse([]byte(sb.String()), batch.NameOf(path))
	if err != nil || f.Invalid() > 0 {
		t.Fatalf("the test file: %v %+v", err, f)
	}
	return path, f.Name
}

// ticketsOfBatch counts the tickets whose external id is of the batch
// called name, and the distinct external ids among them.
func ticketsOfBatch(t *testing.T, c *api.Client, name string) (tickets, distinct int) {
	t.Helper()
	prefix := batch.IDPrefix(name)
	for try := 0; ; try++ {
		seen := map[string]bool{}
		n := 0
		var err error
		for tk, e := range api.All(context.Background(), func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
			return c.ListTickets(ctx, api.TicketFilter{Cursor: cursor})
		}) {
			if err = e; err != nil {
				break
			}
			if strings.HasPrefix(tk.ExternalID, prefix) {
				n++
				seen[tk.ExternalID] = true
			}
		}
		if err == nil {
			return n, len(seen)
		}
		if try == 5 {
			t.Fatalf("count tickets: %v", err)
		}
	}
}

// batchRun runs the built binary's "batch run" and returns its exit code
// and outputs.
func batchRun(t *testing.T, stateDir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), append([]string{"batch", "run"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+stateDir, "XDG_STATE_HOME="+stateDir, "TESOURO_CONFIG_DIR="+filepath.Join(stateDir, "config"))
	var out, errOut syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errOut.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errOut.String()
	}
	t.Fatal(err)
	return -1, "", ""
}

func TestBatchOf200UnderLostAnswersMakes200Tickets(t *testing.T) {
	creds := sandboxProcess(t, "--faults", "dropAfterCommit=0.3,error500=0.1")
	c := demoClient(t, creds, "operator")
	file, hash := payoutFile(t, c, 200)
	state := t.TempDir()
	// Faults may make a run end with rows to retry (or fail its checks):
	// running the same file again is the documented remedy, and must never
	// pay a row twice.
	runs := 0
	for {
		runs++
		code, out, errOut := batchRun(t, state, "--credentials", creds, file, "--yes", "--concurrency", "8", "--json")
		if code == 0 {
			// The last run pays what is left; rows an earlier run paid
			// are reported as existing, never created again.
			var sum struct{ Created, Existing, Rows, Remaining int }
			if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Created+sum.Existing != 200 || sum.Remaining != 0 {
				t.Fatalf("summary %q: %v", out, err)
			}
			break
		}
		if runs == 6 {
			t.Fatalf("still failing after %d runs: exit %d\n%s", runs, code, tail(errOut, 2000))
		}
	}
	tickets, distinct := ticketsOfBatch(t, c, hash)
	t.Logf("200 rows under dropAfterCommit=0.3,error500=0.1: %d run(s), %d tickets, %d distinct", runs, tickets, distinct)
	if tickets != 200 || distinct != 200 {
		t.Fatalf("%d tickets for %d distinct rows, want 200 and 200", tickets, distinct)
	}
	// Every run appends its rows to the results file: no row is reported
	// created twice, and each row's last word is created or existing (a
	// run whose answer was lost for good reports the row failed; the next
	// run finds its ticket).
	f, err := os.Open(strings.TrimSuffix(file, ".csv") + ".results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil || len(records) < 201 {
		t.Fatalf("results file: %v, %d records", err, len(records))
	}
	created, last := map[string]int{}, map[string]string{}
	for _, r := range records[1:] {
		if r[5] == "created" {
			created[r[1]]++
		}
		last[r[1]] = r[5]
	}
	if len(last) != 200 {
		t.Errorf("results file: %d distinct rows, want 200", len(last))
	}
	for id, status := range last {
		if status != "created" && status != "existing" {
			t.Errorf("results file: row %s ends %q", id, status)
		}
		if created[id] > 1 {
			t.Errorf("results file: row %s reported created %d times", id, created[id])
		}
	}
	// The journal has a line per row of every run.
	j, err := os.ReadFile(filepath.Join(state, "tesouro", "journal.jsonl"))
	if err != nil || strings.Count(string(j), `"batch-payout"`) < 200 {
		t.Errorf("journal: %v, %d batch lines", err, strings.Count(string(j), `"batch-payout"`))
	}
}

func TestBatchKilledMidwayAndRunAgainMakesExactly200(t *testing.T) {
	creds := sandboxProcess(t, "--faults", "latency=25ms")
	c := demoClient(t, creds, "operator")
	file, hash := payoutFile(t, c, 200)
	state := t.TempDir()
	results := strings.TrimSuffix(file, ".csv") + ".results.csv"

	cmd := exec.Command(buildBinary(t), "batch", "run", "--credentials", creds, file, "--yes", "--concurrency", "4")
	cmd.Env = append(os.Environ(), "HOME="+state, "XDG_STATE_HOME="+state, "TESOURO_CONFIG_DIR="+filepath.Join(state, "config"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, "a quarter of the batch", func() bool {
		b, _ := os.ReadFile(results)
		return strings.Count(string(b), "\n") > 50
	})
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	before, _ := ticketsOfBatch(t, c, hash)
	if before == 0 || before >= 200 {
		t.Fatalf("%d tickets when killed: not mid-way", before)
	}

	code, out, errOut := batchRun(t, state, "--credentials", creds, file, "--yes", "--json")
	if code != 0 {
		t.Fatalf("second run: exit %d\n%s\n%s", code, out, tail(errOut, 2000))
	}
	tickets, distinct := ticketsOfBatch(t, c, hash)
	t.Logf("killed with %d tickets created; after the second run %d tickets, %d distinct", before, tickets, distinct)
	if tickets != 200 || distinct != 200 {
		t.Fatalf("%d tickets (%d distinct) after the re-run, want exactly 200", tickets, distinct)
	}
	b, _ := os.ReadFile(results)
	if got := strings.Count(string(b), ",existing,"); got < before {
		t.Errorf("the second run reported %d rows as existing, %d were created before the kill", got, before)
	}
}

func TestBatchAsRequesterParksOneOperationPerRow(t *testing.T) {
	creds := sandboxProcess(t)
	op := demoClient(t, creds, "operator")
	file, hash := payoutFile(t, op, 50)
	state := t.TempDir()
	for run := range 2 {
		code, out, errOut := batchRun(t, state, "--credentials", creds, "--as", "requester", file, "--yes", "--json")
		if code != 0 {
			t.Fatalf("run %d: exit %d\n%s\n%s", run, code, out, tail(errOut, 2000))
		}
		var sum struct{ Parked int }
		if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Parked != 50 {
			t.Fatalf("run %d: summary %s", run, out)
		}
	}
	// The approvers' inbox holds one operation per row, none twice.
	approver := demoClient(t, creds, "approver1")
	prefix := batch.IDPrefix(hash)
	seen := map[string]int{}
	for o, err := range api.All(context.Background(), approver.ListApproverOperations) {
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ ExternalID string }
		_ = json.Unmarshal(o.Payload, &p)
		if strings.HasPrefix(p.ExternalID, prefix) {
			seen[p.ExternalID]++
		}
	}
	total := 0
	for _, n := range seen {
		total += n
	}
	if len(seen) != 50 || total != 50 {
		t.Fatalf("%d operations for %d rows, want 50 for 50", total, len(seen))
	}
	if tickets, _ := ticketsOfBatch(t, op, hash); tickets != 0 {
		t.Errorf("%d tickets exist before any approval", tickets)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func TestBatchTemplateDryRunAndRefusals(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	if out := mustTesouro(t, "batch", "template"); !strings.HasPrefix(out, "beneficiary,chain,amount,currency,rail,source,reference,external_id\n") {
		t.Errorf("template: %q", out)
	}
	c := demoClient(t, creds, "operator")
	file, hash := payoutFile(t, c, 3)
	code, out, errOut := tesouro(t, nil, "--credentials", creds, "batch", "run", file, "--dry-run", "--json")
	if code != 0 || !strings.Contains(out, `"dryRun": true`) || !strings.Contains(errOut, "They receive: 6.03 BRL") || !strings.Contains(errOut, "Environment:  SANDBOX") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, out, errOut)
	}
	if n, _ := ticketsOfBatch(t, c, hash); n != 0 {
		t.Fatalf("a dry run created %d tickets", n)
	}
	if code, _, errOut := tesouro(t, nil, "--credentials", creds, "batch", "run", file); code != exitUsage || !strings.Contains(errOut, "pass --yes") {
		t.Errorf("no terminal, no --yes: exit %d %q", code, errOut)
	}
	if code, _, errOut := tesouro(t, nil, "--credentials", creds, "--readonly", "batch", "run", file, "--yes"); code != exitUsage || !strings.Contains(errOut, "read-only") {
		t.Errorf("read-only: exit %d %q", code, errOut)
	}

	// One bad row: nothing is sent, the row is named with its reason.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	data, _ := os.ReadFile(file)
	os.WriteFile(bad, append(data, []byte("Nobody Known;1,234;BRL;x\n")...), 0o600)
	code, _, errOut = tesouro(t, nil, "--credentials", creds, "batch", "run", bad, "--yes")
	if code != exitRuntime || !strings.Contains(errOut, "row 4 (line 5): INVALID: amount \"1,234\"") || !strings.Contains(errOut, "nothing was sent") {
		t.Fatalf("a bad row: exit %d\n%s", code, errOut)
	}
	if n, _ := ticketsOfBatch(t, c, "bad"); n != 0 {
		t.Fatalf("%d tickets created while a row was invalid", n)
	}
	// By choice, only the valid rows.
	if code, out, errOut := tesouro(t, nil, "--credentials", creds, "batch", "run", bad, "--yes", "--only-valid", "--json"); code != 0 || !strings.Contains(out, `"created": 3`) {
		t.Fatalf("--only-valid: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestAnEditedBatchPaysEachRowOnce: a batch run, then the same batch with a
// row appended, with its rows reordered, and with one row edited. Each run
// pays only what no earlier run paid and says so; the results file keeps
// every run's lines, invalid rows included; the journal has one creation
// per ticket.
func TestAnEditedBatchPaysEachRowOnce(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	c := demoClient(t, creds, "operator")
	root := t.TempDir()
	env := map[string]string{"TESOURO_CONFIG_DIR": filepath.Join(root, "config"), "XDG_STATE_HOME": filepath.Join(root, "state"), "HOME": root}
	bene := firstPixBeneficiary(t, c)
	file := filepath.Join(t.TempDir(), "suppliers.csv")
	row := func(amount, ref string) string { return fmt.Sprintf("%s;%s;BRL;%s\n", bene, amount, ref) }
	run := func(rows ...string) (sum struct{ Created, Existing, Invalid int }, errOut string) {
		t.Helper()
		body := "beneficiary;amount;currency;reference\n" + strings.Join(rows, "")
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := tesouroEnv(t, env, nil, "--credentials", creds, "batch", "run", file, "--yes", "--only-valid", "--json")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("summary %q: %v", out, err)
		}
		return sum, errOut
	}
	a, b, cc, d := row("1,10", "inv 1"), row("2,20", "inv 2"), row("3,30", "inv 3"), row("4,40", "inv 4")

	if sum, _ := run(a, b, cc); sum.Created != 3 || sum.Existing != 0 {
		t.Fatalf("first run: %+v", sum)
	}
	if sum, errOut := run(a, b, cc, d); sum.Created != 1 || sum.Existing != 3 || !strings.Contains(errOut, "row 1: already created by an earlier run: ticket ") {
		t.Fatalf("a row appended: %+v\n%s", sum, errOut)
	}
	if sum, errOut := run(d, cc, b, a); sum.Created != 0 || sum.Existing != 4 || !strings.Contains(errOut, "nothing to pay") {
		t.Fatalf("reordered: %+v\n%s", sum, errOut)
	}
	// Row b edited (2,20 → 2,25): a new payout; the others stay paid. A bad
	// row beside it is left out, and said so in the results.
	if sum, _ := run(a, row("2,25", "inv 2"), cc, d, "Nobody Known;5;BRL;x\n"); sum.Created != 1 || sum.Existing != 3 || sum.Invalid != 1 {
		t.Fatalf("one row edited: %+v", sum)
	}
	if tickets, distinct := ticketsOfBatch(t, c, "suppliers"); tickets != 5 || distinct != 5 {
		t.Fatalf("%d tickets (%d distinct ids), want 5: the four rows of the file and the edited row's first version", tickets, distinct)
	}

	res, err := os.ReadFile(strings.TrimSuffix(file, ".csv") + ".results.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(res)), "\n")
	if lines[0] != strings.Join(batch.ResultColumns, ",") || len(lines) != 1+3+4+4+5 {
		t.Fatalf("results: every run's lines under one header, want %d lines:\n%s", 1+3+4+4+5, res)
	}
	if n := strings.Count(string(res), ",existing,"); n != 3+4+3 {
		t.Errorf("%d lines say existing, want 10:\n%s", n, res)
	}
	if !strings.Contains(string(res), ",invalid,,,") || !strings.Contains(string(res), "Nobody Known") {
		t.Errorf("the invalid row is not in the results:\n%s", res)
	}
	entries, err := journal.ReadFile(filepath.Join(root, "state", "tesouro", journal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	created := map[string]int{}
	for _, e := range entries {
		if e.Action == "batch-payout" && e.Outcome == "created" {
			created[e.IDs["ticketId"]]++
			if e.IDs["batch"] != "suppliers" || e.Env != "sandbox" || e.Email == "" {
				t.Errorf("journal entry %+v", e)
			}
		}
	}
	if len(created) != 5 {
		t.Errorf("the journal has %d created tickets, want 5: %v", len(created), created)
	}
}

// firstPixBeneficiary is the id of a registered BRL beneficiary with a PIX key.
func firstPixBeneficiary(t *testing.T, c *api.Client) uuid.UUID {
	t.Helper()
	for b, err := range api.All(context.Background(), func(ctx context.Context, cursor string) (api.Page[api.BRLAccount], error) {
		return c.ListBRLAccounts(ctx, api.BeneficiaryFilter{Cursor: cursor})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		if b.PixKey != "" {
			return b.ID
		}
	}
	t.Fatal("no demo PIX beneficiary")
	return uuid.Nil
}
