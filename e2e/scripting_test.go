package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/export"
)

// scripts runs the built binary's scripting commands against one sandbox,
// with a throwaway home and no profile, as a cron job or an ERP would.
type scripts struct {
	t     *testing.T
	creds string
	env   []string
}

func newScripts(t *testing.T) *scripts {
	t.Helper()
	_, creds := startSandbox(t)
	home := t.TempDir()
	return &scripts{t: t, creds: creds, env: []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "HOME=" + home,
		"TESOURO_CONFIG_DIR=" + filepath.Join(home, "config"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state")}}
}

// exec runs `tesouro --credentials FILE args...` without a terminal and
// returns its exit code and outputs.
func (s *scripts) exec(args ...string) (int, string, string) {
	s.t.Helper()
	cmd := exec.Command(binary, append([]string{"--credentials", s.creds}, args...)...)
	cmd.Env = s.env
	cmd.Stdin = strings.NewReader("")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		<-done
		s.t.Fatalf("tesouro %s: no exit within 90s", strings.Join(args, " "))
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// must runs a command that has to succeed and returns its stdout.
func (s *scripts) must(args ...string) string {
	s.t.Helper()
	code, out, errOut := s.exec(args...)
	if code != 0 {
		s.t.Fatalf("tesouro %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// count runs a command whose --jq prints one number.
func (s *scripts) count(args ...string) int {
	s.t.Helper()
	out := strings.TrimSpace(s.must(args...))
	n, err := strconv.Atoi(out)
	if err != nil {
		s.t.Fatalf("tesouro %s printed %q, not a count", strings.Join(args, " "), out)
	}
	return n
}

// firstID is the id of the first item a list command prints as JSON.
func (s *scripts) firstID(args ...string) string {
	s.t.Helper()
	id := strings.TrimSpace(s.must(append(args, "--limit", "1", "--jq", ".[0].id")...))
	if id == "" || id == "null" {
		s.t.Fatalf("tesouro %s: nothing listed", strings.Join(args, " "))
	}
	return id
}

func TestE2EScriptingEveryCommandPrintsValidJSON(t *testing.T) {
	s := newScripts(t)
	ticket := s.firstID("tickets", "list")
	unpaid := s.firstID("tickets", "list", "--status", "UNPAID")
	pending := strings.TrimSpace(s.must("ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "25.00", "--external-id", "e2e-json-fund", "--yes", "--jq", ".id"))
	for _, args := range [][]string{
		{"balances"}, {"accounts"}, {"tickets", "list", "--limit", "30"}, {"tickets", "get", ticket},
		{"quote", "--from", "BRL", "--to", "USDC", "--amount", "1000"},
		{"ticket", "create", "--from", "BRLA", "--to", "USDC", "--amount", "10", "--external-id", "e2e-json-create", "--yes"},
		{"tickets", "cancel", unpaid, "--yes"}, {"sandbox", "fund", pending},
		{"beneficiaries", "list"}, {"webhooks", "list"}, {"webhooks", "attempts", "--limit", "40"},
		{"--as", "approver1", "approvals", "list"}, {"statement", "--limit", "60"},
	} {
		out := s.must(append(args, "--json")...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil || v == nil {
			t.Errorf("tesouro %s --json: not a JSON value (%v):\n%.300s", strings.Join(args, " "), err, out)
		}
		if l, ok := v.([]any); ok && len(l) == 0 && args[0] != "approvals" {
			t.Errorf("tesouro %s --json: an empty list from the seeded sandbox", strings.Join(args, " "))
		}
	}
	// Operations parked by the requester: show one.
	parked := strings.TrimSpace(s.must("--as", "requester", "ticket", "create", "--from", "BRLA", "--to", "USDC", "--amount", "12", "--external-id", "e2e-json-park", "--yes", "--jq", ".id"))
	if out := s.must("--as", "approver1", "approvals", "show", parked, "--json"); !json.Valid([]byte(out)) {
		t.Errorf("approvals show --json: not JSON:\n%.300s", out)
	}
}

func TestE2EScriptingListsPageToTheSandboxCount(t *testing.T) {
	s := newScripts(t)
	for _, tc := range []struct {
		path, key string
		list      []string
	}{
		{"/v2/account/tickets", "tickets", []string{"tickets", "list"}},
		{"/v2/account/statement", "logs", []string{"statement"}},
		{"/v2/notifications/webhooks/attempts", "attempts", []string{"webhooks", "attempts"}},
	} {
		// The seeded tickets move on while the test reads (a payment adds
		// ledger lines): the command's count must lie between the
		// sandbox's counts just before and just after it.
		total := func() int { return s.count("api", "GET", tc.path, "--paginate", "--jq", "."+tc.key+" | length") }
		first := s.count("api", "GET", tc.path, "--jq", "."+tc.key+" | length")
		lo := total()
		got := s.count(append(tc.list, "--jq", "length")...)
		recs, err := csv.NewReader(strings.NewReader(s.must(append(tc.list, "--format", "csv")...))).ReadAll()
		hi := total()
		if first >= lo {
			t.Errorf("%s: one page holds all %d items: paging is not exercised", tc.path, lo)
			continue
		}
		if got < lo || got > hi {
			t.Errorf("tesouro %s returned %d items, the sandbox held %d to %d (first page %d)", strings.Join(tc.list, " "), got, lo, hi, first)
		}
		if err != nil || len(recs)-1 < lo || len(recs)-1 > hi {
			t.Errorf("tesouro %s --format csv: %d rows (%v), the sandbox held %d to %d", strings.Join(tc.list, " "), len(recs)-1, err, lo, hi)
		}
		if n := s.count(append(tc.list, "--limit", strconv.Itoa(first+3), "--jq", "length")...); n != first+3 {
			t.Errorf("tesouro %s --limit %d returned %d", strings.Join(tc.list, " "), first+3, n)
		}
	}
}

func TestE2EScriptingCSVColumnsStayPut(t *testing.T) {
	s := newScripts(t)
	csvOf := func(args ...string) [][]string {
		t.Helper()
		recs, err := csv.NewReader(strings.NewReader(s.must(args...))).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("tesouro %s: %d records, %v", strings.Join(args, " "), len(recs), err)
		}
		return recs
	}
	// Every ticket lists its five fees in the input currency, zero included
	// (service.md §8.2): pegged BRL→BRLA tickets are charged no gas,
	// tickets paid out on a chain are.
	a := csvOf("tickets", "export", "-o", "-", "--input-currency", "BRL", "--output-currency", "BRLA")
	b := csvOf("tickets", "export", "-o", "-", "--output-method", "POLYGON")
	if !slices.Equal(a[0], b[0]) || !slices.Equal(a[0], export.TicketColumns) {
		t.Errorf("tickets export headers differ between exports with different fees:\n%v\n%v", a[0], b[0])
	}
	gas := slices.Index(a[0], "fee_gas_input")
	hasGas := func(recs [][]string) bool {
		return slices.ContainsFunc(recs[1:], func(r []string) bool {
			d, err := decimal.NewFromString(r[gas])
			return err == nil && !d.IsZero()
		})
	}
	if hasGas(a) || !hasGas(b) {
		t.Errorf("the two exports do not differ in fees (gas: %v, %v): the test proves nothing", hasGas(a), hasGas(b))
	}
	// The same for the list and the ledger: their columns do not follow the data.
	l1 := csvOf("tickets", "list", "--format", "csv", "--status", "PAID", "--limit", "5")
	l2 := csvOf("tickets", "list", "--format", "csv", "--output-method", "POLYGON", "--limit", "5")
	if !slices.Equal(l1[0], l2[0]) {
		t.Errorf("tickets list CSV headers differ:\n%v\n%v", l1[0], l2[0])
	}
	s1 := csvOf("statement", "--format", "csv", "--limit", "5")
	s2 := csvOf("statement", "--format", "csv", "--until", time.Now().Add(-30*24*time.Hour).Format(time.RFC3339), "--limit", "5")
	if !slices.Equal(s1[0], cli.StatementColumns) || !slices.Equal(s2[0], cli.StatementColumns) {
		t.Errorf("statement CSV headers: %v and %v, want %v", s1[0], s2[0], cli.StatementColumns)
	}
}

func TestE2EScriptingTicketsCancelYes(t *testing.T) {
	s := newScripts(t)
	id := strings.TrimSpace(s.must("ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "40.00", "--external-id", "e2e-cancel", "--yes", "--jq", ".id"))
	if st := strings.TrimSpace(s.must("tickets", "get", id, "--jq", ".status")); st != "UNPAID" {
		t.Fatalf("the new ticket is %s, not UNPAID", st)
	}
	code, _, errOut := s.exec("tickets", "cancel", id)
	if code != 2 || !strings.Contains(errOut, "--yes") {
		t.Fatalf("cancel without a terminal and without --yes: exit %d %q", code, errOut)
	}
	if st := strings.TrimSpace(s.must("tickets", "get", id, "--jq", ".status")); st != "UNPAID" {
		t.Fatalf("refused, yet the ticket is %s", st)
	}
	if st := strings.TrimSpace(s.must("tickets", "cancel", id, "--yes", "--jq", ".status")); st != "CANCELED" {
		t.Errorf("cancel --yes printed status %q", st)
	}
	if st := strings.TrimSpace(s.must("tickets", "get", id, "--jq", ".status")); st != "CANCELED" {
		t.Errorf("after cancel --yes the service says %s", st)
	}
	code, _, errOut = s.exec("tickets", "cancel", id, "--yes")
	if code != 1 || !strings.Contains(errOut, "only an UNPAID ticket") {
		t.Errorf("cancel of a CANCELED ticket: exit %d %q", code, errOut)
	}
}

func TestE2EScriptingStatementSumsToTheBalance(t *testing.T) {
	s := newScripts(t)
	balances := func() map[string]decimal.Decimal {
		var b map[string]decimal.Decimal
		if err := json.Unmarshal([]byte(s.must("balances", "--json")), &b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	statement := func(args ...string) []api.StatementLog {
		var l []api.StatementLog
		if err := json.Unmarshal([]byte(s.must(append([]string{"statement", "--json"}, args...)...)), &l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	// The seeded tickets move on in the background: read the ledger
	// between two equal readings of the balances.
	var logs []api.StatementLog
	var bal map[string]decimal.Decimal
	for try := 0; ; try++ {
		before := balances()
		logs = statement()
		bal = balances()
		if equalBalances(before, bal) {
			break
		}
		if try == 4 {
			t.Fatal("the balances never held still for a whole statement")
		}
	}
	raw := s.count("api", "GET", "/v2/account/statement", "--paginate", "--jq", ".logs | length")
	if len(logs) < raw || len(logs) < 100 {
		t.Fatalf("statement returned %d lines, the sandbox held %d", len(logs), raw)
	}
	// Every balance starts at zero in the ledger: the changes of a currency
	// add up to its balance, and its newest line left exactly that balance.
	sums, newest := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	for _, l := range logs {
		sums[l.Token] = sums[l.Token].Add(l.BalanceChange)
		if _, seen := newest[l.Token]; !seen {
			newest[l.Token] = l.FinalBalance
		}
	}
	for cur, b := range bal {
		if !sums[cur].Equal(b) || !newest[cur].Equal(b) {
			t.Errorf("%s: the statement adds up to %s, its newest line leaves %s, the balance is %s", cur, sums[cur], newest[cur], b)
		}
	}

	// Line by line, each balance is the one before it plus the change: no
	// line is missing between two pages.
	older := map[string]api.StatementLog{}
	for i := len(logs) - 1; i >= 0; i-- {
		l := logs[i]
		if prev, ok := older[l.Token]; ok && !prev.FinalBalance.Add(l.BalanceChange).Equal(l.FinalBalance) {
			t.Errorf("%s line %s: %s + %s is not %s: a line is missing before it", l.Token, l.ID, prev.FinalBalance, l.BalanceChange, l.FinalBalance)
		}
		older[l.Token] = l
	}

	// A debit now: the lines since then add up to the change of the balance.
	// The window starts on the next whole second (the service filters by
	// Unix seconds), after the lines the sandbox wrote when it started.
	since := time.Now().Truncate(time.Second).Add(time.Second).UTC()
	time.Sleep(time.Until(since))
	id := strings.TrimSpace(s.must("ticket", "create", "--from", "BRLA", "--to", "USDC", "--amount", "100.00", "--external-id", "e2e-statement", "--yes", "--jq", ".id"))
	window := statement("--since", since.Format(time.RFC3339))
	var change decimal.Decimal
	var newestLine, oldestLine *api.StatementLog
	found := false
	for i, l := range window {
		if l.Token != "BRLA" {
			continue
		}
		change = change.Add(l.BalanceChange)
		if newestLine == nil {
			newestLine = &window[i]
		}
		oldestLine = &window[i]
		found = found || l.TicketID == id && l.BalanceChange.Equal(decimal.RequireFromString("-100"))
	}
	if !found {
		t.Fatalf("no BRLA debit of 100 for ticket %s since %s: %+v", id, since, window)
	}
	start := oldestLine.FinalBalance.Sub(oldestLine.BalanceChange)
	if !start.Add(change).Equal(newestLine.FinalBalance) {
		t.Errorf("BRLA lines since %s add up to %s; the balance went from %s to %s", since, change, start, newestLine.FinalBalance)
	}
}

func equalBalances(a, b map[string]decimal.Decimal) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}
