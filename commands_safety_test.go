package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

func TestTicketCreateTwiceWithOneExternalIDMakesOneTicketUnderLostAnswers(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1, Faults: "dropAfterCommit=0.3"})
	const intents = 6
	for i := range intents {
		id := fmt.Sprintf("erp-%d-%d", time.Now().UnixNano(), i)
		for run := range 2 {
			// The faults drop reads too, the check for an existing ticket
			// among them: a run that got no answer to it after its retries
			// created nothing, and running it again is the remedy.
			for try := 0; ; try++ {
				code, out, errOut := tesouro(t, nil, "--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "USDC",
					"--amount", "100.00", "--external-id", id, "--yes", "--json")
				lostCheck := code != 0 && strings.Contains(errOut, "could not check for a ticket") && strings.Contains(errOut, "no answer from the service")
				if lostCheck && try < 4 {
					continue
				}
				if run == 1 && code != 0 {
					t.Fatalf("second run for %s: exit %d\n%s\n%s", id, code, out, errOut)
				}
				break
			}
		}
		// The count is a read, which the faults may drop too: asking again
		// is harmless.
		var n int
		var out string
		for try := 0; try < 10; try++ {
			code, o, _ := tesouro(t, nil, "--credentials", creds, "api", "GET", "/v2/account/tickets", "-f", "externalId="+id, "--paginate", "--jq", ".tickets | length")
			if out = o; code == 0 {
				break
			}
		}
		if err := json.Unmarshal([]byte(out), &n); err != nil || n != 1 {
			t.Errorf("external id %s: %s tickets, want exactly 1", id, strings.TrimSpace(out))
		}
	}
}

func TestTicketCreateRefusals(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--yes"}, "--external-id is required"},
		{[]string{"--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--external-id", "x"}, "pass --yes"},
		{[]string{"--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "1e3", "--external-id", "x", "--yes"}, "--amount"},
		// "1,234" USDC is never 1.234 USDC.
		{[]string{"--credentials", creds, "ticket", "create", "--from", "USDC", "--from-method", "INTERNAL", "--to", "BRLA", "--amount", "1,234", "--external-id", "x", "--yes"}, "if 1,234 means thousands, type 1234"},
		{[]string{"--credentials", creds, "quote", "--from", "USDC", "--to", "BRLA", "--output-amount", "1.234"}, "if 1.234 means thousands"},
		{[]string{"--credentials", creds, "ticket", "create", "--from", "BRLA", "--from-method", "INTERNAL", "--to", "USD", "--to-method", "ACH", "--output-amount", "10", "--payment-rail", "WIRE",
			"--beneficiary", "7f3c0d2e-5b8a-4c1f-9e6d-2a4b8c0e1f3a", "--external-id", "x", "--yes"}, "give --to-method WIRE"},
		{[]string{"--credentials", creds, "ticket", "create", "--from", "BRLA", "--from-method", "INTERNAL", "--to", "EUR", "--output-amount", "10", "--pix-key", "maria@example.com", "--external-id", "x", "--yes"}, "--beneficiary: the output is EUR via SEPA"},
		{[]string{"--credentials", creds, "ticket", "create", "--from", "BRLA", "--from-method", "INTERNAL", "--to", "BRL", "--output-amount", "10", "--external-id", "x", "--yes"}, "--beneficiary: the output is BRL via PIX: name a BRL beneficiary"},
		{[]string{"--credentials", creds, "--readonly", "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--external-id", "x", "--yes"}, "read-only"},
		{[]string{"--credentials", creds, "tickets", "cancel", "7f3c0d2e-5b8a-4c1f-9e6d-2a4b8c0e1f3a"}, "pass --yes"},
		{[]string{"--credentials", creds, "--readonly", "tickets", "cancel", "7f3c0d2e-5b8a-4c1f-9e6d-2a4b8c0e1f3a", "--yes"}, "read-only"},
		{[]string{"--credentials", creds, "tickets", "cancel", "not-an-id", "--yes"}, "not an id"},
		{[]string{"--credentials", creds, "statement", "--since", "2026-02-01", "--until", "2026-01-01"}, "not before"},
	} {
		code, _, errOut := tesouro(t, nil, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q; want 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestTicketCreateRefusesAnExternalIDOfAnotherPayment: the id names one
// payment; reused for another (another currency, or the same currencies
// and another amount) it is refused, naming both, exit 1, and nothing is
// created. The same payment again prints the ticket that exists.
func TestTicketCreateRefusesAnExternalIDOfAnotherPayment(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	first := mustTesouro(t, "--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "BRLA", "--amount", "100", "--external-id", "idem-1", "--yes", "--json")
	var tk struct{ ID string }
	if err := json.Unmarshal([]byte(first), &tk); err != nil || tk.ID == "" {
		t.Fatalf("first ticket: %s", first)
	}
	for _, other := range [][]string{
		{"--from", "USDC", "--from-method", "INTERNAL", "--to", "BRLA", "--amount", "5"},
		{"--from", "BRL", "--to", "BRLA", "--amount", "150"},
	} {
		args := append([]string{"--credentials", creds, "ticket", "create"}, other...)
		code, out, errOut := tesouro(t, nil, append(args, "--external-id", "idem-1", "--yes", "--json")...)
		if code != exitRuntime || out != "" || !strings.Contains(errOut, "external id idem-1 already names ticket "+tk.ID) || !strings.Contains(errOut, "nothing was created") {
			t.Errorf("%v under idem-1: exit %d\nstdout %q\nstderr %s", other, code, out, errOut)
		}
	}
	code, out, errOut := tesouro(t, nil, "--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "BRLA", "--amount", "100.00", "--external-id", "idem-1", "--yes", "--json")
	if code != 0 || !strings.Contains(out, tk.ID) || !strings.Contains(errOut, "already exists") {
		t.Errorf("the same payment again: exit %d\n%s\n%s", code, out, errOut)
	}
	n := strings.TrimSpace(mustTesouro(t, "--credentials", creds, "api", "GET", "/v2/account/tickets", "-f", "externalId=idem-1", "--paginate", "--jq", ".tickets | length"))
	if n != "1" {
		t.Errorf("%s tickets under idem-1, want 1", n)
	}
}

// TestTicketCreatePaysEveryBankRail: EUR by SEPA and ARS to a CVU carry
// their output blocks (they were sent without one).
func TestTicketCreatePaysEveryBankRail(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	c := demoClient(t, creds, "operator")
	eur, err := c.ListEURAccounts(context.Background(), api.BeneficiaryFilter{})
	if err != nil || len(eur.Items) == 0 {
		t.Fatal("no EUR beneficiary", err)
	}
	ars, err := c.ListARSAccounts(context.Background(), api.BeneficiaryFilter{})
	if err != nil || len(ars.Items) == 0 {
		t.Fatal("no ARS beneficiary", err)
	}
	for _, tc := range []struct{ to, bene, ext string }{{"EUR", eur.Items[0].ID.String(), "rail-sepa"}, {"ARS", ars.Items[0].ID.String(), "rail-cvu"}} {
		code, out, errOut := tesouro(t, nil, "--credentials", creds, "ticket", "create", "--from", "USDC", "--from-method", "INTERNAL", "--to", tc.to,
			"--output-amount", "50", "--beneficiary", tc.bene, "--reference", "invoice 9", "--external-id", tc.ext, "--yes", "--json")
		if code != 0 || !strings.Contains(out, `"outputCurrency": "`+tc.to+`"`) {
			t.Errorf("%s: exit %d\n%s\n%s", tc.to, code, out, errOut)
		}
	}
}

func TestAPIGetBalances(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	out := mustTesouro(t, "--credentials", creds, "api", "GET", "/v2/account/balances")
	var v map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if _, ok := v["balances"]; !ok {
		t.Errorf("no balances in %s", out)
	}
	out = mustTesouro(t, "--credentials", creds, "api", "GET", "/v2/account/balances", "-i")
	if !strings.HasPrefix(out, "HTTP 200 OK\n") || !strings.Contains(out, "Content-Type: application/json") {
		t.Errorf("-i: %s", out)
	}
	code, out, _ := tesouro(t, nil, "--credentials", creds, "api", "GET", "/v2/account/tickets/not-a-ticket")
	if code != exitRuntime || !json.Valid([]byte(out)) {
		t.Errorf("a 4xx: exit %d, body %q; want 1 and the error body", code, out)
	}
}

func TestForwardToDeliversSignedEventsThatVerify(t *testing.T) {
	var mu sync.Mutex
	var dumps [][]byte
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := httputil.DumpRequest(r, true)
		mu.Lock()
		dumps = append(dumps, d)
		mu.Unlock()
	}))
	defer recv.Close()

	creds := filepath.Join(t.TempDir(), "creds.json")
	var out, errOut syncBuffer
	f := testFactory(strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, f, []string{"sandbox", "--addr", "127.0.0.1:0", "--credentials-out", creds, "--speed", "50", "--forward-to", recv.URL + "/hook", "--log-requests"})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sandbox: %v", err)
		}
	}()
	waitFor(t, sandboxStartWait, "the sandbox to start", func() bool { return strings.Contains(out.String(), "press Ctrl-C") })

	var tk struct{ ID string }
	// Above the sandbox's auto-fund limit (1,000 BRL), so the ticket waits
	// for the fund below rather than racing it at --speed 50.
	created := mustTesouro(t, "--credentials", creds, "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "1500.00", "--external-id", "fw-1", "--yes", "--json")
	if err := json.Unmarshal([]byte(created), &tk); err != nil {
		t.Fatal(err)
	}
	mustTesouro(t, "--credentials", creds, "sandbox", "fund", tk.ID)
	waitFor(t, 10*time.Second, "a forwarded delivery", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(dumps) > 0 && strings.Contains(out.String(), "--> ")
	})
	if !strings.Contains(out.String(), "POST   /v2/account/tickets/ 201") || !strings.Contains(out.String(), "access=operator") {
		t.Errorf("--log-requests did not log the creation:\n%s", out.String())
	}
	mu.Lock()
	delivery := dumps[0]
	mu.Unlock()
	code, vout, verr := tesouro(t, bytes.NewReader(delivery), "--credentials", creds, "webhooks", "verify")
	if code != 0 || !strings.Contains(vout, "signature valid") {
		t.Fatalf("verify a forwarded delivery: exit %d %s %s\n%s", code, vout, verr, delivery)
	}
	// The delivery is wrapped as the live service sends it (§8.6); the
	// relay's line and verify both name the event read from it.
	if !bytes.Contains(delivery, []byte(`{"event":{"id":"`)) || !strings.Contains(vout, ": TICKET TICKET-") {
		t.Errorf("verify did not read the wrapped event: %s\n%s", vout, delivery)
	}
	if !regexp.MustCompile(`--> TICKET (TICKET-CREATED|DEPOSIT-SUCCESS|TICKET-COMPLETE) [0-9a-f-]{36} \[`).MatchString(out.String()) {
		t.Errorf("the relay's line does not name the event:\n%s", out.String())
	}
	// One byte changed in the body: refused.
	i := bytes.LastIndex(delivery, []byte(`"`))
	tampered := append([]byte{}, delivery...)
	tampered[i-1] ^= 0x01
	if code, _, verr := tesouro(t, bytes.NewReader(tampered), "--credentials", creds, "webhooks", "verify"); code != exitRuntime || !strings.Contains(verr, "does NOT verify") {
		t.Errorf("a tampered delivery: exit %d %s", code, verr)
	}
}

func TestDebugLogsExchangesWithoutSecrets(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 1})
	c, err := sandbox.ReadCredentials(creds)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := c.Access("operator")
	_, _, errOut := tesouro(t, nil, "--credentials", creds, "--debug", "balances")
	if !regexp.MustCompile(`method=GET url=http://127\.0\.0\.1:\d+/v2/account/balances status=200 latency=`).MatchString(errOut) || !strings.Contains(errOut, "attempt=1") {
		t.Errorf("no request line in the debug log:\n%s", errOut)
	}
	for _, want := range []string{"request.header.X-Api-Key=REDACTED", "request.header.X-Api-Signature=REDACTED", "response.header.Content-Type=application/json", `response.body="{\"balances\":`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the debug log lacks %s:\n%s", want, errOut)
		}
	}
	for _, secret := range []string{acc.APIKey, acc.Password, acc.EmailToken, "BEGIN"} {
		if secret != "" && strings.Contains(errOut, secret) {
			t.Errorf("the debug log holds a secret (%.8s...)", secret)
		}
	}
	root := t.TempDir()
	_, _, errOut = tesouroEnv(t, map[string]string{"TESOURO_DEBUG": "api", "HOME": root, "TESOURO_CONFIG_DIR": root}, nil, "--credentials", creds, "accounts")
	if !regexp.MustCompile(`method=GET url=http://127\.0\.0\.1:\d+/v2/accounts status=200`).MatchString(errOut) {
		t.Errorf("TESOURO_DEBUG=api logged nothing:\n%s", errOut)
	}
}

func TestCredentialsWithAProductionURLAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := (sandbox.Credentials{BaseURL: "https://api.example.com", Accesses: []sandbox.AccessCredential{{Name: "operator"}}}).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := tesouro(t, nil, "--credentials", path, "balances")
	if code != exitUsage || !strings.Contains(errOut, "not on this machine") {
		t.Fatalf("exit %d %q", code, errOut)
	}
}

func TestUsageMistakesExit2(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus"}, {"balances", "--bogus"}, {"tickets", "get"}, {"tickets", "lst"}, {"sandbox", "--faults", "bogus"},
		{"balances", "--format", "xml"}, {"balances", "--jq", ".["}, {"--sandbox", "--credentials", "x", "balances"},
		{"--as", "operator", "balances"}, {"tickets", "list", "--limit", "many"}, {"webhooks", "ack"}, {"api", "FETCH", "/v2/x"},
		{"quote", "--from", "BRL", "--to", "USDC"}, {"nonsense"},
	} {
		code, _, errOut := tesouro(t, nil, args...)
		if code != exitUsage {
			t.Errorf("tesouro %s: exit %d, want 2 (%s)", strings.Join(args, " "), code, errOut)
		}
	}
	for _, args := range [][]string{{"--version"}, {"sandbox", "--version"}, {"tickets", "list", "--version"}, {"version"}} {
		if out := mustTesouro(t, args...); !strings.HasPrefix(out, "tesouro ") {
			t.Errorf("tesouro %s: %q", strings.Join(args, " "), out)
		}
	}
	if out := mustTesouro(t, "profile", "list", "--profile", "x"); !strings.Contains(out, "No profiles") {
		t.Errorf("a global flag after the subcommand: %q", out)
	}
}

// binaryOnce builds tesouro once for the tests that need a real process.
var binaryOnce = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tesouro-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "tesouro")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

func buildBinary(t *testing.T) string {
	t.Helper()
	bin, err := binaryOnce()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestDashboardWithoutATerminalExits2(t *testing.T) {
	bin := buildBinary(t)
	cmd := exec.Command(bin, "--sandbox") // stdin and stdout: /dev/null and a pipe
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "TESOURO_CONFIG_DIR="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
		t.Fatalf("exit: %v", err)
	}
	if !strings.Contains(stderr.String(), "the dashboard needs a terminal; for scripts use") || len(out) != 0 {
		t.Errorf("stderr %q, stdout %q", stderr.String(), out)
	}
}

func TestSignalsExit130And143(t *testing.T) {
	bin := buildBinary(t)
	for sig, want := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143} {
		cmd := exec.Command(bin, "sandbox", "--addr", "127.0.0.1:0", "--credentials-out", filepath.Join(t.TempDir(), "c.json"))
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		var out syncBuffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 10*time.Second, "the sandbox to listen", func() bool { return strings.Contains(out.String(), "press Ctrl-C") })
		_ = cmd.Process.Signal(sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != want {
			t.Errorf("%v: %v, want exit %d", sig, err, want)
		}
		if !strings.Contains(out.String(), "sandbox stopped") {
			t.Errorf("%v: the sandbox did not stop cleanly:\n%s", sig, out.String())
		}
	}
}

func TestLogRequestsOverTLS(t *testing.T) {
	creds := filepath.Join(t.TempDir(), "creds.json")
	var out, errOut syncBuffer
	f := testFactory(strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, f, []string{"sandbox", "--addr", "127.0.0.1:0", "--credentials-out", creds, "--tls", "--log-requests"})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sandbox: %v", err)
		}
	}()
	waitFor(t, sandboxStartWait, "the sandbox to start", func() bool { return strings.Contains(out.String(), "press Ctrl-C") })
	if !strings.Contains(out.String(), "listening on https://") {
		t.Fatalf("not serving HTTPS:\n%s", out.String())
	}
	// The certificate the sandbox wrote is the one a client must trust.
	pem, err := os.ReadFile(filepath.Join(filepath.Dir(creds), "sandbox-cert.pem"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("sandbox-cert.pem holds no certificate")
	}
	base := regexp.MustCompile(`https://[0-9.:]+`).FindString(out.String())
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := hc.Get(base + "/v2/account/balances")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, 10*time.Second, "the unsigned request in the log", func() bool {
		return strings.Contains(out.String(), "GET    /v2/account/balances 401")
	})
}

// Webhooks belong to the main account (spec/service.md §7.4), so
// --sub-account means nothing to the webhook commands. They used to accept
// it and act on the main account all the same; now each refuses it as a
// usage mistake that says why, before anything is sent, wherever the flag
// is placed.
func TestWebhookCommandsRefuseASubAccount(t *testing.T) {
	creds := scriptSandbox(t, sandbox.Config{Seed: 5})
	unacked := mustTesouro(t, "--credentials", creds, "webhooks", "attempts", "--unacked", "--jq", ".[].id")
	ids := strings.Fields(unacked)
	if len(ids) == 0 {
		t.Fatal("the demo has no unacknowledged attempt to try acknowledging")
	}
	hooks := mustTesouro(t, "--credentials", creds, "webhooks", "list", "--json")
	for _, args := range [][]string{
		{"--sub-account", "Acme Sul", "webhooks", "list"},
		{"webhooks", "list", "--sub-account", "Acme Sul"},
		{"webhooks", "attempts", "--unacked", "--sub-account", "Acme Sul"},
		{"webhooks", "ack", ids[0], "--sub-account", "Acme Sul"},
		{"--sub-account", "Acme Sul", "webhooks", "verify", "--signature", "eA==", "--public-key", "key.pem"},
	} {
		code, out, errOut := tesouro(t, nil, append([]string{"--credentials", creds}, args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "--sub-account does not apply: webhooks belong to the main account") {
			t.Errorf("tesouro %s: exit %d, %d bytes on stdout, stderr %q; want exit 2 and nothing done, saying webhooks belong to the main account", strings.Join(args, " "), code, len(out), errOut)
		}
	}
	if got := strings.Fields(mustTesouro(t, "--credentials", creds, "webhooks", "attempts", "--unacked", "--jq", ".[].id")); len(got) != len(ids) || !slices.Contains(got, ids[0]) {
		t.Errorf("a refused ack acknowledged attempts: %d unacknowledged, were %d (%s among them: %v)", len(got), len(ids), ids[0], slices.Contains(got, ids[0]))
	}
	if got := mustTesouro(t, "--credentials", creds, "webhooks", "list", "--json"); got != hooks {
		t.Errorf("the webhooks changed: %s, were %s", got, hooks)
	}
}
