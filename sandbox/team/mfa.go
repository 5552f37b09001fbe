package team

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/internal/totp"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// checkOTP checks otp against the access's active second factor.
func checkOTP(a *engine.Access, otp string, now time.Time) error {
	otp = strings.TrimSpace(otp)
	if otp == "" {
		return invalid(engine.CodeMissingField, "otp: required (the current 6-digit code of this access's TOTP second factor)")
	}
	if a.MFAID == uuid.Nil || len(a.TOTPSecret) == 0 {
		return refusal(engine.Forbidden, CodeMFARequired, "this access has no active TOTP second factor: POST /v2/auth/mfa/totp/create, then /validate")
	}
	if !totp.Valid(a.TOTPSecret, otp, now) {
		return refusal(engine.Forbidden, CodeInvalidOTP, "otp: not the current code of this access's TOTP second factor (codes change every 30 s; check the device's clock)")
	}
	return nil
}

// LoginOTP is the second factor at login [decided]: an access that may
// change who may act (manageAccesses) and has an active TOTP factor gives
// its code with the e-mailed token; any access that sends a code has it
// checked.
func LoginOTP(a *engine.Access, otp string, now time.Time) error {
	active := a.MFAID != uuid.Nil && len(a.TOTPSecret) > 0
	if strings.TrimSpace(otp) == "" {
		if active && a.Perms.ManageAccesses {
			return refusal(engine.Forbidden, CodeOTPRequired, "otp: this access has a TOTP second factor; send its current code with the e-mailed token")
		}
		return nil
	}
	return checkOTP(a, otp, now)
}

// emailToken is a 6-digit token for an e-mail.
func emailToken() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%06d", (uint32(b[0])<<24|uint32(b[1])<<16|uint32(b[2])<<8|uint32(b[3]))%1_000_000)
}

// Enrolment is a new second factor to activate.
type Enrolment struct {
	Secret string // base32
	URI    string // otpauth://
}

// CreateTOTP starts enrolling a second factor for the caller: a new secret,
// and an e-mailed token that ValidateTOTP needs with a first code.
func (t *Team) CreateTOTP(c engine.Caller) (Enrolment, error) {
	a := c.Access
	if a.MFAID != uuid.Nil {
		return Enrolment{}, refusal(engine.Conflict, CodeMFAActive, "this access already has an active TOTP second factor; remove it first (POST /v2/auth/mfa/totp/remove)")
	}
	secret, err := totp.NewSecret()
	if err != nil {
		return Enrolment{}, err
	}
	tok := emailToken()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.enrols[a.ID] = &enrolment{secret: secret, token: tok, until: c.Now.Add(enrolTTL)}
	t.mail(a.Email, "totp-enrol", tok, c.Now)
	return Enrolment{Secret: totp.Encode(secret), URI: totp.URI(issuer, a.Email, secret)}, nil
}

// ValidateTOTP activates the caller's enrolment with a first code and the
// e-mailed token.
func (t *Team) ValidateTOTP(c engine.Caller, otp, token string) error {
	if strings.TrimSpace(otp) == "" {
		return invalid(engine.CodeMissingField, "otp: required (a code of the new secret)")
	}
	if token == "" {
		return invalid(engine.CodeMissingField, "emailToken: required (the token e-mailed by POST /v2/auth/mfa/totp/create)")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	en := t.enrols[c.Access.ID]
	if en == nil || c.Now.After(en.until) {
		return refusal(engine.Conflict, CodeInvalidToken, "no TOTP enrolment is waiting for this access (or it is older than 10 minutes); POST /v2/auth/mfa/totp/create first")
	}
	if !equal(en.token, token) {
		return invalid(CodeInvalidToken, "emailToken: not the token e-mailed for this enrolment")
	}
	if !totp.Valid(en.secret, strings.TrimSpace(otp), c.Now) {
		return refusal(engine.Forbidden, CodeInvalidOTP, "otp: not a current code of the new secret")
	}
	var err error
	t.eng.Edit(func() {
		cur := t.eng.AccessByIDLocked(c.Access.ID)
		if cur == nil {
			err = refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", c.Access.ID)
			return
		}
		a := copyAccess(cur)
		a.MFAID, a.TOTPSecret, a.UpdatedAt = uuid.New(), en.secret, c.Now
		t.putAccess(a)
	})
	if err == nil {
		delete(t.enrols, c.Access.ID)
	}
	return err
}

// RemoveTOTP asks to remove the caller's second factor: a token goes by
// e-mail for ConfirmRemoveTOTP.
func (t *Team) RemoveTOTP(c engine.Caller) error {
	if c.Access.MFAID == uuid.Nil {
		return refusal(engine.Conflict, CodeMFARequired, "this access has no active TOTP second factor to remove")
	}
	tok := emailToken()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.removes[c.Access.ID] = pendingToken{access: c.Access.ID, token: tok, until: c.Now.Add(enrolTTL)}
	t.mail(c.Access.Email, "totp-remove", tok, c.Now)
	return nil
}

// ConfirmRemoveTOTP removes the caller's second factor with the e-mailed
// token.
func (t *Team) ConfirmRemoveTOTP(c engine.Caller, token string) error {
	if token == "" {
		return invalid(engine.CodeMissingField, "emailToken: required (the token e-mailed by POST /v2/auth/mfa/totp/remove)")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.removes[c.Access.ID]
	if !ok || c.Now.After(p.until) {
		return refusal(engine.Conflict, CodeInvalidToken, "no removal is waiting for this access (or it is older than 10 minutes); POST /v2/auth/mfa/totp/remove first")
	}
	if !equal(p.token, token) {
		return invalid(CodeInvalidToken, "emailToken: not the token e-mailed for this removal")
	}
	t.eng.Edit(func() {
		if cur := t.eng.AccessByIDLocked(c.Access.ID); cur != nil {
			a := copyAccess(cur)
			a.MFAID, a.TOTPSecret, a.UpdatedAt = uuid.Nil, nil, c.Now
			t.putAccess(a)
		}
	})
	delete(t.removes, c.Access.ID)
	return nil
}
