package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// writePaths are every command that writes, each given what it needs to
// reach the service. sandbox fund is left out for production profiles,
// which it refuses for its own reason first (exit 2).
func writePaths(t *testing.T) map[string][]string {
	batchFile := filepath.Join(t.TempDir(), "payouts.csv")
	if err := os.WriteFile(batchFile, []byte("beneficiary,amount,currency\nMaria Silva,1.00,BRL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const id = "7f3c0d2e-5b8a-4c1f-9e6d-2a4b8c0e1f3a"
	return map[string][]string{
		"ticket create":     {"ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--external-id", "gate-1", "--yes"},
		"tickets cancel":    {"tickets", "cancel", id, "--yes"},
		"beneficiaries add": {"beneficiaries", "add", "--kind", "wallet", "--alias", "gate", "--address", "0x52908400098527886E0F7030069857D2E4169EE7", "--chain", "POLYGON", "--yes"},
		"webhooks ack":      {"webhooks", "ack", "attempt-1"},
		"batch run":         {"batch", "run", batchFile, "--yes"},
		"sandbox fund":      {"sandbox", "fund", id},
		"api POST":          {"api", "-X", "POST", "/v2/account/beneficiaries/wallets/", "-f", "alias=gate", "-f", "walletChain=POLYGON"},
		"api PUT":           {"api", "-X", "PUT", "/v2/notifications/webhooks/x"},
		"api PATCH":         {"api", "-X", "PATCH", "/v2/account/tickets/" + id + "/cancel"},
		"api DELETE":        {"api", "-X", "DELETE", "/v2/account/beneficiaries/wallets/" + id},
	}
}

// countingSandbox is a sandbox that counts the requests other than GET it
// receives.
func countingSandbox(t *testing.T) (*sandbox.Running, *atomic.Int64) {
	t.Helper()
	var writes atomic.Int64
	r, err := sandbox.Start(sandbox.Config{Seed: 1, Wrap: func(h http.Handler, _ sandbox.Credentials) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.Method != http.MethodGet {
				writes.Add(1)
			}
			h.ServeHTTP(w, req)
		})
	}}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, &writes
}

// Every write path crosses one gate: --readonly, a read-only profile and a
// production profile without scripted writes stop it before any request.
func TestEveryWritePathCrossesTheGate(t *testing.T) {
	e := newProfileEnv(t)
	sb, writes := countingSandbox(t)
	creds := filepath.Join(t.TempDir(), "creds.json")
	if err := sb.Creds.WriteFile(creds); err != nil {
		t.Fatal(err)
	}
	_, keyFile, pemFile := operatorKeyFiles(t, sb)
	e.mustRun("", "profile", "add", "ro", "--base-url", sb.BaseURL, "--api-key-file", keyFile, "--private-key-file", pemFile, "--readonly")
	e.mustRun("", "profile", "add", "live", "--base-url", "https://127.0.0.1:1", "--env", "production", "--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify")
	for name, args := range writePaths(t) {
		for _, tc := range []struct {
			target []string
			code   int
			want   string
		}{
			{[]string{"--credentials", creds, "--readonly"}, exitUsage, "read-only: "},
			{[]string{"--profile", "ro"}, exitUsage, "profile ro is read-only"},
			{[]string{"--profile", "live"}, exitRuntime, "does not allow scripted writes"},
		} {
			if name == "sandbox fund" && tc.target[1] == "live" {
				tc.code, tc.want = exitUsage, "funding is simulated only by a sandbox"
			}
			code, _, errOut := e.run("", append(tc.target, args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("%s %v: exit %d %q, want exit %d saying %q", name, tc.target, code, errOut, tc.code, tc.want)
			}
		}
	}
	if n := writes.Load(); n != 0 {
		t.Errorf("the sandbox received %d writes through a closed gate", n)
	}
	if _, err := os.Stat(filepath.Join(e.stateDir, "tesouro", "journal.jsonl")); err == nil {
		t.Error("a refused write was journaled")
	}
	// Open, the same paths reach the service.
	code, _, errOut := e.run("", "--credentials", creds, "beneficiaries", "add", "--kind", "wallet", "--alias", "gate", "--address", "0x52908400098527886E0F7030069857D2E4169EE7", "--chain", "POLYGON", "--yes")
	if code != 0 || writes.Load() != 1 {
		t.Errorf("an allowed write: exit %d %s, %d writes", code, errOut, writes.Load())
	}
}

// A session that did not cross the gate has no journal, so it cannot write.
func TestNoJournalOutsideTheGate(t *testing.T) {
	s := &session{f: New(IOStreams{}, func(string) string { return "" }, Build{})}
	if _, err := s.journal(); err != errNoGate {
		t.Fatalf("journal outside the gate: %v", err)
	}
	if err := s.write("x", "POST /x", nil); err != errNoGate {
		t.Fatalf("write outside the gate: %v", err)
	}
}
