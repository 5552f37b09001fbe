package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/batch"
)

// A scripting command on a machine with no profile used to answer from the
// embedded sandbox's demo data with exit 0, so that a script could take
// demo balances for its account's. Every command that talks to the service
// now exits 2 before anything is sent, saying how to add a profile or to
// use --sandbox; the dashboard alone keeps the embedded sandbox.
func TestScriptingCommandsWithoutAProfileExit2(t *testing.T) {
	e := newProfileEnv(t)
	const id = "7f3c0d2e-5b8a-4c1f-9e6d-2a4b8c0e1f3a"
	file := filepath.Join(t.TempDir(), "payouts.csv")
	if err := os.WriteFile(file, []byte(batch.Template()), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"balances", "--json"}, {"accounts"}, {"tickets", "list"}, {"tickets", "get", id}, {"tickets", "receipt", id, "-o", filepath.Join(t.TempDir(), "r.pdf")},
		{"tickets", "cancel", id, "--yes"}, {"tickets", "export", "-o", "-"}, {"quote", "--from", "BRL", "--to", "USDC", "--amount", "10"},
		{"ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--external-id", "x", "--yes"},
		{"approvals", "list"}, {"approvals", "show", id}, {"beneficiaries", "list"},
		{"beneficiaries", "add", "--kind", "wallet", "--alias", "a", "--address", "0x52908400098527886E0F7030069857D2E4169EE7", "--chain", "POLYGON", "--yes"},
		{"webhooks", "list"}, {"webhooks", "attempts"}, {"webhooks", "ack", "attempt-1"}, {"webhooks", "verify", "--signature", "eA=="},
		{"statement"}, {"api", "GET", "/v2/account/balances"}, {"batch", "run", file, "--dry-run"}, {"sandbox", "fund", id},
	}
	for _, args := range commands {
		code, out, errOut := e.run("", args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "tesouro profile add") || !strings.Contains(errOut, "--sandbox") {
			t.Errorf("tesouro %s without a profile: exit %d, stdout %q, stderr %q; want exit 2 saying how to add a profile or use --sandbox",
				strings.Join(args, " "), code, out, errOut)
		}
	}
	// Profiles, none of them active: the same, naming profile use.
	keyFile := writeSecretFile(t, "api-key", "k")
	pemFile := writeSecretFile(t, "key.pem", mustKeyPEM(t, "ed25519"))
	e.mustRun("", "profile", "add", "a", "--base-url", "http://127.0.0.1:9", "--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify")
	e.mustRun("", "profile", "remove", "a")
	e.mustRun("", "profile", "add", "b", "--base-url", "http://127.0.0.1:9", "--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify")
	cfg := e.config()
	cfg.Active = ""
	if err := cfg.Save(e.configDir); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := e.run("", "balances"); code != exitUsage || !strings.Contains(errOut, "profile use") || !strings.Contains(errOut, "--sandbox") {
		t.Errorf("balances with no active profile: exit %d, %q", code, errOut)
	}

	// What needs no service still works, and --sandbox is the way to demo data.
	if out := e.mustRun("", "batch", "template"); !strings.Contains(out, "beneficiary") {
		t.Errorf("batch template: %q", out)
	}
	if out := e.mustRun("", "--sandbox", "balances", "--jq", "keys | length"); strings.TrimSpace(out) == "0" {
		t.Errorf("--sandbox balances: %q", out)
	}
}
