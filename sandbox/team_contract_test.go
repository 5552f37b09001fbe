package sandbox_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/internal/totp"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Team administration (spec/service.md §8.8) through the client, over
// HTTP, as an integrator drives it.

// otp is the current TOTP code of a demo access on the sandbox clock.
func (e *env) otp(name string) string {
	e.t.Helper()
	secret, err := totp.Decode(e.cred(name).TOTPSecret)
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	return totp.Code(secret, e.clock.Now())
}

// wrongOTP is a well-formed code that is none of the accepted ones now.
func (e *env) wrongOTP(name string) string {
	secret, _ := totp.Decode(e.cred(name).TOTPSecret)
	for _, c := range []string{"000000", "111111", "222222", "333333"} {
		if !totp.Valid(secret, c, e.clock.Now()) {
			return c
		}
	}
	e.t.Fatal("no wrong code found")
	return ""
}

// mailTo is the newest token of kind the outbox holds for to.
func (e *env) mailTo(to, kind string) string {
	e.t.Helper()
	anon := must[*api.Client](e.t)(api.New(e.run.BaseURL, nil))
	for _, m := range must[[]api.OutboxMessage](e.t)(anon.SandboxOutbox(ctx(e.t))) {
		if strings.EqualFold(m.To, to) && m.Kind == kind {
			return m.Token
		}
	}
	e.t.Fatalf("no %s mail to %s in the outbox", kind, to)
	return ""
}

// bearerLogin logs in by password and e-mail token (and TOTP code when
// otp is set) and returns a client on the JWT pair.
func (e *env) bearerLogin(email, password, otp string) (*api.Client, api.Tokens) {
	e.t.Helper()
	anon := must[*api.Client](e.t)(api.New(e.run.BaseURL, nil))
	if err := anon.Login(ctx(e.t), email, password); err != nil {
		e.t.Fatalf("login %s: %v", email, err)
	}
	tok := e.mailTo(email, "login")
	var tk *api.Tokens
	var err error
	if otp == "" {
		tk, err = anon.ValidateLogin(ctx(e.t), email, tok)
	} else {
		tk, err = anon.ValidateLoginOTP(ctx(e.t), email, tok, otp)
	}
	if err != nil {
		e.t.Fatalf("validate login %s: %v", email, err)
	}
	return must[*api.Client](e.t)(api.New(e.run.BaseURL, api.NewBearerAuth(*tk, nil))), *tk
}

func TestTeamInviteValidateLoginRevoke(t *testing.T) {
	var logMu sync.Mutex
	var logged []string
	e := newEnv(t, sandbox.Config{Seed: 3, OnMail: func(to, kind, token string) {
		logMu.Lock()
		defer logMu.Unlock()
		logged = append(logged, to+" "+kind+" "+token)
	}})
	admin, op := e.as("admin"), e.as("operator")
	const mail = "new.colleague@acme-treasury.example"
	payIn := api.Permissions{PayIn: true}

	// Who may invite, and with what.
	_, err := op.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.otp("operator"), Email: mail, Permissions: payIn})
	wantCode(t, err, http.StatusForbidden, "FORBIDDEN")
	_, err = admin.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.wrongOTP("admin"), Email: mail, Permissions: payIn})
	wantCode(t, err, http.StatusForbidden, "INVALID_OTP")
	_, err = admin.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.otp("admin"), Email: "not-an-email", Permissions: payIn})
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")
	_, err = admin.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.otp("admin"), Email: mail, Permissions: api.Permissions{Admin: true}})
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")
	_, err = admin.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.otp("admin"), Email: e.cred("viewer").Email, Permissions: payIn})
	wantCode(t, err, http.StatusConflict, "EMAIL_IN_USE")

	id := must[string](t)(admin.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.otp("admin"), Email: mail, Permissions: payIn}))
	got := must[*api.Access](t)(admin.GetAccess(ctx(t), id))
	if got.Email != mail || !got.AccessPermission.PayIn || got.AccessPermission.PayOut || got.MFA != nil {
		t.Errorf("invited access = %+v", got)
	}
	listed := must[[]api.Access](t)(admin.ListAccesses(ctx(t), api.AccessFilter{}))
	if !slices.ContainsFunc(listed, func(a api.Access) bool { return a.ID == id }) {
		t.Error("the invited access is not listed")
	}

	// The invited person sets a password with the e-mailed token.
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	token := e.mailTo(mail, "invitation")
	logMu.Lock()
	if !slices.Contains(logged, mail+" invitation "+token) {
		t.Errorf("the sandbox's log did not hear the invitation: %q", logged)
	}
	logMu.Unlock()
	wantCode(t, anon.ValidateInvitation(ctx(t), token, "short1", "short1"), http.StatusBadRequest, "INVALID_FIELD")
	wantCode(t, anon.ValidateInvitation(ctx(t), token, "long-enough-1", "long-enough-2"), http.StatusBadRequest, "INVALID_FIELD")
	wantCode(t, anon.ValidateInvitation(ctx(t), "0123abcd", "long-enough-1", "long-enough-1"), http.StatusNotFound, "INVALID_TOKEN")
	if err := anon.ValidateInvitation(ctx(t), token, "long-enough-1", "long-enough-1"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, anon.ValidateInvitation(ctx(t), token, "long-enough-1", "long-enough-1"), http.StatusNotFound, "INVALID_TOKEN")

	// It logs in and acts with exactly what it was given.
	invitee, _ := e.bearerLogin(mail, "long-enough-1", "")
	info := must[*api.AccessInfo](t)(invitee.AccessInfo(ctx(t)))
	if !info.AccountPermissions.PayIn || info.AccountPermissions.PayOut || info.AccountPermissions.ManageAccesses {
		t.Errorf("invitee permissions = %+v", info.AccountPermissions)
	}
	_, err = invitee.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: "123456", Email: "x@acme-treasury.example", Permissions: payIn})
	wantCode(t, err, http.StatusForbidden, "FORBIDDEN")
	// The flags it was not given are refused by the rules, as any access's.
	_, err = invitee.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "mine", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"})
	wantCode(t, err, http.StatusForbidden, "FORBIDDEN")

	// A change of flags holds from the invitee's next request.
	if err := admin.UpdateAccessPermissions(ctx(t), id, e.otp("admin"), api.Permissions{PayIn: true, Convert: true}); err != nil {
		t.Fatal(err)
	}
	if info := must[*api.AccessInfo](t)(invitee.AccessInfo(ctx(t))); !info.AccountPermissions.Convert {
		t.Errorf("after the change, permissions = %+v", info.AccountPermissions)
	}
	wantCode(t, admin.UpdateAccessPermissions(ctx(t), "7f1c9a52-0000-4000-8000-000000000000", e.otp("admin"), payIn), http.StatusNotFound, "NOT_FOUND")

	// Revocation: the invitee's very next request is refused.
	wantCode(t, op.RevokeAccess(ctx(t), id, e.otp("operator")), http.StatusForbidden, "FORBIDDEN")
	if err := admin.RevokeAccess(ctx(t), id, e.otp("admin")); err != nil {
		t.Fatal(err)
	}
	_, err = invitee.AccessInfo(ctx(t))
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
	_, err = admin.GetAccess(ctx(t), id)
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
	wantCode(t, anon.Login(ctx(t), mail, "long-enough-1"), http.StatusUnauthorized, "UNAUTHENTICATED")
	listed = must[[]api.Access](t)(admin.ListAccesses(ctx(t), api.AccessFilter{}))
	if slices.ContainsFunc(listed, func(a api.Access) bool { return a.ID == id }) {
		t.Error("a revoked access is still listed")
	}
}

func TestTeamNoSelfRaiseNoSelfRevoke(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	admin := e.as("admin")
	adminID := e.cred("admin").AccessID
	own := e.cred("admin").Permissions
	raisedPerms := api.Permissions{Admin: own.Admin, ManageAccesses: true, ManageWebhooks: own.ManageWebhooks, PayOut: true}
	wantCode(t, admin.UpdateAccessPermissions(ctx(t), adminID, e.otp("admin"), raisedPerms), http.StatusForbidden, "SELF_ESCALATION")
	wantCode(t, admin.RevokeAccess(ctx(t), adminID, e.otp("admin")), http.StatusForbidden, "SELF_REVOCATION")
	// Giving up a flag of its own is no raise.
	if err := admin.UpdateAccessPermissions(ctx(t), adminID, e.otp("admin"), api.Permissions{ManageAccesses: true}); err != nil {
		t.Fatal(err)
	}

	// An operator made manager revokes a colleague: the colleague's API
	// key stops at once; the operator cannot raise itself further.
	opID := e.cred("operator").AccessID
	opPerms := e.cred("operator").Permissions
	grant := api.Permissions{PayIn: opPerms.PayIn, PayOut: opPerms.PayOut, Convert: opPerms.Convert, OnChain: opPerms.OnChain,
		Markup: opPerms.Markup, Beneficiary: opPerms.Beneficiary, ManageWebhooks: opPerms.ManageWebhooks, ManageAccesses: true}
	if err := admin.UpdateAccessPermissions(ctx(t), opID, e.otp("admin"), grant); err != nil {
		t.Fatal(err)
	}
	op := e.as("operator")
	up := grant
	up.OperationApprover = true
	wantCode(t, op.UpdateAccessPermissions(ctx(t), opID, e.otp("operator"), up), http.StatusForbidden, "SELF_ESCALATION")
	approver := e.as("approver2")
	must[*api.AccessInfo](t)(approver.AccessInfo(ctx(t)))
	if err := op.RevokeAccess(ctx(t), e.cred("approver2").AccessID, e.otp("operator")); err != nil {
		t.Fatal(err)
	}
	_, err := approver.AccessInfo(ctx(t))
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
}

// newKeyPair is an Ed25519 pair: the private key PEM and the public key PEM.
func newKeyPair(t *testing.T) (priv, pub []byte) {
	t.Helper()
	p, s, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der := must[[]byte](t)(x509.MarshalPKCS8PrivateKey(s))
	pubDER := must[[]byte](t)(x509.MarshalPKIXPublicKey(p))
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
}

func TestTeamAPIKeys(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	admin := e.as("admin")
	priv, pub := newKeyPair(t)

	_, err := e.as("operator").CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("operator"), Name: "ci", PublicKey: string(pub)})
	wantCode(t, err, http.StatusForbidden, "FORBIDDEN")
	_, err = admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "ci", PublicKey: string(priv)})
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")
	_, err = admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "ci", PublicKey: string(pub), WhitelistedIPs: []string{"10.0.0.300"}})
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")

	key := must[string](t)(admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "ci", PublicKey: string(pub)}))
	keys := must[[]api.APIKeyInfo](t)(admin.ListAPIKeys(ctx(t)))
	var listed *api.APIKeyInfo
	for i := range keys {
		if keys[i].Name == "ci" {
			listed = &keys[i]
		}
		if keys[i].APIKey == key {
			t.Error("the list shows a whole key")
		}
	}
	if listed == nil || !strings.HasPrefix(key, listed.APIKey) || len(listed.WhitelistedIPs) != 0 || listed.CreatedAt.IsZero() {
		t.Fatalf("listed keys = %+v (new key prefix %s)", keys, key[:12])
	}
	_, err = admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "ci", PublicKey: string(pub)})
	wantCode(t, err, http.StatusConflict, "NAME_TAKEN")

	auth := must[*api.APIKeyAuth](t)(api.NewAPIKeyAuth(key, priv))
	ci := must[*api.Client](t)(api.New(e.run.BaseURL, clockAuth{key: auth, now: e.stamp}))
	if info := must[*api.AccessInfo](t)(ci.AccessInfo(ctx(t))); info.Email != e.cred("admin").Email {
		t.Errorf("the new key acts as %s", info.Email)
	}

	// The allow-list: another IP is refused, the listed range allowed.
	if err := admin.SetAPIKeyAllowedIPs(ctx(t), e.otp("admin"), listed.APIKey, []string{"203.0.113.7"}); err != nil {
		t.Fatal(err)
	}
	_, err = ci.AccessInfo(ctx(t))
	if ae := wantCode(t, err, http.StatusForbidden, "IP_NOT_ALLOWED"); ae != nil && !api.IsIPNotAllowed(err) {
		t.Error("IsIPNotAllowed does not recognise the refusal")
	}
	wantCode(t, admin.SetAPIKeyAllowedIPs(ctx(t), e.otp("admin"), listed.APIKey, []string{"nope"}), http.StatusBadRequest, "INVALID_FIELD")
	if err := admin.SetAPIKeyAllowedIPs(ctx(t), e.otp("admin"), key, []string{"127.0.0.0/8", "::1"}); err != nil {
		t.Fatal(err)
	}
	must[*api.AccessInfo](t)(ci.AccessInfo(ctx(t)))

	// The limit: five keys per access (the demo key is one).
	for i := range 3 {
		_, p := newKeyPair(t)
		must[string](t)(admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "extra" + string(rune('a'+i)), PublicKey: string(p)}))
	}
	_, p := newKeyPair(t)
	_, err = admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "sixth", PublicKey: string(p)})
	wantCode(t, err, http.StatusConflict, "API_KEY_LIMIT")

	// Revocation: the key's next request is refused.
	wantCode(t, admin.DeleteAPIKey(ctx(t), "sbx_nope", e.otp("admin")), http.StatusNotFound, "NOT_FOUND")
	if err := admin.DeleteAPIKey(ctx(t), listed.APIKey, e.otp("admin")); err != nil {
		t.Fatal(err)
	}
	_, err = ci.AccessInfo(ctx(t))
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
	if slices.ContainsFunc(must[[]api.APIKeyInfo](t)(admin.ListAPIKeys(ctx(t))), func(k api.APIKeyInfo) bool { return k.Name == "ci" }) {
		t.Error("a revoked key is still listed")
	}
}

func TestTeamTOTPEnrolment(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	viewer := e.as("viewer")
	if must[*api.AccessInfo](t)(viewer.AccessInfo(ctx(t))).MFAActivated {
		t.Fatal("viewer starts with a second factor")
	}
	en := must[*api.TOTPSecret](t)(viewer.CreateTOTP(ctx(t)))
	if !strings.HasPrefix(en.QRCode, "otpauth://totp/") || !strings.Contains(en.QRCode, "secret="+en.Secret) {
		t.Errorf("enrolment = %+v", en)
	}
	secret := must[[]byte](t)(totp.Decode(en.Secret))
	mailed := e.mailTo(e.cred("viewer").Email, "totp-enrol")
	wantCode(t, viewer.ValidateTOTP(ctx(t), totp.Code(secret, e.clock.Now()), "999999x"), http.StatusBadRequest, "INVALID_TOKEN")
	wrong := "000000"
	if totp.Valid(secret, wrong, e.clock.Now()) {
		wrong = "111111"
	}
	wantCode(t, viewer.ValidateTOTP(ctx(t), wrong, mailed), http.StatusForbidden, "INVALID_OTP")
	if err := viewer.ValidateTOTP(ctx(t), totp.Code(secret, e.clock.Now()), mailed); err != nil {
		t.Fatal(err)
	}
	if !must[*api.AccessInfo](t)(viewer.AccessInfo(ctx(t))).MFAActivated {
		t.Error("the second factor is not active after validation")
	}
	_, err := viewer.CreateTOTP(ctx(t))
	wantCode(t, err, http.StatusConflict, "MFA_ACTIVE")

	if err := viewer.RemoveTOTP(ctx(t)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, viewer.ConfirmRemoveTOTP(ctx(t), "000000x"), http.StatusBadRequest, "INVALID_TOKEN")
	if err := viewer.ConfirmRemoveTOTP(ctx(t), e.mailTo(e.cred("viewer").Email, "totp-remove")); err != nil {
		t.Fatal(err)
	}
	if must[*api.AccessInfo](t)(viewer.AccessInfo(ctx(t))).MFAActivated {
		t.Error("the second factor is still active after its removal")
	}
}

func TestTeamLoginOTPAndLogout(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	cred := e.cred("admin")
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	if err := anon.Login(ctx(t), cred.Email, cred.Password); err != nil {
		t.Fatal(err)
	}
	tok := e.mailTo(cred.Email, "login")
	_, err := anon.ValidateLogin(ctx(t), cred.Email, tok)
	if wantCode(t, err, http.StatusForbidden, "OTP_REQUIRED"); !api.IsOTPRequired(err) {
		t.Error("IsOTPRequired does not recognise the refusal")
	}
	_, err = anon.ValidateLoginOTP(ctx(t), cred.Email, tok, e.wrongOTP("admin"))
	wantCode(t, err, http.StatusForbidden, "INVALID_OTP")
	tk := must[*api.Tokens](t)(anon.ValidateLoginOTP(ctx(t), cred.Email, tok, e.otp("admin")))
	bearer := must[*api.Client](t)(api.New(e.run.BaseURL, api.NewBearerAuth(*tk, nil)))
	must[*api.AccessInfo](t)(bearer.AccessInfo(ctx(t)))

	// An API key has no session to end.
	wantCode(t, e.as("admin").Logout(ctx(t)), http.StatusBadRequest, "INVALID_REQUEST")
	if err := bearer.Logout(ctx(t)); err != nil {
		t.Fatal(err)
	}
	_, err = bearer.AccessInfo(ctx(t))
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
	_, err = anon.RefreshTokens(ctx(t), tk.RefreshToken)
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")

	// An access without manageAccesses logs in as before.
	e.bearerLogin(e.cred("operator").Email, e.cred("operator").Password, "")
}

func TestTeamPasswords(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	cred := e.cred("operator")
	op := e.as("operator")
	wantCode(t, op.ChangePassword(ctx(t), "not-it-1", "brand-new-1", "brand-new-1"), http.StatusForbidden, "WRONG_PASSWORD")
	wantCode(t, op.ChangePassword(ctx(t), cred.Password, "brand-new-1", "brand-new-2"), http.StatusBadRequest, "INVALID_FIELD")
	wantCode(t, op.ChangePassword(ctx(t), cred.Password, "lettersonly", "lettersonly"), http.StatusBadRequest, "INVALID_FIELD")
	if err := op.ChangePassword(ctx(t), cred.Password, "brand-new-1", "brand-new-1"); err != nil {
		t.Fatal(err)
	}
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	wantCode(t, anon.Login(ctx(t), cred.Email, cred.Password), http.StatusUnauthorized, "UNAUTHENTICATED")
	e.bearerLogin(cred.Email, "brand-new-1", "")

	req := e.cred("requester")
	if err := anon.ForgotPassword(ctx(t), req.Email); err != nil {
		t.Fatal(err)
	}
	if err := anon.ForgotPassword(ctx(t), "nobody@acme-treasury.example"); err != nil {
		t.Errorf("an unknown e-mail is told apart: %v", err)
	}
	reset := e.mailTo(req.Email, "password-reset")
	wantCode(t, anon.ResetPassword(ctx(t), "feedface", "after-reset-1", "after-reset-1"), http.StatusNotFound, "INVALID_TOKEN")
	if err := anon.ResetPassword(ctx(t), reset, "after-reset-1", "after-reset-1"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, anon.ResetPassword(ctx(t), reset, "after-reset-2", "after-reset-2"), http.StatusNotFound, "INVALID_TOKEN")
	e.bearerLogin(req.Email, "after-reset-1", "")
}

func TestTeamSignUp(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	if !must[bool](t)(anon.VerifyExistence(ctx(t), e.cred("viewer").Email)) {
		t.Error("a demo access's e-mail does not exist")
	}
	const mail = "founder@startup.example"
	if must[bool](t)(anon.VerifyExistence(ctx(t), mail)) {
		t.Error("an unknown e-mail exists")
	}
	wantCode(t, anon.SignUp(ctx(t), api.SignUpRequest{Email: mail, Password: "founder-pw-1", ConfirmPassword: "founder-pw-1", AccountType: "LLC"}), http.StatusBadRequest, "INVALID_FIELD")
	wantCode(t, anon.SignUp(ctx(t), api.SignUpRequest{Email: e.cred("viewer").Email, Password: "founder-pw-1", ConfirmPassword: "founder-pw-1", AccountType: "COMPANY"}), http.StatusConflict, "EMAIL_IN_USE")
	if err := anon.SignUp(ctx(t), api.SignUpRequest{Email: mail, Password: "founder-pw-1", ConfirmPassword: "founder-pw-1", AccountType: "COMPANY"}); err != nil {
		t.Fatal(err)
	}
	if !must[bool](t)(anon.VerifyExistence(ctx(t), mail)) {
		t.Error("a signed-up e-mail does not exist")
	}
	wantCode(t, anon.ValidateSignUp(ctx(t), mail, "000000x"), http.StatusBadRequest, "INVALID_TOKEN")
	if err := anon.ValidateSignUp(ctx(t), mail, e.mailTo(mail, "sign-up")); err != nil {
		t.Fatal(err)
	}
	wantCode(t, anon.SignUp(ctx(t), api.SignUpRequest{Email: mail, Password: "founder-pw-1", ConfirmPassword: "founder-pw-1", AccountType: "COMPANY"}), http.StatusConflict, "EMAIL_IN_USE")
}

// TestTeamSurvivesRestart: what team administration changed is in the
// state file: a restart keeps revocations, invitations and new keys.
func TestTeamSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	clk := newClock()
	cfg := sandbox.Config{Seed: 3, StatePath: path, Now: clk.Now}
	e := newEnvClock(t, cfg, clk)
	admin := e.as("admin")
	id := must[string](t)(admin.InviteAccess(ctx(t), api.InviteAccessRequest{OTP: e.otp("admin"), Email: "kept@acme-treasury.example", Permissions: api.Permissions{PayIn: true}}))
	priv, pub := newKeyPair(t)
	key := must[string](t)(admin.CreateAPIKey(ctx(t), api.CreateAPIKeyRequest{OTP: e.otp("admin"), Name: "kept", PublicKey: string(pub), WhitelistedIPs: []string{"127.0.0.1"}}))
	if err := admin.RevokeAccess(ctx(t), e.cred("approver2").AccessID, e.otp("admin")); err != nil {
		t.Fatal(err)
	}
	oldApprover := e.cred("approver2")
	e.run.Close()

	e2 := newEnvClock(t, cfg, clk)
	admin2 := e2.as("admin")
	if a := must[*api.Access](t)(admin2.GetAccess(ctx(t), id)); !a.AccessPermission.PayIn {
		t.Errorf("invited access after restart = %+v", a)
	}
	auth := must[*api.APIKeyAuth](t)(api.NewAPIKeyAuth(key, priv))
	ci := must[*api.Client](t)(api.New(e2.run.BaseURL, clockAuth{key: auth, now: e2.stamp}))
	must[*api.AccessInfo](t)(ci.AccessInfo(ctx(t)))
	oldAuth := must[*api.APIKeyAuth](t)(api.NewAPIKeyAuth(oldApprover.APIKey, []byte(oldApprover.PrivateKeyPEM)))
	gone := must[*api.Client](t)(api.New(e2.run.BaseURL, clockAuth{key: oldAuth, now: e2.stamp}))
	_, err := gone.AccessInfo(ctx(t))
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
}

// newEnvClock is newEnv on a clock of the test's (one that outlives a
// restart).
func newEnvClock(t *testing.T, cfg sandbox.Config, clk *clock) *env {
	t.Helper()
	run, err := sandbox.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	return &env{t: t, run: run, clock: clk}
}
