package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/internal/sstest"
	"github.com/tesouro-treasury/tesouro/internal/totp"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// code is the current TOTP code of the sandbox's demo access name, as its
// authenticator would show it (the service takes the step before and after
// too, so a code typed as it changes still counts).
func code(t *testing.T, sb *sandbox.Running, name string) string {
	t.Helper()
	acc, ok := sb.Creds.Access(name)
	if !ok || acc.TOTPSecret == "" {
		t.Fatalf("no TOTP secret for %s in the sandbox credentials", name)
	}
	secret, err := totp.Decode(acc.TOTPSecret)
	if err != nil {
		t.Fatal(err)
	}
	return totp.Code(secret, time.Now())
}

// outboxToken is the token of the newest sandbox e-mail of kind to email.
func outboxToken(t *testing.T, ctx context.Context, c *api.Client, to, kind string) string {
	t.Helper()
	msgs, err := c.SandboxOutbox(ctx)
	if err != nil {
		t.Fatalf("read the sandbox outbox: %v", err)
	}
	for _, m := range msgs {
		if strings.EqualFold(m.To, to) && strings.Contains(strings.ToLower(m.Kind), kind) {
			return m.Token
		}
	}
	t.Fatalf("no %s e-mail to %s in the outbox: %+v", kind, to, msgs)
	return ""
}

// TestE2EAdminInvitesThenRevokes: the demo admin, on the Accesses screen,
// invites an access with payIn alone (the confirmation says what that
// allows; the TOTP code is asked after the yes); the invited person sets a
// password and logs in, and the service gives them payIn and nothing else
// (a payout is refused by the payment core and by the service);
// the admin revokes them on the screen, and their next request is refused.
func TestE2EAdminInvitesThenRevokes(t *testing.T) {
	sb, creds := startSandbox(t)
	const email = "new.payer@demo.test"
	tm := openAs(t, creds, "admin")
	tm.WaitFor("Your access", 15*time.Second) // the screens are built
	tm.Send("0")
	tm.WaitFor("n invite", 10*time.Second)

	tm.Send("n")
	tm.WaitFor("Invite an access", 5*time.Second)
	tm.Type(email)
	tm.Send("Down", "Right", "C-s")
	tm.WaitFor("Invite "+email+"?", 5*time.Second)
	// The confirmation is drawn whole in one frame: the one that shows
	// payIn shows every flag it grants.
	if s := tm.WaitFor("payIn: may create tickets", 5*time.Second); strings.Contains(s, "payOut:") {
		t.Fatalf("the invitation grants payOut, which was left off:\n%s", s)
	}
	tm.Send("y")
	tm.WaitFor("TOTP code for", 5*time.Second)
	tm.Type(code(t, sb, "admin"))
	tm.Send("Enter")
	tm.WaitFor("Invitation sent to "+email, 10*time.Second)
	tm.WaitFor(email, 10*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	public, err := api.New(sb.BaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	const password = "Correct-Horse-9-Battery"
	if err := public.ValidateInvitation(ctx, outboxToken(t, ctx, public, email, "invit"), password, password); err != nil {
		t.Fatalf("validate the invitation: %v", err)
	}
	if err := public.Login(ctx, email, password); err != nil {
		t.Fatalf("log in as the invited access: %v", err)
	}
	tokens, err := public.ValidateLogin(ctx, email, outboxToken(t, ctx, public, email, "login"))
	if err != nil {
		t.Fatalf("validate the login: %v", err)
	}
	invited, err := api.New(sb.BaseURL, api.NewBearerAuth(*tokens, nil))
	if err != nil {
		t.Fatal(err)
	}
	info, err := invited.AccessInfo(ctx)
	if err != nil {
		t.Fatalf("the invited access cannot read its access: %v", err)
	}
	perms := info.AccountPermissions
	perms.ID, perms.UpdatedAt = "", ""
	if perms != (api.Permissions{PayIn: true}) {
		t.Fatalf("the invited access may %+v, want payIn alone", info.AccountPermissions)
	}
	// It cannot pay out: the payment core refuses before anything is sent
	// (what the dashboard and the command line say), and the service
	// refuses the ticket when it is sent anyway.
	payout := payment.Intent{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX",
		Amount: decimal.NewFromInt(10), Pay: payment.Destination{Kind: payment.ToPixKey, PixKey: "maria@example.com"}, ExternalID: "e2e-payout-1"}
	payOutRefused := false
	for _, r := range payment.Refusals(info, uuid.Nil, payout.Needs(), time.Now()) {
		var denied *payment.DeniedError
		payOutRefused = payOutRefused || (errors.As(r, &denied) && denied.Flag == "payOut")
	}
	if !payOutRefused {
		t.Fatal("the payment core lets a payIn-only access pay out")
	}
	q, err := invited.Quote(ctx, payout.QuoteRequest())
	if err != nil {
		t.Fatalf("quote a payout as the invited access: %v", err)
	}
	req, err := payout.TicketRequest(q)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := invited.CreateTicket(ctx, uuid.Nil, req); !errors.Is(err, api.ErrForbidden) || !strings.Contains(err.Error(), "payOut") {
		t.Fatalf("the service let the invited access pay out, or said something else: %v", err)
	}

	// Revoke it from the screen: the filter keeps its row alone.
	tm.Send("/")
	tm.Type("new.payer")
	tm.Send("Enter")
	tm.Send("d")
	tm.WaitFor("Revoke "+email+"?", 5*time.Second)
	tm.Send("y")
	tm.WaitFor("TOTP code for", 5*time.Second)
	tm.Type(code(t, sb, "admin"))
	tm.Send("Enter")
	tm.WaitFor(email+" revoked", 10*time.Second)

	if _, err := invited.AccessInfo(ctx); !errors.Is(err, api.ErrUnauthenticated) && !errors.Is(err, api.ErrForbidden) {
		t.Fatalf("the revoked access's next request answered %v, want a refusal", err)
	}
}

// TestE2EAdminRotatesAnAPIKey: the admin, acting with the key of the
// sandbox credentials, makes a new API key on the Accesses screen's API
// keys tab (the key pair made on the spot, both secrets straight into the
// OS keyring of a new profile), switches to that profile, revokes the old
// key there, and from then on the old key is refused and the new one
// works. Neither the new API key nor its private key is ever on screen or
// in config.toml.
func TestE2EAdminRotatesAnAPIKey(t *testing.T) {
	needTmux(t)
	ss, err := sstest.Start(filepath.Join(t.TempDir(), "keyring"), sstest.GnomeKeyring)
	if err != nil {
		sstest.Missing(t, err) // skip outside CI when a program is missing
	}
	t.Cleanup(ss.Stop)
	sstest.UseBus(t, ss.Addr) // this process reads the keyring back
	sb, creds := startSandbox(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	old := clientAs(t, sb, "admin")
	keys, err := old.ListAPIKeys(ctx)
	if err != nil || len(keys) != 1 {
		t.Fatalf("the admin's keys: %+v, %v", keys, err)
	}
	oldPrefix := keys[0].APIKey

	config := t.TempDir()
	env := []string{"DBUS_SESSION_BUS_ADDRESS=" + ss.Addr, "TESOURO_CONFIG_DIR=" + config}
	tm := startTUIEnv(t, env, "--credentials", creds, "--as", "admin")
	tm.WaitFor("Your access", 15*time.Second) // the screens are built
	tm.Send("0")
	tm.WaitFor("n invite", 10*time.Second)
	tm.Send("Right")
	tm.WaitFor(oldPrefix, 10*time.Second)
	tm.Send("n")
	tm.WaitFor("New API key", 5*time.Second)
	tm.Type("rotated")
	tm.Send("Down", "Down", "Down") // any IP, ed25519
	tm.Type("admin-2")
	tm.Send("C-s")
	tm.WaitFor(`Create API key "rotated"?`, 5*time.Second)
	tm.Send("y")
	tm.WaitFor("TOTP code for", 5*time.Second)
	tm.Type(code(t, sb, "admin"))
	tm.Send("Enter")
	tm.WaitFor(`API key "rotated" created`, 30*time.Second)
	tm.WaitFor("rotated", 10*time.Second)
	shown := tm.Screen()

	kr := keystore.OSKeyring()
	newKey, err := kr.Get("admin-2", keystore.KeyAPIKey)
	if err != nil {
		t.Fatalf("no API key in the keyring of admin-2: %v", err)
	}
	pemText, err := kr.Get("admin-2", keystore.KeyPrivateKey)
	if err != nil {
		t.Fatalf("no private key in the keyring of admin-2: %v", err)
	}
	cfgText, err := os.ReadFile(filepath.Join(config, "config.toml"))
	if err != nil || !strings.Contains(string(cfgText), `name = "admin-2"`) {
		t.Fatalf("config.toml lacks profile admin-2 (%v):\n%s", err, cfgText)
	}
	body := strings.Split(strings.TrimSpace(pemText), "\n")[1]
	for what, text := range map[string]string{"the screen": shown, "config.toml": string(cfgText)} {
		if strings.Contains(text, newKey) || strings.Contains(text, body) || strings.Contains(text, "PRIVATE KEY") {
			t.Errorf("%s shows a secret of the new key:\n%s", what, text)
		}
	}

	// Switch to the new profile, and revoke the old key from there.
	tm2 := startTUIEnv(t, env, "--profile", "admin-2")
	tm2.WaitFor("profile admin-2", 15*time.Second)
	tm2.WaitFor("Your access", 15*time.Second) // the screens are built
	tm2.Send("0")
	tm2.WaitFor("n invite", 15*time.Second)
	tm2.Send("Right")
	tm2.WaitFor(oldPrefix, 10*time.Second)
	tm2.Send("/")
	tm2.Type(oldPrefix)
	tm2.Send("Enter", "d")
	tm2.WaitFor("Revoke API key "+oldPrefix, 5*time.Second)
	tm2.Send("y")
	tm2.WaitFor("TOTP code for", 5*time.Second)
	tm2.Type(code(t, sb, "admin"))
	tm2.Send("Enter")
	tm2.WaitFor("API key "+oldPrefix, 10*time.Second)
	tm2.WaitFor("revoked", 10*time.Second)

	if _, err := old.AccessInfo(ctx); !errors.Is(err, api.ErrUnauthenticated) && !errors.Is(err, api.ErrForbidden) {
		t.Fatalf("the revoked key's next request answered %v, want a refusal", err)
	}
	auth, err := api.NewAPIKeyAuth(newKey, []byte(pemText))
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := api.New(sb.BaseURL, auth)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := rotated.AccessInfo(ctx); err != nil || !info.AccountPermissions.ManageAccesses {
		t.Fatalf("the new key does not act as the admin: %+v, %v", info, err)
	}
	if s := tm2.Screen(); strings.Contains(s, newKey) {
		t.Errorf("the new API key is on the screen of its profile:\n%s", s)
	}
}
