package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/internal/totp"
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
// password and logs in, and the service gives them payIn and nothing else;
// the admin revokes them on the screen, and their next request is refused.
func TestE2EAdminInvitesThenRevokes(t *testing.T) {
	sb, creds := startSandbox(t)
	const email = "new.payer@demo.test"
	tm := openAs(t, creds, "admin")
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
