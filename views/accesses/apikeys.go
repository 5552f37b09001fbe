package accesses

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Endpoints the API key writes name in the journal.
const (
	endpointNewKey    = "POST /v2/auth/api-keys"
	endpointAllow     = "PATCH /v2/auth/api-keys"
	endpointRevokeKey = "DELETE /v2/auth/api-keys/"
)

// keyID names an API key by the prefix the service lists.
func keyID(k api.APIKeyInfo) string { return k.APIKey }

// keyColumns are the API keys tab's: prefix, name, allow-list, created.
func keyColumns() []widget.Column {
	return []widget.Column{{Title: "Prefix", Width: 14}, {Title: "Name", Width: 20}, {Title: "Allow-list"}, {Title: "Created", Width: 16}}
}

// keyQuery asks for the access's API keys: the service sends them whole.
func (m *Screen) keyQuery(string) (listing.PageCall[api.APIKeyInfo], error) {
	svc := m.svc
	return func(ctx context.Context) (api.Page[api.APIKeyInfo], error) {
		list, err := svc.ListAPIKeys(ctx)
		return api.Page[api.APIKeyInfo]{Items: list}, err
	}, nil
}

func (m *Screen) keyRow(k api.APIKeyInfo) widget.Row {
	created := ""
	if !k.CreatedAt.IsZero() {
		created = k.CreatedAt.Local().Format("2006-01-02 15:04")
	}
	return widget.Row{Cells: []string{k.APIKey, k.Name, allowText(k.WhitelistedIPs), created}}
}

// allowText says which IPs may use a key.
func allowText(ips []string) string {
	if len(ips) == 0 {
		return "any IP"
	}
	return strings.Join(ips, ", ")
}

// parseIPs reads an allow-list typed as IP addresses separated by commas
// or spaces; blank is an empty list (any IP).
func parseIPs(s string) ([]string, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
	out := []string{}
	for _, f := range fields {
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address (such as 203.0.113.7 or 2001:db8::1)", f)
		}
		if ip := a.Unmap().String(); !slices.Contains(out, ip) {
			out = append(out, ip)
		}
	}
	return out, nil
}

// allowField is the allow-list field of the key forms.
func allowField() form.Field {
	return form.Field{Key: "whitelistedIPs", Label: "Allow-list", Placeholder: "blank: any IP",
		Check: func(v string, _ form.Values) (string, string, error) {
			ips, err := parseIPs(v)
			if err != nil {
				return "", "", err
			}
			return strings.Join(ips, ", "), fmt.Sprintf("%d IP address(es) may use the key", len(ips)), nil
		},
		Help: func(form.Values) string {
			return "IP addresses allowed to use the key, separated by commas; blank lets any IP use it"
		}}
}

// openNewKey opens the form of a new API key: its name, allow-list, key
// type, and the new profile its secrets go to.
func (m *Screen) openNewKey() tea.Cmd {
	if err := m.canManage(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot create an API key: "+ui.ErrorText(err))
	}
	if m.keeper == nil {
		return ui.Toast(ui.ToastError, "Cannot create an API key here: no keyring to keep its private key")
	}
	f := form.New("New API key",
		form.Field{Key: "name", Label: "Name", Required: true, Placeholder: "e.g. payouts-server", CharLimit: 60,
			Help: func(form.Values) string { return "how the key is listed; the service never shows the key itself again" }},
		allowField(),
		form.Field{Key: "keyType", Label: "Key type", Choices: keyTypes,
			Help: func(form.Values) string {
				return "the key pair is made now, on this machine; ed25519 is the smallest and fastest"
			}},
		form.Field{Key: "profile", Label: "New profile", Required: true, Placeholder: "e.g. live-2026", CharLimit: 40,
			Check: form.Plain(func(v string) (string, error) { return v, keystore.ValidName(v) }),
			Help: func(form.Values) string {
				return "the private key and the API key go to the OS keyring under this new profile, never to the screen or a file"
			}},
	)
	return m.openForm(f, m.newKeyWrite)
}

// newKeyWrite is the creation the checked form says. The key pair is made
// in the request, after the yes: nothing secret exists before.
func (m *Screen) newKeyWrite(f *form.Form) *write {
	name, typ, profile := strings.TrimSpace(f.Value("name")), f.Value("keyType"), f.Normalized("profile")
	ips, _ := parseIPs(f.Value("whitelistedIPs"))
	svc, keeper, env := m.svc, m.keeper, string(m.s.Env)
	var b strings.Builder
	fmt.Fprintf(&b, "Name: %s\nAllowed from: %s\nKey pair: %s, made now on this machine\n", name, allowText(ips), typ)
	fmt.Fprintf(&b, "New profile: %s (this service, %s), acting as %s\n", profile, env, m.s.Access.Email)
	fmt.Fprintln(&b, "The private key and the API key go to the OS keyring of that profile only: neither is shown nor written to a file.")
	if m.s.Embedded {
		fmt.Fprintln(&b, "⚠ This sandbox runs inside this dashboard: the profile reaches it only while the dashboard runs.")
	}
	return &write{
		title: fmt.Sprintf("Create API key %q?", name), body: b.String(),
		action: "create-api-key", endpoint: endpointNewKey,
		ids:     map[string]string{"name": name, "profile": profile, "keyType": typ, "whitelistedIPs": strings.Join(ips, ",")},
		outcome: "created", list: tabKeys, form: f,
		done: fmt.Sprintf("API key %q created: profile %s signs with it (tesouro --profile %s, or make it the default with tesouro profile use %s)", name, profile, profile, profile),
		call: func(ctx context.Context, otp string) (outcome, error) {
			return createKey(ctx, svc, keeper, env, otp, name, typ, profile, ips)
		},
	}
}

// createKey makes the key pair, keeps its private key for the new profile,
// registers the public key, then keeps the API key the service issued. A
// failure undoes what was kept; a key registered but not kept is named, to
// be revoked.
func createKey(ctx context.Context, svc Service, keeper Keeper, env, otp, name, typ, profile string, ips []string) (outcome, error) {
	if err := keeper.Free(profile); err != nil {
		return outcome{}, fieldError{key: "profile", err: err}
	}
	pair, err := api.NewKeyPair(typ, rsaBits)
	if err != nil {
		return outcome{}, err
	}
	out := outcome{ids: map[string]string{"publicKey": pair.Fingerprint}}
	if err := keeper.SetPrivateKey(profile, pair.PrivatePEM); err != nil {
		return out, fmt.Errorf("keep the private key: %w; nothing was created", err)
	}
	key, err := svc.CreateAPIKey(ctx, api.CreateAPIKeyRequest{OTP: otp, Name: name, PublicKey: pair.PublicPEM, WhitelistedIPs: ips})
	if err != nil {
		return out, errors.Join(err, forget(keeper, profile))
	}
	if err := keeper.Save(profile, key, env); err != nil {
		return out, fmt.Errorf("API key %q was created but could not be kept (%w): revoke it on this tab, nothing can sign with it%w", name, err, forget(keeper, profile))
	}
	return out, nil
}

// forget removes what was kept for profile; its error says so.
func forget(keeper Keeper, profile string) error {
	if err := keeper.Forget(profile); err != nil {
		return fmt.Errorf("; the private key stays in the keyring of profile %s: remove it with \"tesouro profile remove %s\" (%w)", profile, profile, err)
	}
	return nil
}

// openAllow opens the allow-list of the selected key, as it is now.
func (m *Screen) openAllow() tea.Cmd {
	if err := m.canManage(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot change the allow-list: "+ui.ErrorText(err))
	}
	k, ok := m.apiKeys.Selected()
	if !ok {
		return nil
	}
	f := form.New(fmt.Sprintf("Allow-list of API key %s (%s)", k.APIKey, k.Name), allowField())
	f.SetValue("whitelistedIPs", strings.Join(k.WhitelistedIPs, ", "))
	before := slices.Clone(k.WhitelistedIPs)
	f.AddRule(func(v form.Values) (string, string) {
		if ips, err := parseIPs(v("whitelistedIPs")); err == nil && slices.Equal(ips, before) {
			return "whitelistedIPs", "nothing changed: edit the list, or esc to leave"
		}
		return "", ""
	})
	return m.openForm(f, func(f *form.Form) *write { return m.allowWrite(k, f) })
}

// allowWrite is the allow-list change the checked form says.
func (m *Screen) allowWrite(k api.APIKeyInfo, f *form.Form) *write {
	ips, _ := parseIPs(f.Value("whitelistedIPs"))
	prefix, svc := k.APIKey, m.svc
	var b strings.Builder
	fmt.Fprintf(&b, "API key: %s (%s)\nBefore: allowed from %s\nAfter: allowed from %s\n", k.APIKey, k.Name, allowText(k.WhitelistedIPs), allowText(ips))
	for _, ip := range k.WhitelistedIPs {
		if !slices.Contains(ips, ip) && len(ips) > 0 {
			fmt.Fprintf(&b, "  - %s: refused from its next request\n", ip)
		}
	}
	for _, ip := range ips {
		if !slices.Contains(k.WhitelistedIPs, ip) {
			fmt.Fprintf(&b, "  + %s\n", ip)
		}
	}
	if len(ips) == 0 {
		fmt.Fprintln(&b, "An empty list lets any IP use the key.")
	}
	return &write{
		title: fmt.Sprintf("Change the allow-list of API key %s?", k.APIKey), body: b.String(),
		action: "change-api-key-allow-list", endpoint: endpointAllow,
		ids:     map[string]string{"apiKey": prefix, "name": k.Name, "whitelistedIPs": strings.Join(ips, ",")},
		outcome: "changed", list: tabKeys, selectID: prefix, form: f,
		done: fmt.Sprintf("API key %s now allowed from %s", prefix, allowText(ips)),
		call: func(ctx context.Context, otp string) (outcome, error) {
			return outcome{}, svc.SetAPIKeyAllowedIPs(ctx, otp, prefix, ips)
		},
	}
}

// confirmRevokeKey asks before the selected API key is revoked.
func (m *Screen) confirmRevokeKey() tea.Cmd {
	k, ok := m.apiKeys.Selected()
	if !ok {
		return nil
	}
	prefix, svc := k.APIKey, m.svc
	body := fmt.Sprintf("API key: %s (%s)\nAllowed from: %s\nRevoked, it stops working at its next request: whatever signs with it (a server, a profile) is refused. This cannot be undone.\nIf this dashboard signs with this key, it stops working too.",
		k.APIKey, k.Name, allowText(k.WhitelistedIPs))
	return m.ask(&write{
		title: fmt.Sprintf("Revoke API key %s (%s)?", k.APIKey, k.Name), body: body,
		action: "revoke-api-key", endpoint: endpointRevokeKey + prefix,
		ids:     map[string]string{"apiKey": prefix, "name": k.Name},
		outcome: "revoked", list: tabKeys,
		done: fmt.Sprintf("API key %s (%s) revoked", prefix, k.Name),
		call: func(ctx context.Context, otp string) (outcome, error) {
			return outcome{}, svc.DeleteAPIKey(ctx, prefix, otp)
		},
	})
}
