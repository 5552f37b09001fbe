package team

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// raised reports whether to grants a flag that from lacks (viewOnly, a
// restriction, is not a grant; giving it up or gaining it never raises).
func raised(from, to records.Permissions) []string {
	var out []string
	for _, f := range []struct {
		name     string
		old, new bool
	}{
		{"payIn", from.PayIn, to.PayIn}, {"payOut", from.PayOut, to.PayOut}, {"convert", from.Convert, to.Convert},
		{"onChain", from.OnChain, to.OnChain}, {"markup", from.Markup, to.Markup}, {"beneficiary", from.Beneficiary, to.Beneficiary},
		{"operationRequester", from.OperationRequester, to.OperationRequester}, {"operationApprover", from.OperationApprover, to.OperationApprover},
		{"manageWebhooks", from.ManageWebhooks, to.ManageWebhooks}, {"manageAccesses", from.ManageAccesses, to.ManageAccesses},
	} {
		if f.new && !f.old {
			out = append(out, f.name)
		}
	}
	// Lifting a restriction raises too.
	if from.ViewOnly && !to.ViewOnly {
		out = append(out, "viewOnly lifted")
	}
	if from.EnforceAllowedBeneficiaries && !to.EnforceAllowedBeneficiaries {
		out = append(out, "enforceAllowedBeneficiaries lifted")
	}
	return out
}

// checkPerms refuses what no write may set: admin is the service's own
// mark, read-only.
func checkPerms(p records.Permissions, was bool) error {
	if p.Admin && !was {
		return invalid(engine.CodeInvalidField, "permissions.admin: read-only; give manageAccesses to let an access administer the team")
	}
	return nil
}

func newToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Invite adds an access for email with perms; it can act once the person
// sets a password with the e-mailed token (ValidateInvitation).
func (t *Team) Invite(c engine.Caller, otp, email string, perms records.Permissions) (uuid.UUID, error) {
	if err := t.manager(c, otp); err != nil {
		return uuid.Nil, err
	}
	mail, err := validate.Email(email)
	if err != nil {
		return uuid.Nil, engine.FieldError("email", err)
	}
	mail = strings.ToLower(mail)
	if err := checkPerms(perms, false); err != nil {
		return uuid.Nil, err
	}
	perms.ID, perms.UpdatedAt = uuid.NewString(), engine.FormatTime(c.Now)
	tok := newToken()
	id := uuid.New()
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.signups[mail]; s != nil {
		return uuid.Nil, refusal(engine.Conflict, CodeEmailInUse, "email: %s already has an account of its own", mail)
	}
	t.eng.Edit(func() {
		if t.eng.AccessByMailLocked(mail) != nil {
			err = refusal(engine.Conflict, CodeEmailInUse, "email: %s already has an access to this account", mail)
			return
		}
		a := &engine.Access{
			ID: id, Name: strings.SplitN(mail, "@", 2)[0], Email: mail, Perms: perms,
			CreatedAt: c.Now, UpdatedAt: c.Now, EmailToken: emailToken(), Blacklisted: map[uuid.UUID]bool{},
		}
		t.putAccess(a)
		h := hashOf(tok)
		in := invite{Access: id, Until: c.Now.Add(inviteTTL)}
		t.save("invite", hex.EncodeToString(h[:]), in)
		t.invites[h] = in
	})
	if err != nil {
		return uuid.Nil, err
	}
	t.mail(mail, "invitation", tok, c.Now)
	return id, nil
}

// Access reads one access of the account.
func (t *Team) Access(c engine.Caller, id string) (*engine.Access, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return nil, refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", truncate(id, 40))
	}
	a := t.eng.AccessByID(u)
	if a == nil {
		return nil, refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", id)
	}
	return a, nil
}

// UpdatePermissions replaces an access's permission flags. An access never
// raises its own.
func (t *Team) UpdatePermissions(c engine.Caller, otp, id string, perms records.Permissions) error {
	if strings.TrimSpace(id) == "" {
		return invalid(engine.CodeMissingField, "id: required")
	}
	if err := t.manager(c, otp); err != nil {
		return err
	}
	u, perr := uuid.Parse(id)
	if perr != nil {
		return refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", truncate(id, 40))
	}
	var err error
	t.eng.Edit(func() {
		cur := t.eng.AccessByIDLocked(u)
		if cur == nil {
			err = refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", id)
			return
		}
		if err = checkPerms(perms, cur.Perms.Admin); err != nil {
			return
		}
		if cur.ID == c.Access.ID {
			if up := raised(cur.Perms, perms); len(up) > 0 {
				err = refusal(engine.Forbidden, CodeSelfChange, "an access cannot raise its own permissions (%s); ask another administrator", strings.Join(up, ", "))
				return
			}
		}
		a := copyAccess(cur)
		perms.Admin = cur.Perms.Admin
		perms.ID, perms.UpdatedAt = cur.Perms.ID, engine.FormatTime(c.Now)
		a.Perms, a.UpdatedAt = perms, c.Now
		t.putAccess(a)
	})
	return err
}

// Revoke removes an access: its sessions and API keys stop at once, and
// a pending invitation of it is void.
func (t *Team) Revoke(c engine.Caller, otp, id string) error {
	if err := t.manager(c, otp); err != nil {
		return err
	}
	u, perr := uuid.Parse(id)
	if perr != nil {
		return refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", truncate(id, 40))
	}
	if u == c.Access.ID {
		return refusal(engine.Forbidden, CodeSelfRevoke, "an access cannot revoke itself; ask another administrator")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var err error
	t.eng.Edit(func() {
		cur := t.eng.AccessByIDLocked(u)
		if cur == nil {
			err = refusal(engine.NotFound, engine.CodeNotFound, "access %s not found", id)
			return
		}
		a := copyAccess(cur)
		a.Revoked, a.UpdatedAt = true, c.Now
		t.putAccess(a)
		for h, k := range t.keys {
			if k.AccessID == u {
				t.saveKey(h, k, true)
			}
		}
	})
	if err != nil {
		return err
	}
	for h, k := range t.keys {
		if k.AccessID == u {
			delete(t.keys, h)
		}
	}
	for h, in := range t.invites {
		if in.Access == u {
			delete(t.invites, h)
		}
	}
	return nil
}

// checkNewPassword is the sandbox's password rule [decided]: 8 to 128
// characters, with a letter and a digit, and confirmed.
func checkNewPassword(field, pw, confirmField, confirm string) error {
	if pw == "" {
		return invalid(engine.CodeMissingField, "%s: required", field)
	}
	n := len([]rune(pw))
	if n < 8 || n > 128 {
		return invalid(engine.CodeInvalidField, "%s: 8 to 128 characters, got %d", field, n)
	}
	letter, digit := false, false
	for _, r := range pw {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		}
	}
	if !letter || !digit {
		return invalid(engine.CodeInvalidField, "%s: needs at least one letter and one digit", field)
	}
	if confirm != pw {
		return invalid(engine.CodeInvalidField, "%s: does not match %s", confirmField, field)
	}
	return nil
}

// ValidateInvitation sets the invited person's password with the token of
// the invitation; the token is spent.
func (t *Team) ValidateInvitation(token, password, confirm string, now time.Time) error {
	if err := checkNewPassword("password", password, "confirmPassword", confirm); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	h := hashOf(token)
	in, ok := t.invites[h]
	if !ok || now.After(in.Until) {
		return refusal(engine.NotFound, CodeInvalidToken, "invitation token unknown, used or expired; ask for a new invitation")
	}
	var err error
	t.eng.Edit(func() {
		cur := t.eng.AccessByIDLocked(in.Access)
		if cur == nil {
			err = refusal(engine.NotFound, CodeInvalidToken, "the invited access was revoked")
			return
		}
		a := copyAccess(cur)
		a.Password, a.PasswordAt, a.UpdatedAt = engine.HashPassword(password), now, now
		t.putAccess(a)
		t.db.DeleteTeamRecord("invite", hex.EncodeToString(h[:]))
	})
	if err == nil {
		delete(t.invites, h)
	}
	return err
}
