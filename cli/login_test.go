package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/keystore"
)

func TestLoginWithAWrongTokenStoresNothing(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	acc := demoAccess(t, sb, "approver1")
	e.mustRun("", "profile", "add", "jwt", "--base-url", sb.BaseURL, "--jwt", "--email", acc.Email, "--no-verify")
	code, _, errOut := e.run(acc.Password+"\n000000\n", "login", "--profile", "jwt")
	if code != 1 || !strings.Contains(errOut, "validate the e-mailed token") {
		t.Fatalf("wrong token: exit %d, %s", code, errOut)
	}
	if _, err := e.secrets.Get("jwt", keystore.KeyRefreshToken); !errors.Is(err, keystore.ErrNotStored) {
		t.Fatalf("a failed login stored a token: %v", err)
	}
	code, _, errOut = e.run("", "login", "--profile", "jwt")
	if code != 1 || !strings.Contains(errOut, "stdin has no line") {
		t.Fatalf("no password on stdin: exit %d, %s", code, errOut)
	}
}

func TestLoginRefusesAPIKeyProfiles(t *testing.T) {
	e := newProfileEnv(t)
	keyFile := writeSecretFile(t, "api-key", "k")
	pemFile := writeSecretFile(t, "key.pem", mustKeyPEM(t, "ed25519"))
	e.mustRun("", "profile", "add", "a", "--base-url", "http://127.0.0.1:9", "--api-key-file", keyFile, "--private-key-file", pemFile, "--no-verify")
	code, _, errOut := e.run("", "login")
	if code != 1 || !strings.Contains(errOut, "needs no login") {
		t.Fatalf("login on an api-key profile: exit %d, %s", code, errOut)
	}
	if code, _, errOut := e.run("", "login", "--profile", "nope"); code != 1 || !strings.Contains(errOut, "unknown profile") {
		t.Fatalf("login on an unknown profile: exit %d, %s", code, errOut)
	}
}
