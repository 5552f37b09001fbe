package clitest

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/internal/sstest"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// TestMain gives the tests a real, private Secret Service; the binary run
// by each test reaches it through the environment.
func TestMain(m *testing.M) { os.Exit(sstest.Run(m)) }

// These tests drive the built tesouro binary, as a user would, against the
// real Secret Service of TestMain and a sandbox served over loopback.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func tesouroBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binPath = filepath.Join(sstest.Base(), "tesouro")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = "../.." // the module root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New(string(out) + err.Error())
		}
	})
	if buildErr != nil {
		t.Fatalf("build tesouro: %v", buildErr)
	}
	return binPath
}

type cliRun struct {
	t    *testing.T
	bin  string
	env  []string
	conf string
	st   string
	all  strings.Builder // everything printed, for the leak check
}

func newCLIRun(t *testing.T, ss *sstest.Service) *cliRun {
	dir := t.TempDir()
	r := &cliRun{t: t, bin: tesouroBinary(t), conf: filepath.Join(dir, "config"), st: filepath.Join(dir, "state")}
	r.env = append(append([]string{}, ss.Env...), "TESOURO_CONFIG_DIR="+r.conf, "XDG_STATE_HOME="+r.st)
	return r
}

func (r *cliRun) run(stdin string, args ...string) (int, string, string) {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env, cmd.Stdin = r.env, strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	r.all.WriteString(out.String() + errOut.String())
	return code, out.String(), errOut.String()
}

func (r *cliRun) mustRun(stdin string, args ...string) string {
	r.t.Helper()
	code, out, errOut := r.run(stdin, args...)
	if code != 0 {
		r.t.Fatalf("tesouro %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func secretFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret")
	must(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

func TestCLIProfilesAgainstRealKeyringAndSandbox(t *testing.T) {
	ss := sstest.Need(t)
	sb, err := sandbox.Start(sandbox.Config{Seed: 7}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	op, _ := sb.Creds.Access("operator")
	jw, _ := sb.Creds.Access("approver1")
	r := newCLIRun(t, ss)
	kr := keystore.OSKeyring() // the same private bus as the binary

	// API-key profile with the demo operator's key, then a check.
	out := r.mustRun("", "profile", "add", "it-op", "--base-url", sb.BaseURL,
		"--api-key-file", secretFile(t, op.APIKey), "--private-key-file", secretFile(t, op.PrivateKeyPEM))
	if !strings.Contains(out, "You are "+op.Email) {
		t.Fatalf("profile add: %s", out)
	}
	t.Cleanup(func() { r.run("", "profile", "remove", "it-op", "--force") })
	if v, err := kr.Get("it-op", keystore.KeyAPIKey); err != nil || v != op.APIKey {
		t.Fatalf("the API key is not in the real keyring under tesouro:it-op: %v", err)
	}
	out = r.mustRun("", "profile", "show", "it-op", "--check")
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "Access e-mail: "+op.Email) || !strings.Contains(flat, "Permissions: payIn, payOut") {
		t.Fatalf("profile show --check: %s", out)
	}

	// JWT profile: add (logs in), login again, use.
	creds := jw.Password + "\n" + jw.EmailToken + "\n"
	r.mustRun(creds, "profile", "add", "it-jwt", "--base-url", sb.BaseURL, "--jwt", "--email", jw.Email)
	t.Cleanup(func() { r.run("", "profile", "remove", "it-jwt", "--force") })
	firstRefresh, _ := kr.Get("it-jwt", keystore.KeyRefreshToken)
	r.mustRun(creds, "login", "--profile", "it-jwt")
	r.mustRun("", "profile", "use", "it-jwt")
	out = r.mustRun("", "profile", "show", "--check")
	if !strings.Contains(out, "it-jwt (active)") || !strings.Contains(out, jw.Email) {
		t.Fatalf("show --check of the active jwt profile: %s", out)
	}
	refresh, err1 := kr.Get("it-jwt", keystore.KeyRefreshToken)
	access, err2 := kr.Get("it-jwt", keystore.KeyAccessToken)
	if err1 != nil || err2 != nil || refresh == firstRefresh {
		t.Fatalf("login did not store a new pair in the real keyring: %v %v", err1, err2)
	}

	// No secret in config, state (logs, journal) or anything printed.
	secrets := map[string]string{"API key": op.APIKey, "password": jw.Password, "e-mailed token": jw.EmailToken,
		"refresh token": refresh, "first refresh token": firstRefresh, "access token": access}
	if b, _ := pem.Decode([]byte(op.PrivateKeyPEM)); b != nil {
		body := strings.Split(strings.TrimSpace(op.PrivateKeyPEM), "\n")
		secrets["private key"] = body[1] // any line of the key body
	}
	scan := func(where, content string) {
		for what, s := range secrets {
			if s != "" && strings.Contains(content, s) {
				t.Errorf("the %s appears in %s", what, where)
			}
		}
	}
	scan("the command output", r.all.String())
	files := 0
	for _, dir := range []string{r.conf, r.st} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(path)
				files++
				scan(path, string(b))
			}
			return nil
		})
	}
	if files == 0 {
		t.Fatal("no file was written: nothing was checked")
	}
	if fi, err := os.Stat(filepath.Join(r.conf, keystore.ConfigFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("config.toml: %v, mode %v", err, fi.Mode().Perm())
	}

	// remove deletes the secrets from the real keyring.
	r.mustRun("", "profile", "remove", "it-op")
	if _, err := kr.Get("it-op", keystore.KeyAPIKey); !errors.Is(err, keystore.ErrNotStored) {
		t.Fatalf("after remove, the API key is still in the keyring: %v", err)
	}
}

func TestCLIKeygenRSA4096IntoRealKeyring(t *testing.T) {
	ss := sstest.Need(t)
	r := newCLIRun(t, ss)
	out := r.mustRun("", "keygen", "--profile", "it-rsa", "--type", "rsa", "--bits", "4096")
	t.Cleanup(func() { r.run("", "profile", "remove", "it-rsa", "--force") })
	block, _ := pem.Decode([]byte(out))
	if block == nil {
		t.Fatalf("no public key printed: %s", out)
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := keystore.OSKeyring().Get("it-rsa", keystore.KeyPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) <= keystore.EntryLimit {
		t.Fatalf("an RSA-4096 PEM of %d bytes should need splitting", len(stored))
	}
	signer, err := api.ParsePrivateKey([]byte(stored))
	if err != nil {
		t.Fatal(err)
	}
	if !signer.Public().(interface{ Equal(crypto.PublicKey) bool }).Equal(pub) {
		t.Fatal("the keyring holds a different key from the public key printed")
	}
	out = r.mustRun("", "profile", "remove", "it-rsa")
	if !strings.Contains(out, "deleted its 1 secret") {
		t.Fatalf("remove of a keygen-only profile: %s", out)
	}
	if out, err := ss.Tool("search", "--all", "service", keystore.Service("it-rsa")); err == nil && strings.TrimSpace(out) != "" {
		t.Fatalf("remove left split parts in the keyring: %s", out)
	}
}

// A user whose Secret Service hangs gets an answer within the read bound,
// with the fix, instead of a command that never returns.
func TestCLIHungKeyringMessage(t *testing.T) {
	ss := sstest.Need(t)
	r := newCLIRun(t, ss)
	r.mustRun("", "profile", "add", "it-hang", "--base-url", "http://127.0.0.1:9", "--jwt", "--email", "h@example.com", "--no-verify")
	must(t, syscall.Kill(ss.DaemonPID, syscall.SIGSTOP))
	defer syscall.Kill(ss.DaemonPID, syscall.SIGCONT)
	start := time.Now()
	code, _, errOut := r.run("", "profile", "show", "it-hang")
	elapsed := time.Since(start)
	syscall.Kill(ss.DaemonPID, syscall.SIGCONT)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, errOut)
	}
	for _, want := range []string{"waiting for the keyring", "the keyring did not answer within 5s", "unlock the keyring"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if elapsed > keystore.DefaultReadTimeout+3*time.Second {
		t.Fatalf("the command took %v", elapsed)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
