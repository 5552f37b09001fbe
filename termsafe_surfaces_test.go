package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/termsafe"
	"github.com/tesouro-treasury/tesouro/termsafe/termsafetest"
)

// Every string another access may plant in the service (a sub-account's
// name, a beneficiary's alias, a webhook's URL, a ticket's external id)
// reaches every surface of the command line escaped: tables, their CSV
// forms, the batch review, and tesouro api's non-JSON bodies at a
// terminal. JSON stays exact.
func TestPlantedEscapesReachNoSurfaceRaw(t *testing.T) {
	for name, payload := range termsafetest.Payloads {
		if name == "invalid" {
			// JSON carries no invalid UTF-8 (the encoder sends U+FFFD):
			// it cannot be planted through the service. termsafe's own
			// tests escape it.
			continue
		}
		t.Run(name, func(t *testing.T) {
			r, err := sandbox.Start(sandbox.Config{Seed: 1}, "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			creds := filepath.Join(t.TempDir(), "creds.json")
			if err := r.Creds.WriteFile(creds); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			op := demoClient(t, creds, "operator")
			label := "Acme" + payload + "Sul"
			sub, err := op.CreateSubAccount(ctx, api.CreateSubAccountRequest{AccountType: "COMPANY", Name: label})
			if err != nil {
				t.Fatalf("plant a sub-account name: %v", err)
			}
			if _, err := op.CreateWallet(ctx, uuid.Nil, api.CreateWalletRequest{Alias: label, WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"}); err != nil {
				t.Fatalf("plant an alias: %v", err)
			}
			if _, err := op.RegisterWebhook(ctx, api.RegisterWebhookRequest{WebhookURL: "https://hooks.example.com/in?x=" + url.QueryEscape("a") + payload, Subscriptions: []string{"*"}}); err != nil {
				t.Logf("a webhook URL with the payload is refused by the service (%v): planted with a path instead", err)
				if _, err := op.RegisterWebhook(ctx, api.RegisterWebhookRequest{WebhookURL: "https://hooks.example.com/" + payload, Subscriptions: []string{"*"}}); err != nil {
					t.Logf("and with a path (%v): the webhooks list is read for the other payloads only", err)
				}
			}
			mustTesouro(t, "--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "BRLA", "--amount", "10",
				"--external-id", "erp"+payload, "--yes")
			// A requester's ticket on the planted sub-account waits for
			// approval, under the sub-account's name.
			mustTesouro(t, "--credentials", creds, "--as", "requester", "--sub-account", sub.String(), "ticket", "create",
				"--from", "BRL", "--to", "BRLA", "--amount", "10", "--external-id", "parked-1", "--yes")

			dir := t.TempDir()
			batchFile := filepath.Join(dir, "payouts.csv")
			if err := os.WriteFile(batchFile, []byte("beneficiary,amount,currency,source\n"+label+",1.00,USDC,USDC\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			surfaces := [][]string{
				{"balances"}, {"balances", "--format", "csv"},
				{"accounts"}, {"accounts", "--format", "csv"},
				{"tickets", "list"}, {"tickets", "list", "--format", "csv"},
				{"tickets", "export", "-o", "-"},
				{"beneficiaries", "list"}, {"beneficiaries", "list", "--format", "csv"},
				{"webhooks", "list"}, {"webhooks", "list", "--format", "csv"},
				{"--as", "approver1", "approvals", "list"}, {"--as", "approver1", "approvals", "list", "--format", "csv"},
				{"--sub-account", sub.String(), "balances"},
			}
			surfaces = append(surfaces, []string{"batch", "run", batchFile, "--dry-run"})
			seen := map[string]bool{}
			for _, args := range surfaces {
				code, out, errOut := tesouro(t, nil, append([]string{"--credentials", creds}, args...)...)
				if code != 0 {
					t.Fatalf("tesouro %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errOut)
				}
				for stream, text := range map[string]string{"stdout": out, "stderr": errOut} {
					if bad := termsafe.Find(text); bad != "" {
						t.Errorf("tesouro %s: %s carries %q raw:\n%s", strings.Join(args, " "), stream, bad, text)
					}
					if strings.Contains(text, "Acme"+termsafe.Line(payload)+"Sul") || strings.Contains(text, "erp"+termsafe.Line(payload)) {
						seen[strings.Join(args, " ")] = true
					}
				}
			}
			for _, must := range []string{"accounts", "accounts --format csv", "tickets list", "tickets list --format csv", "tickets export -o -",
				"beneficiaries list", "beneficiaries list --format csv", "--as approver1 approvals list", "--as approver1 approvals list --format csv",
				"batch run " + batchFile + " --dry-run"} {
				if !seen[must] {
					t.Errorf("tesouro %s does not show the planted name escaped: the test reads nothing", must)
				}
			}
			// JSON stays exact: the name comes back as the service holds it.
			var accts []struct{ Name string }
			if err := json.Unmarshal([]byte(mustTesouro(t, "--credentials", creds, "accounts", "--json")), &accts); err != nil {
				t.Fatal(err)
			}
			exact := false
			for _, a := range accts {
				exact = exact || a.Name == label
			}
			if !exact {
				t.Errorf("accounts --json does not give the name exactly: %+v", accts)
			}
		})
	}
}

// tesouro api prints a body that is not JSON as it came into a file or a
// pipe, and escaped at a terminal.
func TestAPINonJSONBodyIsEscapedAtATerminal(t *testing.T) {
	r, err := sandbox.Start(sandbox.Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	body := "status: ok\n" + strings.Join(mapValues(termsafetest.Payloads), "\n") + "\n"
	target, _ := url.Parse(r.BaseURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.HasSuffix(req.URL.Path, "/text") {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, body)
			return
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	creds := r.Creds
	creds.BaseURL = srv.URL
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := creds.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if out := mustTesouro(t, "--credentials", path, "api", "/v2/text"); out != body {
		t.Errorf("piped, the body changed: %q", out)
	}
	var out, errOut terminal
	f := testFactory(strings.NewReader(""), &out, &errOut, func(k string) string {
		return map[string]string{"XDG_STATE_HOME": t.TempDir(), "TESOURO_CONFIG_DIR": t.TempDir()}[k]
	})
	if code := run(f, []string{"--credentials", path, "api", "/v2/text"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if bad := termsafe.Find(out.String()); bad != "" || !strings.Contains(out.String(), "status: ok\n") {
		t.Errorf("at a terminal the body carries %q raw: %q", bad, out.String())
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// terminal is a buffer the command line takes for a terminal.
type terminal struct{ strings.Builder }

func (*terminal) IsTerminal() bool { return true }
