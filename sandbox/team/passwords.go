package team

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/validate"
)

// ForgotPassword e-mails a reset token to an access of that e-mail. The
// answer is the same whether one exists (nobody learns who has an access
// from it).
func (t *Team) ForgotPassword(email string, now time.Time) error {
	mail, err := validate.Email(email)
	if err != nil {
		return engine.FieldError("email", err)
	}
	a := t.eng.AccessByMail(mail)
	if a == nil {
		return nil
	}
	tok := newToken()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.resets[hashOf(tok)] = pendingToken{access: a.ID, token: tok, until: now.Add(resetTTL)}
	t.mail(a.Email, "password-reset", tok, now)
	return nil
}

// ResetPassword sets a new password with an e-mailed reset token; the
// token is spent.
func (t *Team) ResetPassword(token, password, confirm string, now time.Time) error {
	if err := checkNewPassword("password", password, "confirmPassword", confirm); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	h := hashOf(token)
	p, ok := t.resets[h]
	if !ok || now.After(p.until) {
		return refusal(engine.NotFound, CodeInvalidToken, "reset token unknown, used or older than an hour; POST /v2/auth/forgot-password again")
	}
	delete(t.resets, h)
	return t.setPassword(p.access.String(), password, now)
}

// setPassword stores a new password for an access. The caller holds t.mu.
func (t *Team) setPassword(id, password string, now time.Time) error {
	var err error
	t.eng.Edit(func() {
		cur := t.accessLocked(id)
		if cur == nil {
			err = refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", id)
			return
		}
		a := copyAccess(cur)
		a.Password, a.PasswordAt, a.UpdatedAt = engine.HashPassword(password), now, now
		t.putAccess(a)
	})
	return err
}

func (t *Team) accessLocked(id string) *engine.Access {
	u, err := uuid.Parse(id)
	if err != nil {
		return nil
	}
	return t.eng.AccessByIDLocked(u)
}

// ChangePassword changes the caller's password.
func (t *Team) ChangePassword(c engine.Caller, current, password, confirm string) error {
	if current == "" {
		return invalid(engine.CodeMissingField, "currentPassword: required")
	}
	if err := checkNewPassword("newPassword", password, "newConfirmPassword", confirm); err != nil {
		return err
	}
	if !c.Access.PasswordIs(current) {
		return refusal(engine.Forbidden, CodeWrongPassword, "currentPassword: not this access's password")
	}
	if password == current {
		return invalid(engine.CodeInvalidField, "newPassword: the same as the current one")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.setPassword(c.Access.ID.String(), password, c.Now)
}

// SignUp records a new account's registration and e-mails a token to
// prove the address [decided: the sandbox serves one business account; a
// sign-up is kept, can be validated and then exists, and opens no session].
func (t *Team) SignUp(email, password, confirm, accountType string, now time.Time) error {
	mail, err := validate.Email(email)
	if err != nil {
		return engine.FieldError("email", err)
	}
	mail = strings.ToLower(mail)
	if err := checkNewPassword("password", password, "confirmPassword", confirm); err != nil {
		return err
	}
	switch accountType {
	case "INDIVIDUAL", "COMPANY":
	case "":
		return invalid(engine.CodeMissingField, "accountType: required (INDIVIDUAL or COMPANY)")
	default:
		return invalid(engine.CodeInvalidField, "accountType: %q is not INDIVIDUAL or COMPANY", truncate(accountType, 20))
	}
	if t.eng.AccessByMail(mail) != nil {
		return refusal(engine.Conflict, CodeEmailInUse, "email: %s is already registered", mail)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.signups[mail] != nil {
		return refusal(engine.Conflict, CodeEmailInUse, "email: %s is already registered", mail)
	}
	s := &signup{Email: mail, Password: engine.HashPassword(password), AccountType: accountType, Token: emailToken(), CreatedAt: now}
	t.eng.Edit(func() { t.save("signup", mail, s) })
	t.signups[mail] = s
	t.mail(mail, "sign-up", s.Token, now)
	return nil
}

// ValidateSignUp proves a sign-up's e-mail with its token.
func (t *Team) ValidateSignUp(email, token string) error {
	if strings.TrimSpace(email) == "" {
		return invalid(engine.CodeMissingField, "email: required")
	}
	if token == "" {
		return invalid(engine.CodeMissingField, "emailToken: required (the token e-mailed at sign-up)")
	}
	mail := strings.ToLower(strings.TrimSpace(email))
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.signups[mail]
	if s == nil || s.Verified || !equal(s.Token, token) {
		return invalid(CodeInvalidToken, "emailToken: no sign-up of %s waits for this token", truncate(mail, 80))
	}
	v := *s
	v.Verified = true
	t.eng.Edit(func() { t.save("signup", mail, &v) })
	t.signups[mail] = &v
	return nil
}

// Exists reports whether an e-mail is registered: an access of the account
// or a sign-up.
func (t *Team) Exists(email string) (bool, error) {
	mail, err := validate.Email(email)
	if err != nil {
		return false, engine.FieldError("email", err)
	}
	mail = strings.ToLower(mail)
	if t.eng.AccessByMail(mail) != nil {
		return true, nil
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.signups[mail] != nil, nil
}
