package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/export/exporttest"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/validate"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The exit codes README's command reference promises.
const (
	exitRuntime = 1
	exitUsage   = 2
)

func TestMain(m *testing.M) {
	// fang wraps help at the terminal's width, read once: fix it so that
	// the golden help pages do not depend on where the tests run.
	os.Setenv("__FANG_TEST_WIDTH", "80")
	os.Exit(m.Run())
}

// scriptSandbox serves a fresh sandbox over real HTTP for the scripting
// commands and writes its credentials file, as "tesouro sandbox" does.
func scriptSandbox(t *testing.T, cfg sandbox.Config) string {
	t.Helper()
	s, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); s.Close() })
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := s.Credentials(srv.URL).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// tesouro runs the command line in process with its own config and state
// directories, and returns the exit code and both outputs.
func tesouro(t *testing.T, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	root := t.TempDir()
	return tesouroEnv(t, map[string]string{"TESOURO_CONFIG_DIR": filepath.Join(root, "config"), "XDG_STATE_HOME": filepath.Join(root, "state"), "HOME": root}, stdin, args...)
}

func tesouroEnv(t *testing.T, env map[string]string, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errOut bytes.Buffer
	code := run(testFactory(stdin, &out, &errOut, func(k string) string { return env[k] }), args)
	return code, out.String(), errOut.String()
}

// testFactory is main's factory on these streams and this environment.
func testFactory(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *cli.Factory {
	f := cli.New(cli.IOStreams{Stdin: stdin, Stdout: stdout, Stderr: stderr}, getenv, cli.Build{})
	f.Screens = screensOf(f)
	return f
}

func mustTesouro(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := tesouro(t, nil, args...)
	if code != 0 {
		t.Fatalf("tesouro %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

func TestHelpGolden(t *testing.T) {
	for name, args := range map[string][]string{
		"help-root":           {"--help"},
		"help-tickets-export": {"help", "tickets", "export"},
		"help-ticket-create":  {"ticket", "create", "--help"},
		"help-api":            {"api", "--help"},
	} {
		out := mustTesouro(t, args...)
		if strings.Contains(out, "\x1b[") {
			t.Errorf("%s: help has escape codes without a terminal", name)
		}
		golden(t, name, out)
	}
}

func TestJSONGolden(t *testing.T) {
	// The seed fixes ids and names; times and ports vary, so they stay out.
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	golden(t, "json-accounts", mustTesouro(t, "--credentials", creds, "accounts", "--json"))
	golden(t, "jq-webhooks-list", mustTesouro(t, "--credentials", creds, "webhooks", "list", "--jq", ".[] | {id, subscriptions}"))
	golden(t, "jq-balances", mustTesouro(t, "--credentials", creds, "balances", "--jq", "keys"))
	golden(t, "csv-accounts", mustTesouro(t, "--credentials", creds, "accounts", "--format", "csv"))
}

func TestEveryScriptingCommandPrintsValidJSON(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(mustTesouro(t, "--credentials", creds, "tickets", "list", "--limit", "3", "--json")), &list); err != nil || len(list) != 3 {
		t.Fatalf("tickets list --limit 3: %v, %d tickets", err, len(list))
	}
	for _, args := range [][]string{
		{"balances"}, {"accounts"}, {"tickets", "get", list[0].ID}, {"quote", "--from", "BRL", "--to", "USDC", "--amount", "1000"},
		{"beneficiaries", "list"}, {"webhooks", "list"}, {"webhooks", "attempts", "--limit", "20"},
		{"--as", "approver1", "approvals", "list"}, {"api", "GET", "/v2/account/access-info"},
	} {
		if args[0] != "api" {
			args = append(args, "--json")
		}
		args = append([]string{"--credentials", creds}, args...)
		out := mustTesouro(t, args...)
		if !json.Valid([]byte(out)) {
			t.Errorf("tesouro %s --json: not JSON:\n%s", strings.Join(args, " "), out)
		}
	}
	if out := mustTesouro(t, "--credentials", creds, "tickets", "get", list[0].ID, "--jq", ".id"); strings.TrimSpace(out) != list[0].ID {
		t.Errorf("--jq .id printed %q", out)
	}
}

func TestListsFetchEveryPage(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	count := func(args ...string) int {
		t.Helper()
		var n int
		out := mustTesouro(t, append([]string{"--credentials", creds}, args...)...)
		if err := json.Unmarshal([]byte(out), &n); err != nil {
			t.Fatalf("%v: %q", args, out)
		}
		return n
	}
	// The sandbox's own count, page by page through the raw endpoint.
	raw := count("api", "GET", "/v2/account/tickets", "--paginate", "--jq", ".tickets | length")
	firstPage := count("api", "GET", "/v2/account/tickets", "--jq", ".tickets | length")
	listed := count("tickets", "list", "--jq", "length")
	if firstPage >= raw {
		t.Fatalf("the seed fits in one page (%d of %d): the test proves nothing", firstPage, raw)
	}
	if listed != raw {
		t.Errorf("tickets list returned %d tickets, the service holds %d", listed, raw)
	}
	if n := count("tickets", "list", "--limit", "7", "--jq", "length"); n != 7 {
		t.Errorf("--limit 7 returned %d", n)
	}
	out := mustTesouro(t, "--credentials", creds, "tickets", "export", "-o", "-")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != raw {
		t.Errorf("export wrote %d rows, the service holds %d tickets", len(recs)-1, raw)
	}
}

func TestExportColumnsStayPutAcrossExportsWithDifferentFees(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	dir := t.TempDir()
	read := func(args ...string) [][]string {
		t.Helper()
		path := filepath.Join(dir, strings.Join(args, "_")+".csv")
		mustTesouro(t, append([]string{"--credentials", creds, "tickets", "export", "-o", path}, args...)...)
		return exporttest.Read(t, path)
	}
	// Every ticket lists the five fees in its input currency, zero
	// included (service.md §8.2); only tickets to a chain are charged gas.
	a := read("--input-currency", "BRL", "--output-currency", "BRLA")
	b := read("--output-method", "POLYGON")
	if len(a) < 2 || len(b) < 2 {
		t.Fatalf("exports too small to compare: %d and %d rows", len(a)-1, len(b)-1)
	}
	if !slices.Equal(a[0], b[0]) || !slices.Equal(a[0], export.TicketColumns) {
		t.Fatalf("headers differ:\n%v\n%v", a[0], b[0])
	}
	charged := func(recs [][]string, col string) bool {
		i := slices.Index(recs[0], col)
		for _, r := range recs[1:] {
			if d, err := decimal.NewFromString(r[i]); err == nil && !d.IsZero() {
				return true
			}
		}
		return false
	}
	if charged(a, "fee_gas_input") || !charged(b, "fee_gas_input") {
		t.Errorf("gas fees: BRL→BRLA export charges them %v, POLYGON export %v; want false, true", charged(a, "fee_gas_input"), charged(b, "fee_gas_input"))
	}
	acct := slices.Index(a[0], "account_name")
	if a[1][acct] != "Acme Treasury Ltda" {
		t.Errorf("account_name = %q", a[1][acct])
	}
}

func TestExportNamesTheFileAfterTheAccountInExportDir(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	root := t.TempDir()
	cfgDir, exportDir := filepath.Join(root, "config"), filepath.Join(root, "exports")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte("export_dir = \""+exportDir+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TESOURO_CONFIG_DIR": cfgDir, "XDG_STATE_HOME": filepath.Join(root, "state"), "HOME": root}
	if code, _, errOut := tesouroEnv(t, env, nil, "--credentials", creds, "--sub-account", "Acme Sul", "tickets", "export", "--limit", "1"); code != 2 || !strings.Contains(errOut, "unknown flag") {
		t.Fatalf("export takes no --limit (it exports everything): exit %d %s", code, errOut)
	}
	if code, _, errOut := tesouroEnv(t, env, nil, "--credentials", creds, "--sub-account", "Acme Sul", "tickets", "export"); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(exportDir, "tesouro-tickets-acme-treasury-ltda-acme-sul-*.csv"))
	if len(files) != 1 {
		entries, _ := os.ReadDir(exportDir)
		t.Fatalf("export file not found in %s: %v", exportDir, entries)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond until it holds or d passes.
// sandboxStartWait is how long a test waits for a sandbox it started in
// this process: seconds under -race on a 2-core machine running every
// other package's tests beside it.
const sandboxStartWait = 45 * time.Second

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A token the service spells in mixed case (USDCe) can be typed in any
// case: the quote, the ticket and the list filter send the service's
// spelling. They used to send USDCE, which the service does not know.
func TestMixedCaseTokenIsSentInTheServiceSpelling(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 8})
	for _, to := range []string{"USDCe", "usdce", "USDCE"} {
		var q struct{ OutputCurrency string }
		out := mustTesouro(t, "--credentials", creds, "quote", "--from", "brla", "--to", to, "--amount", "10", "--json")
		if err := json.Unmarshal([]byte(out), &q); err != nil || q.OutputCurrency != "USDCe" {
			t.Errorf("quote --to %s: %s (%v), want outputCurrency USDCe", to, out, err)
		}
	}
	var tk struct{ ID string }
	created := mustTesouro(t, "--credentials", creds, "ticket", "create", "--from", "BRLA", "--to", "usdce", "--amount", "10", "--external-id", "usdce-1", "--yes", "--json")
	if err := json.Unmarshal([]byte(created), &tk); err != nil || tk.ID == "" {
		t.Fatalf("ticket create --to usdce: %s (%v)", created, err)
	}
	var listed []struct{ ID string }
	out := mustTesouro(t, "--credentials", creds, "tickets", "list", "--output-currency", "usdce", "--json")
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed) != 1 || listed[0].ID != tk.ID {
		t.Errorf("tickets list --output-currency usdce: %s (%v), want the one ticket %s", out, err, tk.ID)
	}
}

// beneficiaries list covers every kind the service registers, EUR (SEPA)
// and ARS (CVU) included, with the IBAN or CVU as the target.
func TestBeneficiariesListCoversEURAndARS(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	var rows []struct{ Kind, Target, Detail string }
	for _, kind := range []string{"eur", "ars"} {
		out := mustTesouro(t, "--credentials", creds, "beneficiaries", "list", "--kind", kind, "--json")
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
			t.Fatalf("beneficiaries list --kind %s: %s (%v), want the demo's %s beneficiaries", kind, out, err, kind)
		}
		for _, r := range rows {
			if r.Kind != kind || r.Target == "" {
				t.Errorf("--kind %s listed %+v", kind, r)
			}
			check := validate.IBAN
			if kind == "ars" {
				check = validate.CVU
			}
			if _, err := check(r.Target); err != nil {
				t.Errorf("--kind %s target %q: %v", kind, r.Target, err)
			}
		}
	}
	all := mustTesouro(t, "--credentials", creds, "beneficiaries", "list", "--jq", "[.[].kind] | unique | join(\",\")")
	if got := strings.TrimSpace(all); got != "ars,brl,cop,eur,usd,wallet" {
		t.Errorf("every kind listed: %s", got)
	}
}
