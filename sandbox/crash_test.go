package sandbox

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// TestCrashKeepsAcknowledgedTickets runs the real `tesouro sandbox --state`
// process, has writers create tickets over HTTP, kills it with SIGKILL at a
// random moment, and starts it again on the same file, several rounds. At
// the end every ticket whose 201 reached a writer is there, no externalId
// is stored twice, every balance is the sum of its ledger moves, and the
// state directory holds nothing but the database and its WAL.
//
// TESOURO_CRASH_ROUNDS sets the number of rounds (20 for the measured
// figure). Without it the test runs up to 5 rounds and starts no new one
// after crashBudget (at least 2 rounds), so that it stays within a minute
// in CI, under the race detector too.
func TestCrashKeepsAcknowledgedTickets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it several times; not in -short")
	}
	// Mostly waiting on the child process: it overlaps the other parallel
	// tests.
	t.Parallel()
	began := time.Now()
	rounds, budget := 5, crashBudget
	if v := os.Getenv("TESOURO_CRASH_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("TESOURO_CRASH_ROUNDS=%q: want a positive number", v)
		}
		rounds, budget = n, 0
	}
	dir := t.TempDir()
	bin := buildTesouro(t, dir)
	stateDir := filepath.Join(dir, "state")
	if err := os.Mkdir(stateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(stateDir, "sandbox.db")
	credsPath := filepath.Join(dir, "creds.json")
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 14))
	t.Logf("kill moments drawn from seed %d", seed)

	acked := map[string]string{} // externalId → ticket id, for every 201 received
	last := map[string]string{}  // those of the last round
	var mu sync.Mutex
	played := 0
	for round := 1; round <= rounds; round++ {
		if budget > 0 && round > 2 && time.Since(began) > budget {
			break
		}
		played = round
		proc, base := startSandboxProcess(t, bin, credsPath, "--state", statePath, "--speed", "20")
		creds, err := ReadCredentials(credsPath)
		if err != nil {
			t.Fatal(err)
		}
		// Each start checks the last round's tickets; the final one all.
		checkAcked(t, base, creds, last)
		last = map[string]string{}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := operatorClient(t, base, creds)
				var q *api.Quote
				var quotedAt time.Time
				for {
					select {
					case <-stop:
						return
					default:
					}
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					if q == nil || time.Since(quotedAt) > 8*time.Second { // tokens live 15 s
						var err error
						if q, err = c.Quote(ctx, api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: decimal.NewNullDecimal(decimal.RequireFromString("25.00"))}); err != nil {
							cancel()
							q = nil
							time.Sleep(20 * time.Millisecond) // the process is gone or starting
							continue
						}
						quotedAt = time.Now()
					}
					ext := uuid.NewString()
					res, err := c.CreateTicket(ctx, uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: ext})
					cancel()
					if err == nil && res.Ticket != nil {
						mu.Lock()
						acked[ext] = res.Ticket.ID.String()
						last[ext] = res.Ticket.ID.String()
						mu.Unlock()
					}
				}
			}()
		}
		time.Sleep(time.Duration(300+rng.IntN(2200)) * time.Millisecond)
		if err := proc.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = proc.Wait()
		close(stop)
		wg.Wait()
		mu.Lock()
		t.Logf("round %d: killed with %d tickets acknowledged so far", round, len(acked))
		mu.Unlock()
	}
	if len(acked) == 0 {
		t.Fatal("no ticket was acknowledged: the test measured nothing")
	}

	// A last start: recovery needs no repair step, and it serves the last
	// round's tickets; then every ticket acknowledged in any round is looked
	// up in the file it leaves.
	proc, base := startSandboxProcess(t, bin, credsPath, "--state", statePath, "--speed", "20")
	creds, err := ReadCredentials(credsPath)
	if err != nil {
		t.Fatal(err)
	}
	checkAcked(t, base, creds, last)
	if err := proc.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()

	db, err := store.Open(statePath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw := readOnly(t, statePath)
	stored := map[string]string{}
	rows, err := raw.Query("SELECT external_id, id FROM tickets WHERE external_id IS NOT NULL")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var ext, id string
		if err := rows.Scan(&ext, &id); err != nil {
			t.Fatal(err)
		}
		stored[ext] = id
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		t.Fatal(err)
	}
	missing := 0
	for ext, id := range acked {
		if got, ok := stored[ext]; !ok || got != id {
			missing++
			if missing <= 5 {
				t.Errorf("acknowledged ticket %s (externalId %s) is not in the file (found %q)", id, ext, got)
			}
		}
	}
	if missing > 0 {
		t.Fatalf("%d of %d acknowledged tickets are gone", missing, len(acked))
	}
	var dups int
	if err := raw.QueryRow("SELECT count(*) FROM (SELECT external_id FROM tickets WHERE external_id IS NOT NULL GROUP BY account_id, external_id HAVING count(*) > 1)").Scan(&dups); err != nil {
		t.Fatal(err)
	}
	if dups != 0 {
		t.Errorf("%d externalIds are stored more than once", dups)
	}
	problems, err := db.Consistency(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	entries, _ := os.ReadDir(stateDir)
	for _, e := range entries {
		if n := e.Name(); n != "sandbox.db" && n != "sandbox.db-wal" && n != "sandbox.db-shm" {
			t.Errorf("left behind in the state directory: %s", n)
		}
	}
	t.Logf("%d rounds, %d tickets acknowledged, 0 missing, %d duplicated (%s)", played, len(acked), dups, time.Since(began).Round(time.Second))
}

// crashBudget is how long the crash test starts new rounds by default.
const crashBudget = 35 * time.Second

// startSandboxProcess starts `tesouro sandbox` on a free port and returns
// once it serves.
// buildTesouro builds the tesouro binary into dir as the test binary is
// built (with -race under the race detector), so that the build reuses
// what `go test` already compiled.
func buildTesouro(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "tesouro")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startSandboxProcess runs `bin sandbox` with args on a free loopback port,
// its credentials written to credsPath and its home beside them, and
// returns it with its base URL once it listens. It is killed at cleanup.
func startSandboxProcess(tb testing.TB, bin, credsPath string, args ...string) (*exec.Cmd, string) {
	tb.Helper()
	cmd := exec.Command(bin, append([]string{"sandbox", "--addr", "127.0.0.1:0", "--credentials-out", credsPath}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+filepath.Dir(credsPath), "XDG_STATE_HOME="+filepath.Dir(credsPath))
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(out)
	deadline := time.AfterFunc(20*time.Second, func() { _ = cmd.Process.Kill() })
	defer deadline.Stop()
	for lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "tesouro sandbox listening on "); ok {
			go func() {
				for lines.Scan() {
				}
			}()
			return cmd, strings.TrimSpace(rest)
		}
	}
	_ = cmd.Wait()
	tb.Fatalf("the sandbox did not start: %s", stderr.String())
	return nil, ""
}

// operatorClient is the api client of the demo operator of the sandbox at
// base, with a 5 s timeout unless opts say otherwise.
func operatorClient(tb testing.TB, base string, creds Credentials, opts ...api.Option) *api.Client {
	cred, ok := creds.Access("operator")
	if !ok {
		tb.Fatal("no operator access")
	}
	key, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := api.New(base, key, append([]api.Option{api.WithTimeout(5 * time.Second)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// checkAcked looks every acknowledged ticket up by its externalId: exactly
// one, with the acknowledged id.
func checkAcked(t *testing.T, base string, creds Credentials, acked map[string]string) {
	t.Helper()
	c := operatorClient(t, base, creds)
	missing := 0
	for ext, id := range acked {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		page, err := c.ListTickets(ctx, api.TicketFilter{ExternalID: ext})
		cancel()
		if err != nil {
			t.Fatalf("list by externalId: %v", err)
		}
		switch {
		case len(page.Items) == 0:
			missing++
			if missing <= 5 {
				t.Errorf("acknowledged ticket %s (externalId %s) is gone", id, ext)
			}
		case len(page.Items) > 1:
			t.Errorf("externalId %s: %d tickets", ext, len(page.Items))
		case page.Items[0].ID.String() != id:
			t.Errorf("externalId %s: ticket %s, acknowledged %s", ext, page.Items[0].ID, id)
		}
	}
	if missing > 0 {
		t.Fatalf("%d of %d acknowledged tickets are gone", missing, len(acked))
	}
}

// readOnly opens a database file straight, to read what it holds.
func readOnly(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
