package accesses

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Endpoints the access writes name in the journal.
const (
	endpointInvite = "POST /v2/auth/accesses"
	endpointChange = "PATCH /v2/auth/accesses"
	endpointRevoke = "DELETE /v2/auth/accesses/"
)

// openForm shows f; submit builds its write once every field passed.
func (m *Screen) openForm(f *form.Form, submit func(*form.Form) *write) tea.Cmd {
	m.form, m.submit = f, submit
	f.SetStyles(formStyles(m.s))
	f.SetSize(m.w, m.h)
	return f.Focus()
}

func (m *Screen) closeForm() { m.form, m.submit = nil, nil }

// formKey gives a key to the open form: a checked form goes to its
// confirmation, esc closes it.
func (m *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	res, cmd := m.form.Update(msg)
	switch res {
	case form.Cancelled:
		m.closeForm()
		return nil
	case form.Submitted:
		return m.ask(m.submit(m.form))
	}
	return cmd
}

// formStyles are the theme's styles for a form.
func formStyles(s *ui.Session) form.Styles {
	t := s.Styles()
	return form.Styles{Title: t.Title, Label: t.Label, Focus: t.Value.Bold(true), Error: t.Error, Hint: t.Good, Choice: t.Selected, Footer: t.Muted}
}

// openInvite opens the invitation form: the e-mail, then every flag, off.
func (m *Screen) openInvite() tea.Cmd {
	if err := m.canManage(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot invite: "+ui.ErrorText(err))
	}
	email := form.Field{Key: "email", Label: "E-mail", Required: true, Placeholder: "name@company.com",
		Check: form.Plain(validate.Email), Missing: "type the e-mail of the person to invite",
		Help: func(form.Values) string {
			return "the invitation (a token to set a password) goes to this address"
		}}
	f := form.New("Invite an access", append([]form.Field{email}, flagFields()...)...)
	f.AddRule(viewOnlyRule)
	return m.openForm(f, m.inviteWrite)
}

// inviteWrite is the invitation the checked form says.
func (m *Screen) inviteWrite(f *form.Form) *write {
	email, perms := f.Normalized("email"), readFlags(f)
	svc := m.svc
	return &write{
		title: fmt.Sprintf("Invite %s?", email),
		body: fmt.Sprintf("E-mail: %s\nThe invitation lets this person set a password and act on the account with:\n%s",
			email, granted(perms)) + "Nothing else: every flag not listed stays off.",
		action: "invite-access", endpoint: endpointInvite,
		ids:     map[string]string{"email": email, "permissions": flagList(perms)},
		outcome: "invited", done: "Invitation sent to " + email + "; the access can act once its password is set",
		list: tabAccesses, form: f,
		call: func(ctx context.Context, otp string) (outcome, error) {
			id, err := svc.InviteAccess(ctx, api.InviteAccessRequest{OTP: otp, Email: email, Permissions: perms})
			return outcome{ids: map[string]string{"accessId": id}}, err
		},
	}
}

// openChange opens the flags of the selected access, as they are now.
func (m *Screen) openChange() tea.Cmd {
	if err := m.canManage(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot change permissions: "+ui.ErrorText(err))
	}
	a, ok := m.list.Selected()
	if !ok || a.ID == "" {
		return nil
	}
	f := form.New("Permissions of "+a.Email, flagFields()...)
	setFlags(f, a.AccessPermission)
	f.AddRule(viewOnlyRule)
	before := a.AccessPermission
	f.AddRule(func(v form.Values) (string, string) {
		if _, n := changes(before, readValues(v)); n == 0 {
			return flags[0].key, "nothing changed: set a flag to yes or no, or esc to leave"
		}
		return "", ""
	})
	return m.openForm(f, func(f *form.Form) *write { return m.changeWrite(a, f) })
}

// readValues are the permissions the flag fields hold, read through v.
func readValues(v form.Values) api.Permissions {
	var p api.Permissions
	for _, fl := range flags {
		fl.set(&p, v(fl.key) == flagYes)
	}
	return p
}

// changeWrite is the change of a's flags the checked form says.
func (m *Screen) changeWrite(a api.Access, f *form.Form) *write {
	after := readFlags(f)
	after.Admin = a.AccessPermission.Admin // not the form's to change
	diff, _ := changes(a.AccessPermission, after)
	id, svc := a.ID, m.svc
	body := fmt.Sprintf("Access: %s\nChanges:\n%sEvery other flag stays as it is.", a.Email, diff)
	if m.own(a) {
		body += "\nThis is your own access: the service refuses raising its own permissions."
	}
	return &write{
		title:  fmt.Sprintf("Change the permissions of %s?", a.Email),
		body:   body,
		action: "change-access-permissions", endpoint: endpointChange,
		ids:     map[string]string{"accessId": id, "email": a.Email, "before": flagList(a.AccessPermission), "after": flagList(after)},
		outcome: "changed", done: "Permissions of " + a.Email + " changed",
		list: tabAccesses, selectID: id, form: f,
		call: func(ctx context.Context, otp string) (outcome, error) {
			return outcome{}, svc.UpdateAccessPermissions(ctx, id, otp, after)
		},
	}
}

// confirmRevoke asks before the selected access is revoked.
func (m *Screen) confirmRevoke() tea.Cmd {
	a, ok := m.list.Selected()
	if !ok || a.ID == "" {
		return nil
	}
	id, svc := a.ID, m.svc
	body := fmt.Sprintf("Access: %s\nIt may now: %s\nRevoked, its sessions and API keys stop working at its next request. This cannot be undone: to let it back, invite it again.",
		a.Email, strings.Join(ui.PermissionNames(a.AccessPermission), ", "))
	if m.own(a) {
		body = "⚠ THIS IS YOUR OWN ACCESS: this dashboard stops working once it is revoked.\n" + body
	}
	return m.ask(&write{
		title:  fmt.Sprintf("Revoke %s?", a.Email),
		body:   body,
		action: "revoke-access", endpoint: endpointRevoke + id,
		ids:     map[string]string{"accessId": id, "email": a.Email},
		outcome: "revoked", done: a.Email + " revoked: its sessions and API keys no longer work",
		list: tabAccesses,
		call: func(ctx context.Context, otp string) (outcome, error) {
			return outcome{}, svc.RevokeAccess(ctx, id, otp)
		},
	})
}

// own reports whether a is the caller's own access.
func (m *Screen) own(a api.Access) bool {
	return m.s.Access != nil && strings.EqualFold(a.Email, m.s.Access.Email)
}

// flagList names the flags p holds, for the journal.
func flagList(p api.Permissions) string {
	var on []string
	for _, fl := range flags {
		if fl.get(p) {
			on = append(on, fl.key)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}
