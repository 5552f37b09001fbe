package sandbox

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// newStateFile makes a seeded state database at a fresh path and closes it.
func newStateFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := New(Config{Seed: 5, StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.seeded(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// tamper edits a closed state file as someone with sqlite3 could, CHECK
// constraints and foreign keys off.
func tamper(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=ignore_check_constraints(1)&_pragma=foreign_keys(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestStartRefusesABadStateFile(t *testing.T) {
	// One seeded file, copied for each case: seeding is most of a case's
	// cost (seconds under the race detector) and each case edits a copy.
	good, err := os.ReadFile(newStateFile(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		stmts []string
		want  string
	}{
		{"negative balance", []string{
			"UPDATE balances SET amount = '-5' WHERE currency = 'USDC' AND account_id = (SELECT id FROM accounts WHERE is_main = 1)",
			"UPDATE ledger SET balance_after = '-5' WHERE id = (SELECT max(id) FROM ledger WHERE currency = 'USDC' AND account_id = (SELECT id FROM accounts WHERE is_main = 1))",
		}, "is negative"},
		{"balance off its ledger", []string{"UPDATE balances SET amount = '123' WHERE currency = 'EURC' AND account_id = (SELECT id FROM accounts WHERE is_main = 1)"}, "differs from its ledger"},
		{"two main accounts", []string{"DROP INDEX accounts_one_main", "UPDATE accounts SET is_main = 1, main_id = id WHERE name = 'Acme Sul'"}, "2 main accounts"},
		{"minApprovals 0", []string{"UPDATE meta SET value = '0' WHERE key = 'min_approvals'"}, "minApprovals"},
		{"ticket of no account", []string{"UPDATE tickets SET account_id = 'ffffffff-ffff-4fff-bfff-ffffffffffff' WHERE rowid = 1"}, "refers to a missing accounts"},
		{"newer schema", []string{"PRAGMA user_version = 99"}, "schema version 99"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			if err := os.WriteFile(path, good, 0o600); err != nil {
				t.Fatal(err)
			}
			tamper(t, path, c.stmts...)
			s, err := New(Config{Seed: 5, StatePath: path})
			if err == nil {
				s.Close()
				t.Fatal("a bad state file was served")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("the refusal does not name the problem (%q) and the file: %v", c.want, err)
			}
		})
	}
}

func TestStartRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "old.json")
	if err := os.WriteFile(legacy, []byte(`{"version":1,"seed":1,"savedAt":"2026-01-01T00:00:00Z","accounts":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Config{Seed: 1, StatePath: legacy})
	if err == nil || !strings.Contains(err.Error(), "JSON state file") || !strings.Contains(err.Error(), "mv ") {
		t.Fatalf("an old JSON state is not refused with the way out: %v", err)
	}
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Seed: 1, StatePath: other}); err == nil || !strings.Contains(err.Error(), "not a sandbox database") {
		t.Fatalf("a stray file is not refused: %v", err)
	}
	// Neither was touched.
	if data, _ := os.ReadFile(other); string(data) != "hello" {
		t.Fatal("the refused file was changed")
	}
	path := newStateFile(t)
	if _, err := New(Config{Seed: 6, StatePath: path}); err == nil || !strings.Contains(err.Error(), "--seed 5") {
		t.Fatalf("a file of another seed is not refused: %v", err)
	}
}

// A state file survives a restart and leaves nothing else behind: after a
// clean stop the directory holds the database alone.
func TestStateFileReopensAndLeavesNothingBehind(t *testing.T) {
	path := newStateFile(t)
	s, err := New(Config{Seed: 5, StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.countTickets()
	if err != nil || n < 300 {
		t.Fatalf("reopened with %d tickets (%v)", n, err)
	}
	wallets, _, err := s.eng.Wallets().Page(engine.Caller{}, engine.Window{}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	ops, _, err := s.eng.OperationPage(engine.Caller{Access: s.access("approver1")}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(wallets) == 0 || len(ops) == 0 {
		t.Fatal("beneficiaries or operations were not reloaded")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("left in the directory: %v", names)
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	problems, err := db.Consistency(t.Context())
	if err != nil || len(problems) > 0 {
		t.Fatalf("balances and ledger disagree: %v %v", problems, err)
	}
}

// The demo data depends on the seed only: two sandboxes started minutes
// apart answer the same tickets (ids, amounts, rates, fees, states) and
// balances, byte for byte outside the timestamps.
func TestSameSeedSameDemoData(t *testing.T) {
	t.Parallel() // several seeded sandboxes; runs beside the other long tests
	at := time.Date(2026, 3, 2, 15, 4, 5, 0, time.UTC)
	var answers []string
	for _, start := range []time.Time{at, at.Add(7*time.Minute + 13*time.Second)} {
		r, err := Start(Config{Seed: 11, Now: func() time.Time { return start }}, "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c := r.client(t, "operator")
		var b strings.Builder
		_, out := c.do("GET", "/v2/account/balances", nil)
		b.Write(out)
		uri := "/v2/account/tickets/"
		for {
			var page struct {
				Tickets []map[string]any
				Cursor  string
			}
			c.json("GET", uri, nil, 200, &page)
			for _, tk := range page.Tickets {
				dropTimes(tk)
				b.WriteString(mustJSON(t, tk))
			}
			if page.Cursor == "" {
				break
			}
			uri = "/v2/account/tickets/?cursor=" + page.Cursor
		}
		r.Close()
		answers = append(answers, b.String())
	}
	if answers[0] != answers[1] {
		a, b := answers[0], answers[1]
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Fatalf("same seed, different data; first difference at byte %d: %q vs %q", i, excerpt(a, i), excerpt(b, i))
	}
}

// dropTimes removes what depends on the clock: timestamps, and the ids
// that embed one (PIX end-to-end ids carry the minute).
func dropTimes(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			lk := strings.ToLower(k)
			if strings.HasSuffix(lk, "at") || strings.Contains(lk, "date") || lk == "expiration" || lk == "endtoendid" || lk == "deadline" {
				delete(v, k)
				continue
			}
			dropTimes(x)
		}
	case []any:
		for _, x := range v {
			dropTimes(x)
		}
	}
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-60), min(len(s), i+60)
	return s[lo:hi]
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The demo history is built in the background from New; a sandbox whose
// background work is stopped at once (as the scale test stops it, so that
// no lifecycle work runs while it fills a file) still gets its history:
// building it does not depend on the serving context.
func TestDemoHistoryDoesNotDependOnTheServingContext(t *testing.T) {
	s, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.cancel()
	if err := s.seeded(); err != nil {
		t.Fatalf("demo history after the background work stopped: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
