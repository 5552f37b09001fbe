package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/internal/totp"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// currentCode is the TOTP code of a demo access now.
func currentCode(t *testing.T, acc sandbox.AccessCredential) string {
	t.Helper()
	secret, err := totp.Decode(acc.TOTPSecret)
	if err != nil {
		t.Fatal(err)
	}
	return totp.Code(secret, time.Now())
}

func TestParsePermissions(t *testing.T) {
	p, err := parsePermissions("payin, CONVERT,manageAccesses")
	if err != nil || !p.PayIn || !p.Convert || !p.ManageAccesses || p.PayOut {
		t.Fatalf("parse = %+v, %v", p, err)
	}
	if p, err := parsePermissions("none"); err != nil || p != (api.Permissions{}) {
		t.Errorf("none = %+v, %v", p, err)
	}
	for _, bad := range []string{"", "payIn,fly", "admin"} {
		if _, err := parsePermissions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	grants, removes := permissionChanges(api.Permissions{PayIn: true, PayOut: true}, api.Permissions{PayIn: true, Convert: true})
	if len(grants) != 1 || !strings.HasPrefix(grants[0], "convert (") || len(removes) != 1 || !strings.HasPrefix(removes[0], "payOut (") {
		t.Errorf("changes = %v / %v", grants, removes)
	}
}

// TestTeamCommandsInviteRotateAndRevoke drives the team commands as a
// script does: an invitation with the code read from stdin, a key made on
// the spot into a new profile (its private key never printed), the old
// key revoked from the new profile, and the journal holding every write
// without the codes.
func TestTeamCommandsInviteRotateAndRevoke(t *testing.T) {
	e := newProfileEnv(t)
	creds, c := sandboxCredentials(t, 1)
	admin, _ := c.Access("admin")
	as := func(args ...string) []string {
		return append([]string{"--credentials", creds, "--as", "admin"}, args...)
	}

	// Without --otp the code is read from stdin (a terminal would ask
	// without echo).
	code := currentCode(t, admin)
	var invited struct{ ID, Email, Permissions string }
	if err := json.Unmarshal([]byte(e.mustRun(code+"\n", as("access", "invite", "ana@acme-treasury.example", "--permissions", "payIn", "--yes", "--json")...)), &invited); err != nil || invited.ID == "" {
		t.Fatalf("invite: %+v, %v", invited, err)
	}
	wrong := "000000"
	if totp.Valid(mustDecode(t, admin.TOTPSecret), wrong, time.Now()) {
		wrong = "111111"
	}
	if n, _, errOut := e.run("", as("access", "invite", "bo@acme-treasury.example", "--permissions", "payIn", "--otp", wrong, "--yes")...); n != 1 || !strings.Contains(errOut, "INVALID_OTP") {
		t.Errorf("a wrong code: exit %d, %s", n, errOut)
	}
	if n, _, errOut := e.run("", "--credentials", creds, "access", "invite", "bo@acme-treasury.example", "--permissions", "payIn", "--otp", code, "--yes"); n != 1 || !strings.Contains(errOut, "manageAccesses") {
		t.Errorf("the operator invited: exit %d, %s", n, errOut)
	}
	if n, _, errOut := e.run("", as("access", "invite", "bo@acme-treasury.example", "--permissions", "payIn")...); n != 2 || !strings.Contains(errOut, "--yes") {
		t.Errorf("no terminal and no --yes: exit %d, %s", n, errOut)
	}

	// A key pair made on the spot, stored in a new profile.
	out := e.mustRun("", as("apikey", "create", "ci", "--new-profile", "admin-ci", "--ip", "127.0.0.1", "--otp", currentCode(t, admin), "--yes", "--json")...)
	priv, err := e.secrets.Get("admin-ci", keystore.KeyPrivateKey)
	if err != nil || !strings.Contains(priv, "PRIVATE KEY") {
		t.Fatalf("the private key is not in the keyring: %v", err)
	}
	key, err := e.secrets.Get("admin-ci", keystore.KeyAPIKey)
	if err != nil || key == "" {
		t.Fatalf("the API key is not in the keyring: %v", err)
	}
	if strings.Contains(out, "PRIVATE") || strings.Contains(out, key) {
		t.Errorf("apikey create printed a secret:\n%s", out)
	}
	if p, err := e.config().Lookup("admin-ci"); err != nil || p.Auth != keystore.AuthAPIKey || p.Env != keystore.EnvSandbox {
		t.Fatalf("profile admin-ci = %+v, %v", p, err)
	}
	listed := e.mustRun("", "--profile", "admin-ci", "apikey", "list", "--json")
	if !strings.Contains(listed, `"ci"`) || !strings.Contains(listed, `"demo admin"`) || strings.Contains(listed, key) {
		t.Errorf("apikey list from the new profile:\n%s", listed)
	}

	// The old key revoked from the new profile: the old one stops.
	e.mustRun("", "--profile", "admin-ci", "apikey", "revoke", "demo admin", "--otp", currentCode(t, admin), "--yes")
	if n, _, errOut := e.run("", as("access", "list")...); n != 1 || !strings.Contains(errOut, "401") {
		t.Errorf("the revoked key still works: exit %d, %s", n, errOut)
	}

	// The invitee revoked.
	e.mustRun("", "--profile", "admin-ci", "access", "revoke", invited.ID, "--otp", currentCode(t, admin), "--yes")
	if strings.Contains(e.mustRun("", "--profile", "admin-ci", "access", "list", "--json"), invited.ID) {
		t.Error("the revoked access is still listed")
	}

	j, err := journal.Open(filepath.Join(e.stateDir, "tesouro"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := journal.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	actions := map[string]int{}
	for _, en := range entries {
		actions[en.Action]++
		line, _ := json.Marshal(en)
		if strings.Contains(string(line), `"otp"`) || strings.Contains(string(line), key) || strings.Contains(string(line), "PRIVATE") {
			t.Errorf("a journal line holds a secret: %s", line)
		}
	}
	for _, a := range []string{"access-invite", "apikey-create", "apikey-revoke", "access-revoke"} {
		if actions[a] == 0 {
			t.Errorf("no journal line for %s (lines: %v)", a, actions)
		}
	}
}

func mustDecode(t *testing.T, s string) []byte {
	t.Helper()
	b, err := totp.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLoginAsksForTheTOTPCodeAndLogoutEndsTheSession: the sandbox's admin
// has a second factor, so login asks for its code after the e-mailed
// token; logout ends the session at the service and empties the keyring.
func TestLoginAsksForTheTOTPCodeAndLogoutEndsTheSession(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	acc := demoAccess(t, sb, "admin")
	e.mustRun("", "profile", "add", "ops", "--base-url", sb.BaseURL, "--jwt", "--email", acc.Email, "--no-verify")
	if n, _, errOut := e.run(acc.Password+"\n"+acc.EmailToken+"\n", "login", "--profile", "ops"); n != 1 || !strings.Contains(errOut, "TOTP") {
		t.Fatalf("login without a code: exit %d, %s", n, errOut)
	}
	out := e.mustRun(acc.Password+"\n"+acc.EmailToken+"\n"+currentCode(t, acc)+"\n", "login", "--profile", "ops")
	if !strings.Contains(out, "Logged in") {
		t.Fatalf("login: %s", out)
	}
	refresh, err := e.secrets.Get("ops", keystore.KeyRefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	e.mustRun("", "--profile", "ops", "access", "list")
	if out := e.mustRun("", "logout", "--profile", "ops"); !strings.Contains(out, "Logged out") {
		t.Errorf("logout: %s", out)
	}
	if _, err := e.secrets.Get("ops", keystore.KeyRefreshToken); !errors.Is(err, keystore.ErrNotStored) {
		t.Errorf("the refresh token stayed in the keyring: %v", err)
	}
	anon, err := api.New(sb.BaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = anon.RefreshTokens(context.Background(), refresh)
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Errorf("the logged-out refresh token: %v", err)
	}
	if out := e.mustRun("", "logout", "--profile", "ops"); !strings.Contains(out, "no session") {
		t.Errorf("a second logout: %s", out)
	}
}
