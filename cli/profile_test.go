package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// profileEnv runs commands against a throwaway config directory and an
// in-memory keyring.
type profileEnv struct {
	t         *testing.T
	configDir string
	stateDir  string
	secrets   keystore.Secrets
}

func newProfileEnv(t *testing.T) *profileEnv {
	t.Helper()
	root := t.TempDir()
	return &profileEnv{t: t, configDir: filepath.Join(root, "config"), stateDir: filepath.Join(root, "state"), secrets: keystore.NewMemory()}
}

// run runs tesouro with args and stdin, and returns the exit code and
// both outputs.
func (e *profileEnv) run(stdin string, args ...string) (int, string, string) {
	e.t.Helper()
	var out, errOut bytes.Buffer
	env := map[string]string{"TESOURO_CONFIG_DIR": e.configDir, "XDG_STATE_HOME": e.stateDir, "HOME": filepath.Dir(e.configDir)}
	f := New(IOStreams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}, func(k string) string { return env[k] }, Build{})
	f.Secrets = func() keystore.Secrets { return e.secrets }
	code := ExitCode(f.Execute(context.Background(), args))
	return code, out.String(), errOut.String()
}

func (e *profileEnv) mustRun(stdin string, args ...string) string {
	e.t.Helper()
	code, out, errOut := e.run(stdin, args...)
	if code != 0 {
		e.t.Fatalf("tesouro %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func (e *profileEnv) config() *keystore.Config {
	e.t.Helper()
	cfg, err := keystore.Load(e.configDir)
	if err != nil {
		e.t.Fatal(err)
	}
	return cfg
}

func writeSecretFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func startTestSandbox(t *testing.T) *sandbox.Running {
	t.Helper()
	r, err := sandbox.Start(sandbox.Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start the sandbox: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func demoAccess(t *testing.T, r *sandbox.Running, name string) sandbox.AccessCredential {
	t.Helper()
	a, ok := r.Creds.Access(name)
	if !ok {
		t.Fatalf("the sandbox has no demo access %q", name)
	}
	return a
}

// operatorKeyFiles writes the sandbox operator's API key and private key to
// files, as a user downloads them.
func operatorKeyFiles(t *testing.T, sb *sandbox.Running) (op sandbox.AccessCredential, keyFile, pemFile string) {
	t.Helper()
	op = demoAccess(t, sb, "operator")
	return op, writeSecretFile(t, "api-key", op.APIKey+"\n"), writeSecretFile(t, "key.pem", op.PrivateKeyPEM)
}

func TestProfileAddWithSandboxOperatorThenShowCheck(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	op, keyFile, pemFile := operatorKeyFiles(t, sb)

	out := e.mustRun("", "profile", "add", "demo", "--base-url", sb.BaseURL, "--api-key-file", keyFile, "--private-key-file", pemFile)
	for _, want := range []string{`Profile "demo" saved: sandbox, api-key`, "You are " + op.Email, "payOut", "It is the active profile"} {
		if !strings.Contains(out, want) {
			t.Errorf("profile add output lacks %q:\n%s", want, out)
		}
	}
	if got, err := e.secrets.Get("demo", keystore.KeyAPIKey); err != nil || got != op.APIKey {
		t.Fatalf("API key in the keyring = %q, %v", got, err)
	}
	if got, _ := e.secrets.Get("demo", keystore.KeyPrivateKey); got != op.PrivateKeyPEM {
		t.Fatal("the private key in the keyring is not the one given")
	}
	p, err := e.config().Lookup("")
	if err != nil || p.Name != "demo" || p.Email != op.Email || p.Env != keystore.EnvSandbox {
		t.Fatalf("active profile = %+v, %v", p, err)
	}

	out = e.mustRun("", "profile", "show", "demo", "--check")
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"demo (active)", "API key: stored", "ed25519", "Check: authenticated", "Access e-mail: " + op.Email, "Permissions: payIn, payOut"} {
		if !strings.Contains(flat, want) {
			t.Errorf("profile show --check lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, op.APIKey) || strings.Contains(out, "PRIVATE KEY") {
		t.Fatalf("profile show printed a secret:\n%s", out)
	}
}

func TestProfileAddRefusesCredentialsTheServiceRejects(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	op := demoAccess(t, sb, "operator")
	other := demoAccess(t, sb, "viewer")
	// The operator's API key with another access's private key: the
	// signature cannot verify.
	keyFile := writeSecretFile(t, "api-key", op.APIKey)
	pemFile := writeSecretFile(t, "key.pem", other.PrivateKeyPEM)
	code, _, errOut := e.run("", "profile", "add", "demo", "--base-url", sb.BaseURL, "--api-key-file", keyFile, "--private-key-file", pemFile)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errOut)
	}
	if !strings.Contains(errOut, "refused the credentials") || !strings.Contains(errOut, "Nothing was saved") {
		t.Fatalf("stderr does not explain the refusal:\n%s", errOut)
	}
	if len(e.config().Profiles) != 0 {
		t.Fatal("a refused profile was saved")
	}
	if _, err := e.secrets.Get("demo", keystore.KeyAPIKey); !errors.Is(err, keystore.ErrNotStored) {
		t.Fatalf("a refused API key was stored: %v", err)
	}
}

func TestProfileAddCommandLineChecks(t *testing.T) {
	e := newProfileEnv(t)
	keyFile := writeSecretFile(t, "api-key", "k")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"profile", "add", "p", "--base-url", "http://127.0.0.1:8443", "--env", "production", "--api-key-file", keyFile}, "production profile must use https"},
		{[]string{"profile", "add", "p", "--base-url", "http://api.example.com", "--env", "sandbox", "--api-key-file", keyFile}, "non-local host"},
		{[]string{"profile", "add", "p", "--base-url", "https://api.example.com", "--api-key-file", keyFile}, "--env is required"},
		{[]string{"profile", "add", "p", "--base-url", "https://api.example.com", "--env", "production", "--jwt"}, "--jwt needs --email"},
		{[]string{"profile", "add", "p", "--env", "production"}, "--base-url is required"},
		{[]string{"profile", "add", "--base-url", "https://x.io"}, "give the profile NAME"},
		{[]string{"profile", "add", "p", "--base-url", "https://x.io", "--env", "sandbox", "--api-key", "sk_live_secret"}, "unknown flag"},
		{[]string{"profile", "add", "p", "--base-url", "https://x.io", "--env", "sandbox", "sk_live_secret"}, "unexpected argument"},
		{[]string{"profile", "frobnicate"}, "unknown command"},
		{[]string{"profile", "add", "p", "--base-url", "https://x.io", "--env", "sandbox", "--jwt", "--email", "not-an-address"}, "--email"},
		{[]string{"profile", "add", "p", "--base-url", "https://x.io", "--env", "sandbox", "--api-key-file", "-", "--private-key-file", "-"}, "only one of"},
	}
	for _, tc := range cases {
		code, _, errOut := e.run("", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("tesouro %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
		if strings.Contains(errOut, "sk_live_secret") {
			t.Errorf("a secret given on the command line was echoed: %q", errOut)
		}
	}
	if len(e.config().Profiles) != 0 {
		t.Fatal("a refused command saved a profile")
	}
}

func TestProfileAddProductionSaysSo(t *testing.T) {
	e := newProfileEnv(t)
	keyFile := writeSecretFile(t, "api-key", "live-key")
	pemFile := writeSecretFile(t, "key.pem", mustKeyPEM(t, "ecdsa"))
	code, out, errOut := e.run("", "profile", "add", "live", "--base-url", "https://api.example.com/", "--env", "production",
		"--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify", "--readonly")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "PRODUCTION") || !strings.Contains(errOut, "real money") {
		t.Fatalf("adding a production profile did not say so:\n%s", errOut)
	}
	if !strings.Contains(out, "PRODUCTION (real money)") || !strings.Contains(out, "Not verified") {
		t.Fatalf("summary:\n%s", out)
	}
	p, _ := e.config().Lookup("live")
	if p.BaseURL != "https://api.example.com" || !p.ReadOnly || !p.Production() {
		t.Fatalf("saved profile = %+v", p)
	}
	list := e.mustRun("", "profile", "list")
	if !strings.Contains(list, "* ") || !strings.Contains(list, "PRODUCTION") || !strings.Contains(list, "read-only") {
		t.Fatalf("profile list:\n%s", list)
	}
	// Same name again: refused without --replace.
	code, _, errOut = e.run("", "profile", "add", "live", "--base-url", "https://api.example.com", "--env", "production",
		"--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify")
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Fatalf("duplicate add: exit %d, %s", code, errOut)
	}
}

func TestProfileListUseRemove(t *testing.T) {
	e := newProfileEnv(t)
	if out := e.mustRun("", "profile", "list"); !strings.Contains(out, "No profiles") {
		t.Fatalf("empty list:\n%s", out)
	}
	keyFile := writeSecretFile(t, "api-key", "key-a")
	pemFile := writeSecretFile(t, "key.pem", mustKeyPEM(t, "ed25519"))
	e.mustRun("", "profile", "add", "a", "--base-url", "http://127.0.0.1:1", "--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify")
	e.mustRun("", "profile", "add", "b", "--base-url", "http://localhost:2", "--jwt", "--email", "b@example.com", "--no-verify")
	if cfg := e.config(); cfg.Active != "a" {
		t.Fatalf("active = %q, want the first profile", cfg.Active)
	}
	if out := e.mustRun("", "profile", "use", "b"); !strings.Contains(out, "Active profile: b") {
		t.Fatalf("use: %s", out)
	}
	if cfg := e.config(); cfg.Active != "b" {
		t.Fatalf("active after use = %q", cfg.Active)
	}
	if code, _, errOut := e.run("", "profile", "use", "zzz"); code != 1 || !strings.Contains(errOut, "unknown profile") {
		t.Fatalf("use of an unknown profile: %d %s", code, errOut)
	}
	out := e.mustRun("", "profile", "remove", "a")
	if !strings.Contains(out, "secrets deleted") {
		t.Fatalf("remove: %s", out)
	}
	for _, k := range []string{keystore.KeyAPIKey, keystore.KeyPrivateKey} {
		if _, err := e.secrets.Get("a", k); !errors.Is(err, keystore.ErrNotStored) {
			t.Fatalf("remove left the %s in the keyring: %v", k, err)
		}
	}
	if _, err := e.config().Lookup("a"); err == nil {
		t.Fatal("remove left the profile in config.toml")
	}
	e.mustRun("", "profile", "remove", "b")
	if cfg := e.config(); cfg.Active != "" || len(cfg.Profiles) != 0 {
		t.Fatalf("after removing everything: %+v", cfg)
	}
	if code, _, _ := e.run("", "profile", "remove", "b"); code != 1 {
		t.Fatal("removing a profile that does not exist succeeded")
	}
}

// The whole JWT journey: add (which logs in), login again, use; then no
// secret may appear in any file Tesouro wrote, nor in what it printed.
func TestJWTProfileLoginUseLeaksNoSecret(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	acc := demoAccess(t, sb, "approver1")
	creds := acc.Password + "\n" + acc.EmailToken + "\n"

	_, out, errOut := e.run(creds, "profile", "add", "jwt", "--base-url", sb.BaseURL, "--jwt", "--email", acc.Email)
	if !strings.Contains(out, "You are "+acc.Email) {
		t.Fatalf("profile add --jwt:\nstdout: %s\nstderr: %s", out, errOut)
	}
	firstRefresh, err := e.secrets.Get("jwt", keystore.KeyRefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	printed := out + errOut
	out = e.mustRun(creds, "login", "--profile", "jwt")
	if !strings.Contains(out, "Logged in to jwt as "+acc.Email) {
		t.Fatalf("login: %s", out)
	}
	refresh, _ := e.secrets.Get("jwt", keystore.KeyRefreshToken)
	access, _ := e.secrets.Get("jwt", keystore.KeyAccessToken)
	if refresh == "" || refresh == firstRefresh || access == "" {
		t.Fatal("login did not store a new token pair")
	}
	printed += out + e.mustRun("", "profile", "use", "jwt")
	printed += e.mustRun("", "profile", "show", "--check")

	secrets := map[string]string{"password": acc.Password, "e-mailed token": acc.EmailToken,
		"refresh token": refresh, "first refresh token": firstRefresh, "access token": access}
	assertNoSecretIn(t, secrets, printed, e.configDir, e.stateDir)
}

// A stale access token is refreshed on the first 401 and the rotated pair
// is written back to the keyring.
func TestShowCheckPersistsRotatedTokens(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	acc := demoAccess(t, sb, "approver2")
	e.mustRun(acc.Password+"\n"+acc.EmailToken+"\n", "profile", "add", "jwt", "--base-url", sb.BaseURL, "--jwt", "--email", acc.Email)
	oldRefresh, _ := e.secrets.Get("jwt", keystore.KeyRefreshToken)
	if err := e.secrets.Set("jwt", keystore.KeyAccessToken, "expired-or-revoked"); err != nil {
		t.Fatal(err)
	}
	out := e.mustRun("", "profile", "show", "jwt", "--check")
	if !strings.Contains(out, acc.Email) {
		t.Fatalf("check: %s", out)
	}
	newAccess, _ := e.secrets.Get("jwt", keystore.KeyAccessToken)
	newRefresh, _ := e.secrets.Get("jwt", keystore.KeyRefreshToken)
	if newAccess == "expired-or-revoked" || newAccess == "" {
		t.Fatal("the refreshed access token was not persisted")
	}
	if newRefresh == "" || newRefresh == oldRefresh {
		t.Fatal("the rotated refresh token was not persisted")
	}
	// The next run works with what was persisted (the old refresh token
	// is spent).
	if err := e.secrets.Set("jwt", keystore.KeyAccessToken, "expired-again"); err != nil {
		t.Fatal(err)
	}
	e.mustRun("", "profile", "show", "jwt", "--check")
}

// assertNoSecretIn fails when any secret appears in printed or in any file
// under dirs.
func assertNoSecretIn(t *testing.T, secrets map[string]string, printed string, dirs ...string) {
	t.Helper()
	check := func(where, content string) {
		for what, s := range secrets {
			if s != "" && strings.Contains(content, s) {
				t.Errorf("the %s appears in %s", what, where)
			}
		}
	}
	check("the command output", printed)
	files := 0
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("read %s: %v", path, err)
				return nil
			}
			files++
			check(path, string(b))
			return nil
		})
	}
	if files == 0 {
		t.Fatal("no file was written: nothing was checked")
	}
}

// Secrets come from a file, from stdin ("-"), or from the next stdin line
// when no file is named (a no-echo prompt on a terminal).
func TestProfileAddReadsSecretsFromStdin(t *testing.T) {
	e := newProfileEnv(t)
	pemText := mustKeyPEM(t, "ed25519")
	pemFile := writeSecretFile(t, "key.pem", pemText)
	e.mustRun("key-from-line\n", "profile", "add", "a", "--base-url", "http://127.0.0.1:9", "--private-key-file", pemFile, "--no-verify")
	if v, _ := e.secrets.Get("a", keystore.KeyAPIKey); v != "key-from-line" {
		t.Fatalf("API key from the stdin line = %q", v)
	}
	keyFile := writeSecretFile(t, "api-key", "key-from-file")
	e.mustRun(pemText, "profile", "add", "b", "--base-url", "http://127.0.0.1:9", "--api-key-file", keyFile, "--private-key-file", "-", "--no-verify")
	if v, _ := e.secrets.Get("b", keystore.KeyPrivateKey); v != pemText {
		t.Fatal("the private key read from stdin was not stored whole")
	}
	code, _, errOut := e.run("", "profile", "add", "c", "--base-url", "http://127.0.0.1:9", "--private-key-file", pemFile, "--no-verify")
	if code != 1 || !strings.Contains(errOut, "--api-key-file") {
		t.Fatalf("no API key anywhere: exit %d, %s", code, errOut)
	}
	code, _, errOut = e.run("", "profile", "add", "d", "--base-url", "http://127.0.0.1:9", "--api-key-file", writeSecretFile(t, "k2", "two words"), "--private-key-file", pemFile, "--no-verify")
	if code != 1 || !strings.Contains(errOut, "only the key") {
		t.Fatalf("malformed API key file: exit %d, %s", code, errOut)
	}
}

// The webhook commands act on the main account whatever sub-account the
// profile opens on, so a default sub-account that is gone (deleted,
// renamed) does not stop them; the commands that act on it still say so.
func TestWebhookCommandsIgnoreAProfilesMissingSubAccount(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	_, keyFile, pemFile := operatorKeyFiles(t, sb)
	e.mustRun("", "profile", "add", "demo", "--base-url", sb.BaseURL, "--api-key-file", keyFile, "--private-key-file", pemFile, "--sub-account", "Gone Ltda", "--no-verify")
	if p, err := e.config().Lookup("demo"); err != nil || p.SubAccount != "Gone Ltda" {
		t.Fatalf("profile = %+v, %v: the test needs a default sub-account", p, err)
	}
	out := e.mustRun("", "webhooks", "list", "--json")
	var hooks []struct{ ID, URL string }
	if err := json.Unmarshal([]byte(out), &hooks); err != nil || len(hooks) == 0 {
		t.Fatalf("webhooks list: %s (%v), want the main account's webhooks", out, err)
	}
	if code, _, errOut := e.run("", "balances"); code == 0 || !strings.Contains(errOut, "Gone Ltda") {
		t.Fatalf("balances on a profile whose sub-account is gone: exit %d, %s", code, errOut)
	}
}

func TestScriptedWritesRefusedOnProductionUnlessAllowed(t *testing.T) {
	e := newProfileEnv(t)
	key := writeSecretFile(t, "api-key", "k")
	pem := writeSecretFile(t, "key.pem", mustKeyPEM(t, "ed25519"))
	e.mustRun("", "profile", "add", "live", "--base-url", "https://api.example.com", "--env", "production", "--api-key-file", key, "--private-key-file", pem, "--no-verify")
	code, _, errOut := e.run("", "--profile", "live", "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--external-id", "x", "--yes")
	if code != exitRuntime || !strings.Contains(errOut, "does not allow scripted writes") {
		t.Fatalf("scripted create on production: exit %d %q", code, errOut)
	}
	code, _, errOut = e.run("", "--profile", "live", "tickets", "cancel", "7f3c0d2e-5b8a-4c1f-9e6d-2a4b8c0e1f3a", "--yes")
	if code != exitRuntime || !strings.Contains(errOut, "does not allow scripted writes") {
		t.Fatalf("scripted cancel on production: exit %d %q", code, errOut)
	}
	// Allowed, it gets as far as the network (which is not there).
	e.mustRun("", "profile", "add", "live", "--base-url", "https://127.0.0.1:1", "--env", "production", "--api-key-file", key, "--private-key-file", pem, "--no-verify", "--replace", "--allow-scripted-writes")
	code, _, errOut = e.run("", "--profile", "live", "ticket", "create", "--from", "BRL", "--to", "USDC", "--amount", "10", "--external-id", "x", "--yes")
	if code == 0 || strings.Contains(errOut, "scripted writes") {
		t.Fatalf("allowed scripted create: exit %d %q", code, errOut)
	}
}

// --debug traces the exchanges of profile add, profile show --check and
// login as it does every command's, on stderr: method, URL, status,
// latency, headers and bodies, with the key, the signature, the password,
// the e-mailed token and the token pair redacted.
func TestDebugTracesProfileAndLoginExchangesWithoutSecrets(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	op, keyFile, pemFile := operatorKeyFiles(t, sb)
	accessInfo := "method=GET url=" + sb.BaseURL + "/v2/account/access-info status=200 latency="

	var traces string
	trace := func(stdin string, wants []string, args ...string) {
		t.Helper()
		code, out, errOut := e.run(stdin, args...)
		if code != 0 {
			t.Fatalf("tesouro %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		for _, want := range wants {
			if !strings.Contains(errOut, want) {
				t.Errorf("tesouro %s: the trace lacks %s:\n%s", strings.Join(args, " "), want, errOut)
			}
		}
		traces += out + errOut
	}
	trace("", []string{accessInfo, "request.header.X-Api-Key=REDACTED", "request.header.X-Api-Signature=REDACTED", `response.body="{`},
		"profile", "add", "demo", "--base-url", sb.BaseURL, "--api-key-file", keyFile, "--private-key-file", pemFile, "--debug")
	trace("", []string{accessInfo, "request.header.X-Api-Key=REDACTED"}, "profile", "show", "demo", "--check", "--debug")

	acc := demoAccess(t, sb, "approver1")
	login := acc.Password + "\n" + acc.EmailToken + "\n"
	jwtWants := []string{
		"method=POST url=" + sb.BaseURL + "/v2/auth/login status=", `\"password\":\"REDACTED\"`,
		"method=POST url=" + sb.BaseURL + "/v2/auth/validate-login status=200", `\"emailToken\":\"REDACTED\"`,
		`\"accessToken\":\"REDACTED\"`, `\"refreshToken\":\"REDACTED\"`, accessInfo, "request.header.Authorization=REDACTED",
	}
	trace(login, jwtWants, "profile", "add", "jwt", "--base-url", sb.BaseURL, "--jwt", "--email", acc.Email, "--debug")
	first, _ := e.secrets.Get("jwt", keystore.KeyRefreshToken)
	trace(login, jwtWants, "login", "--profile", "jwt", "--debug")
	refresh, _ := e.secrets.Get("jwt", keystore.KeyRefreshToken)
	access, _ := e.secrets.Get("jwt", keystore.KeyAccessToken)
	trace("", []string{accessInfo, "request.header.Authorization=REDACTED"}, "profile", "show", "jwt", "--check", "--debug")

	for what, secret := range map[string]string{"API key": op.APIKey, "private key": "PRIVATE KEY", "password": acc.Password,
		"e-mailed token": acc.EmailToken, "first refresh token": first, "refresh token": refresh, "access token": access} {
		if secret == "" {
			t.Fatalf("no %s to look for", what)
		}
		if strings.Contains(traces, secret) {
			t.Errorf("the trace holds the %s", what)
		}
	}
}
