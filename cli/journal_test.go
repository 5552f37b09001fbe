package cli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// sandboxCredentials serves a sandbox over loopback and writes its
// credentials file, as "tesouro sandbox" does.
func sandboxCredentials(t *testing.T, seed int64) (string, sandbox.Credentials) {
	t.Helper()
	r, err := sandbox.Start(sandbox.Config{Seed: seed}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start the sandbox: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := r.Creds.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path, r.Creds
}

// Each write a command makes is one journal line under the dashboard's
// vocabulary, whatever its outcome: who acted (the demo access and its
// e-mail), the environment, the account (a sub-account's id), the
// endpoint, the ids and amounts, the outcome. A write refused before it is
// sent writes nothing; no line holds a secret.
func TestEveryCommandWriteIsJournaled(t *testing.T) {
	e := newProfileEnv(t)
	creds, c := sandboxCredentials(t, 5)
	op, _ := c.Access("operator")
	run := func(args ...string) string {
		t.Helper()
		return e.mustRun("", append([]string{"--credentials", creds}, args...)...)
	}
	create := func(ext string) (id string) {
		t.Helper()
		var tk struct{ ID string }
		if err := json.Unmarshal([]byte(run("ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "25.00", "--external-id", ext, "--yes", "--json")), &tk); err != nil || tk.ID == "" {
			t.Fatalf("ticket create %s: %v", ext, err)
		}
		return tk.ID
	}
	var subs []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(run("accounts", "--json")), &subs); err != nil {
		t.Fatal(err)
	}
	sul := ""
	for _, s := range subs {
		if s.Name == "Acme Sul" {
			sul = s.ID
		}
	}
	attempts := strings.Fields(run("webhooks", "attempts", "--unacked", "--jq", ".[].id"))
	if sul == "" || len(attempts) < 2 {
		t.Fatalf("the demo lacks the sub-account Acme Sul (%q) or two unacknowledged attempts (%v)", sul, attempts)
	}

	toCancel, toFund := create("journal-cancel"), create("journal-fund")
	run("tickets", "cancel", toCancel, "--yes")
	run("sandbox", "fund", toFund)
	var bene struct{ ID string }
	if err := json.Unmarshal([]byte(run("--sub-account", "Acme Sul", "beneficiaries", "add", "--kind", "wallet", "--alias", "journal-wallet",
		"--address", "0x52908400098527886E0F7030069857D2E4169EE7", "--chain", "POLYGON", "--yes", "--json")), &bene); err != nil {
		t.Fatal(err)
	}
	run("webhooks", "ack", attempts[0], attempts[1])
	hook := writeSecretFile(t, "hook.json", `{"webhookUrl":"https://example.com/hook","subscriptions":["*"]}`)
	run("api", "POST", "/v2/notifications/webhooks", "--input", hook)
	if code, _, _ := e.run("", "--credentials", creds, "api", "DELETE", "/v2/account/beneficiaries/wallets/00000000-0000-4000-8000-000000000000"); code != exitRuntime {
		t.Fatalf("deleting a wallet that does not exist: exit %d, want 1", code)
	}
	// Refused before anything is sent: no line.
	if code, _, _ := e.run("", "--credentials", creds, "tickets", "cancel", toCancel, "--yes"); code != exitRuntime {
		t.Fatalf("cancelling a canceled ticket: exit %d, want 1", code)
	}
	if code, _, _ := e.run("", "--credentials", creds, "--readonly", "webhooks", "ack", attempts[2%len(attempts)]); code != exitUsage {
		t.Fatalf("acknowledging under --readonly: exit %d, want 2", code)
	}

	path := filepath.Join(e.stateDir, "tesouro", journal.FileName)
	entries, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		action, endpoint, account, outcome string
		ids                                map[string]string
		amounts                            []string
	}{
		// The creations, journaled by the payment core as the dashboard's.
		{"create-ticket", "POST /v2/account/tickets/", "main", "created",
			map[string]string{"ticketId": toCancel, "externalId": "journal-cancel"}, []string{"input", "output"}},
		{"create-ticket", "POST /v2/account/tickets/", "main", "created",
			map[string]string{"ticketId": toFund, "externalId": "journal-fund"}, []string{"input", "output"}},
		{"cancel-ticket", "PATCH /v2/account/tickets/" + toCancel + "/cancel", "main", "canceled",
			map[string]string{"ticketId": toCancel, "externalId": "journal-cancel"}, []string{"input", "output"}},
		{"sandbox-fund-ticket", "POST /v2/sandbox/tickets/{id}/fund", "main", "funded",
			map[string]string{"ticketId": toFund, "externalId": "journal-fund"}, []string{"input", "output"}},
		{"create-beneficiary-wallet", "POST /v2/account/beneficiaries/wallets/", sul, "created",
			map[string]string{"alias": "journal-wallet", "beneficiary": bene.ID}, nil},
		{"acknowledge-webhook-attempts", "PATCH /v2/notifications/webhooks/attempts", "main", "acknowledged",
			map[string]string{"attempt1": attempts[0], "attempt2": attempts[1]}, nil},
		{"api-request", "POST /v2/notifications/webhooks", "main", "HTTP 200", nil, nil},
		{"api-request", "DELETE /v2/account/beneficiaries/wallets/00000000-0000-4000-8000-000000000000", "main", "error: HTTP 404", nil, nil},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d journal lines, want %d (one per write sent):\n%+v", len(entries), len(want), entries)
	}
	for i, w := range want {
		got := entries[i]
		if got.Action != w.action || got.Endpoint != w.endpoint || got.Account != w.account || got.Outcome != w.outcome {
			t.Errorf("line %d: %s %s account=%s outcome=%q; want %s %s account=%s outcome=%q", i+1, got.Action, got.Endpoint, got.Account, got.Outcome, w.action, w.endpoint, w.account, w.outcome)
		}
		if got.Profile != "demo:operator" || got.Email != op.Email || got.Env != "sandbox" || got.Time.IsZero() {
			t.Errorf("line %d (%s): profile %q e-mail %q env %q time %v; want demo:operator, %s, sandbox", i+1, got.Action, got.Profile, got.Email, got.Env, got.Time, op.Email)
		}
		for k, v := range w.ids {
			if got.IDs[k] != v {
				t.Errorf("line %d (%s): ids %v, want %s=%s", i+1, got.Action, got.IDs, k, v)
			}
		}
		if keys := slices.Sorted(maps.Keys(got.Amounts)); !slices.Equal(keys, w.amounts) {
			t.Errorf("line %d (%s): amounts %v, want %v", i+1, got.Action, got.Amounts, w.amounts)
		}
	}
	if id := entries[6].IDs["webhookId"]; id == "" {
		t.Errorf("the registered webhook's id is not journaled: %v", entries[6].IDs)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{op.APIKey, "PRIVATE KEY", op.Password} {
		if secret != "" && strings.Contains(string(raw), secret) {
			t.Errorf("the journal holds a secret (%.8s...)", secret)
		}
	}
}

// A write that could not be recorded is not sent.
func TestAWriteIsNotSentWithoutItsJournal(t *testing.T) {
	e := newProfileEnv(t)
	creds, sbCreds := sandboxCredentials(t, 1)
	// The state directory is a file: the journal cannot be opened there.
	if err := os.WriteFile(e.stateDir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := e.run("", "--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "25.00", "--external-id", "no-journal", "--yes", "--json")
	if code != exitRuntime || !strings.Contains(errOut, "journal is not available") || !strings.Contains(errOut, "nothing was sent") {
		t.Fatalf("create without a journal: exit %d, %q; want 1, saying nothing was sent", code, errOut)
	}
	if n := strings.TrimSpace(e.mustRun("", "--credentials", creds, "api", "GET", "/v2/account/tickets", "-f", "externalId=no-journal", "--jq", ".tickets | length")); n != "0" {
		t.Fatalf("%s tickets were created without their journal line", n)
	}
	// A ticket made elsewhere cannot be cancelled here either.
	tk := createTicketAs(t, sbCreds, "operator", "no-journal-2")
	code, _, errOut = e.run("", "--credentials", creds, "tickets", "cancel", tk.ID.String(), "--yes")
	if code != exitRuntime || !strings.Contains(errOut, "journal is not available") || !strings.Contains(errOut, "nothing was sent") {
		t.Fatalf("cancel without a journal: exit %d, %q; want 1, saying nothing was sent", code, errOut)
	}
	if status := strings.TrimSpace(e.mustRun("", "--credentials", creds, "tickets", "get", tk.ID.String(), "--jq", ".status")); status != "UNPAID" {
		t.Errorf("the ticket is %s after a cancel that could not be journaled, want UNPAID", status)
	}
}

// createTicketAs creates a PIX ticket of 25.00 BRL to USDC through the
// client of the demo access name, outside any command.
func createTicketAs(t *testing.T, creds sandbox.Credentials, name, externalID string) *api.Ticket {
	t.Helper()
	acc, _ := creds.Access(name)
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(creds.BaseURL, auth)
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Quote(t.Context(), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.NewNullDecimal(decimal.RequireFromString("25")),
		OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CreateTicket(t.Context(), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: externalID})
	if err != nil || res.Ticket == nil {
		t.Fatalf("create a ticket: %v %+v", err, res)
	}
	return res.Ticket
}
