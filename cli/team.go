package cli

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
)

// Team administration (spec/service.md §8.8): who may act on the account
// (tesouro access) and with which API keys (tesouro apikey). Every write
// needs the acting access's manageAccesses permission and its current
// TOTP code (--otp, or asked for without echo), is confirmed unless --yes,
// and is journaled (without the code).

// permissionFlags are the flags an access can be given, by their wire
// names, with what each allows in words.
var permissionFlags = []struct{ name, what string }{
	{"payIn", "receive money into the account"},
	{"payOut", "send money out of the account"},
	{"convert", "convert between currencies"},
	{"onChain", "move tokens on a blockchain"},
	{"viewOnly", "only look: every write refused"},
	{"markup", "charge a markup on tickets"},
	{"beneficiary", "add and remove beneficiaries"},
	{"enforceAllowedBeneficiaries", "pay only registered beneficiaries"},
	{"operationRequester", "its payments wait for approvers"},
	{"operationApprover", "approve others' payments"},
	{"manageWebhooks", "register and remove webhooks"},
	{"manageAccesses", "invite, change and revoke accesses and API keys"},
}

func permissionNames() []string {
	out := make([]string, len(permissionFlags))
	for i, p := range permissionFlags {
		out[i] = p.name
	}
	return out
}

// parsePermissions reads --permissions: flag names separated by commas
// (any case); "none" for no flag at all.
func parsePermissions(s string) (api.Permissions, error) {
	var p api.Permissions
	s = strings.TrimSpace(s)
	if s == "" {
		return p, Usagef("--permissions is required: flag names separated by commas (%s), or none", strings.Join(permissionNames(), ", "))
	}
	if strings.EqualFold(s, "none") {
		return p, nil
	}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, f := range permissionFlags {
			if strings.EqualFold(f.name, name) {
				*p.Flag(f.name), found = true, true
			}
		}
		if !found {
			return p, Usagef("--permissions: %q is not a permission; use %s", name, strings.Join(permissionNames(), ", "))
		}
	}
	return p, nil
}

// permissionChanges says in words what going from old to new grants and
// removes.
func permissionChanges(old, new api.Permissions) (grants, removes []string) {
	for _, f := range permissionFlags {
		o, n := *old.Flag(f.name), *new.Flag(f.name)
		switch {
		case n && !o:
			grants = append(grants, f.name+" ("+f.what+")")
		case o && !n:
			removes = append(removes, f.name+" ("+f.what+")")
		}
	}
	return grants, removes
}

func permissionWords(p api.Permissions) string {
	var on []string
	for _, f := range permissionFlags {
		if *p.Flag(f.name) {
			on = append(on, f.name)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}

// adminWrite is what the access and apikey writes share: --otp and --yes.
type adminWrite struct {
	otp string
	yes bool
}

func addAdminWriteFlags(cmd *cobra.Command) *adminWrite {
	var w adminWrite
	cmd.Flags().StringVar(&w.otp, "otp", "", "the acting access's current TOTP CODE (asked for, without echo, when not given)")
	cmd.Flags().BoolVar(&w.yes, "yes", false, "do it without asking (scripts)")
	return &w
}

// interactive decides how the write is confirmed: at a terminal unless
// --yes; without a terminal, --yes is required.
func (w *adminWrite) interactive(f *Factory) (bool, error) {
	interactive := f.StdinTTY() && !w.yes
	if !interactive && !w.yes {
		return false, Usagef("no terminal to confirm at: pass --yes to do it without asking")
	}
	return interactive, nil
}

// code is the TOTP code: --otp, or asked for without echo.
func (w *adminWrite) code(f *Factory) (string, error) {
	if c := strings.TrimSpace(w.otp); c != "" {
		return c, nil
	}
	c, err := f.Prompter.Secret("Current TOTP code: ")
	if err != nil {
		return "", fmt.Errorf("read the TOTP code: %w (or pass --otp CODE)", err)
	}
	return strings.TrimSpace(c), nil
}

// confirm shows what will change and, at a terminal, asks.
func (w *adminWrite) confirm(ctx context.Context, f *Factory, interactive bool, lines ...string) error {
	for _, l := range lines {
		fmt.Fprintln(f.Stderr, l)
	}
	if interactive && !f.Prompter.Confirm(ctx, "Go ahead?") {
		return errors.New("not confirmed: nothing changed")
	}
	return nil
}

// explainAdmin adds what to do to the refusals of team administration.
func explainAdmin(err error) error {
	switch {
	case api.IsInvalidOTP(err):
		return fmt.Errorf("%w\nThe TOTP code was refused: use the current one (codes change every 30 s)", err)
	case api.IsOTPRequired(err):
		return fmt.Errorf("%w\nGive the current TOTP code with --otp CODE", err)
	}
	return err
}

// mainOnlyCheck refuses --sub-account: accesses and keys belong to the
// main account.
func mainOnlyCheck(cmd *cobra.Command, _ []string) error {
	if fl := cmd.Flags().Lookup("sub-account"); fl != nil && fl.Changed {
		return Usagef("%s: --sub-account does not apply: accesses and API keys belong to the main account", cmd.CommandPath())
	}
	return nil
}

func newCmdAccess(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:               "access",
		Short:             "Accesses: list, invite, change permissions, revoke",
		Args:              cobra.ArbitraryArgs,
		RunE:              GroupRunE("list, invite, update or revoke"),
		PersistentPreRunE: mainOnlyCheck,
	}
	cmd.AddCommand(newCmdAccessList(f), newCmdAccessInvite(f), newCmdAccessUpdate(f), newCmdAccessRevoke(f))
	return cmd
}

// accessRow is one access as listed.
type accessRow struct {
	ID          string          `json:"id"`
	Email       string          `json:"email"`
	Permissions api.Permissions `json:"permissions"`
	MFA         bool            `json:"mfa"`
	CreatedAt   string          `json:"createdAt"`
}

func newCmdAccessList(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "list", Short: "List the account's accesses and their permissions", Args: noArgs,
		Example: `  tesouro access list
  tesouro access list --jq '.[] | select(.permissions.payOut) | .email'`}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.runMain(cmd, func(ctx context.Context, s *session) error {
			list, err := s.client().ListAccesses(ctx, api.AccessFilter{})
			if err != nil {
				return err
			}
			rows := make([]accessRow, len(list))
			for i, a := range list {
				rows[i] = accessRow{ID: a.ID, Email: a.Email, Permissions: a.AccessPermission, MFA: a.MFA != nil, CreatedAt: a.CreatedAt}
			}
			return out.Write(f.Stdout, rows, func() Table {
				t := Table{Columns: []string{"id", "email", "permissions", "mfa", "created_at"}}
				for _, r := range rows {
					t.Rows = append(t.Rows, []string{r.ID, r.Email, permissionWords(r.Permissions), fmt.Sprint(r.MFA), r.CreatedAt})
				}
				return t
			})
		})
	}
	return cmd
}

func newCmdAccessInvite(f *Factory) *cobra.Command {
	var perms string
	cmd := &cobra.Command{Use: "invite EMAIL", Short: "Invite a person with the permissions given; they set a password from the e-mail",
		Long: `Invites EMAIL to the account with exactly the permissions of --permissions (flag names
separated by commas). The service e-mails them a token to set their password; the sandbox
shows it in its log and at GET /v2/sandbox/outbox. Needs manageAccesses and the current
TOTP code.`,
		Example: `  tesouro --credentials sandbox-credentials.json --as admin access invite ana@acme-treasury.example --permissions payIn --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes`,
		Args:    exactArgs("EMAIL"), ValidArgsFunction: noFiles}
	cmd.Flags().StringVar(&perms, "permissions", "", "the permissions, comma-separated: "+strings.Join(permissionNames(), ", ")+"; or none")
	_ = cmd.RegisterFlagCompletionFunc("permissions", cobra.FixedCompletions(permissionNames(), cobra.ShellCompDirectiveNoFileComp))
	aw := addAdminWriteFlags(cmd)
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		email := strings.TrimSpace(args[0])
		p, err := parsePermissions(perms)
		if err != nil {
			return err
		}
		interactive, err := aw.interactive(f)
		if err != nil {
			return err
		}
		return f.runWrite(cmd, write{what: "access invite", interactive: interactive, mainOnly: true}, func(ctx context.Context, s *session) error {
			grants, _ := permissionChanges(api.Permissions{}, p)
			if len(grants) == 0 {
				grants = []string{"none"}
			}
			if err := aw.confirm(ctx, f, interactive, fmt.Sprintf("Invite %s with: %s", email, strings.Join(grants, "; "))); err != nil {
				return err
			}
			code, err := aw.code(f)
			if err != nil {
				return err
			}
			var id string
			err = s.write("access-invite", "POST /v2/auth/accesses", func(je *journal.Entry) error {
				je.IDs = map[string]string{"email": email, "permissions": permissionWords(p)}
				var err error
				if id, err = s.client().InviteAccess(ctx, api.InviteAccessRequest{OTP: code, Email: email, Permissions: p}); err != nil {
					return err
				}
				je.IDs["access"], je.Outcome = id, "invited"
				return nil
			})
			if err != nil {
				return explainAdmin(err)
			}
			res := map[string]string{"id": id, "email": email, "permissions": permissionWords(p)}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"id", "email", "permissions"}, Rows: [][]string{{id, email, permissionWords(p)}}}
			})
		})
	}
	return cmd
}

func newCmdAccessUpdate(f *Factory) *cobra.Command {
	var perms string
	cmd := &cobra.Command{Use: "update ACCESS_ID", Short: "Replace an access's permissions (an access cannot raise its own)",
		Example: `  tesouro --credentials sandbox-credentials.json --as admin access update "$(tesouro --credentials sandbox-credentials.json access list --jq '.[] | select(.email | startswith("viewer")) | .id')" --permissions viewOnly,payIn --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes`,
		Args:    exactArgs("ACCESS_ID"), ValidArgsFunction: noFiles}
	cmd.Flags().StringVar(&perms, "permissions", "", "the new permissions, comma-separated (they replace the old ones): "+strings.Join(permissionNames(), ", ")+"; or none")
	_ = cmd.RegisterFlagCompletionFunc("permissions", cobra.FixedCompletions(permissionNames(), cobra.ShellCompDirectiveNoFileComp))
	aw := addAdminWriteFlags(cmd)
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id := strings.TrimSpace(args[0])
		p, err := parsePermissions(perms)
		if err != nil {
			return err
		}
		interactive, err := aw.interactive(f)
		if err != nil {
			return err
		}
		return f.runWrite(cmd, write{what: "access update", interactive: interactive, mainOnly: true}, func(ctx context.Context, s *session) error {
			cur, err := s.client().GetAccess(ctx, id)
			if err != nil {
				return err
			}
			grants, removes := permissionChanges(cur.AccessPermission, p)
			if len(grants) == 0 && len(removes) == 0 {
				return fmt.Errorf("%s already has exactly these permissions (%s): nothing to change", cur.Email, permissionWords(p))
			}
			lines := []string{"Change the permissions of " + cur.Email + ":"}
			for _, g := range grants {
				lines = append(lines, "  + "+g)
			}
			for _, r := range removes {
				lines = append(lines, "  - "+r)
			}
			if err := aw.confirm(ctx, f, interactive, lines...); err != nil {
				return err
			}
			code, err := aw.code(f)
			if err != nil {
				return err
			}
			err = s.write("access-update", "PATCH /v2/auth/accesses", func(je *journal.Entry) error {
				je.IDs = map[string]string{"access": id, "email": cur.Email, "from": permissionWords(cur.AccessPermission), "to": permissionWords(p)}
				if err := s.client().UpdateAccessPermissions(ctx, id, code, p); err != nil {
					return err
				}
				je.Outcome = "updated"
				return nil
			})
			if err != nil {
				return explainAdmin(err)
			}
			res := map[string]string{"id": id, "email": cur.Email, "permissions": permissionWords(p)}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"id", "email", "permissions"}, Rows: [][]string{{id, cur.Email, permissionWords(p)}}}
			})
		})
	}
	return cmd
}

func newCmdAccessRevoke(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "revoke ACCESS_ID", Short: "Revoke an access: its sessions and API keys stop at once",
		Example: `  tesouro --credentials sandbox-credentials.json --as admin access revoke "$(tesouro --credentials sandbox-credentials.json access list --jq '.[] | select(.email | startswith("restricted")) | .id')" --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes`,
		Args:    exactArgs("ACCESS_ID"), ValidArgsFunction: noFiles}
	aw := addAdminWriteFlags(cmd)
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id := strings.TrimSpace(args[0])
		interactive, err := aw.interactive(f)
		if err != nil {
			return err
		}
		return f.runWrite(cmd, write{what: "access revoke", interactive: interactive, mainOnly: true}, func(ctx context.Context, s *session) error {
			cur, err := s.client().GetAccess(ctx, id)
			if err != nil {
				return err
			}
			if err := aw.confirm(ctx, f, interactive, fmt.Sprintf("Revoke %s (%s): its sessions and API keys stop at once.", cur.Email, permissionWords(cur.AccessPermission))); err != nil {
				return err
			}
			code, err := aw.code(f)
			if err != nil {
				return err
			}
			err = s.write("access-revoke", "DELETE /v2/auth/accesses/{id}", func(je *journal.Entry) error {
				je.IDs = map[string]string{"access": id, "email": cur.Email}
				if err := s.client().RevokeAccess(ctx, id, code); err != nil {
					return err
				}
				je.Outcome = "revoked"
				return nil
			})
			if err != nil {
				return explainAdmin(err)
			}
			res := map[string]string{"id": id, "email": cur.Email, "outcome": "revoked"}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"id", "email", "outcome"}, Rows: [][]string{{id, cur.Email, "revoked"}}}
			})
		})
	}
	return cmd
}

func newCmdAPIKey(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:               "apikey",
		Short:             "The acting access's API keys: list, create, allow-list, revoke",
		Args:              cobra.ArbitraryArgs,
		RunE:              GroupRunE("list, create, allow or revoke"),
		PersistentPreRunE: mainOnlyCheck,
	}
	cmd.AddCommand(newCmdAPIKeyList(f), newCmdAPIKeyCreate(f), newCmdAPIKeyAllow(f), newCmdAPIKeyRevoke(f))
	return cmd
}

// apiKeyRow is one API key as listed: the service shows its prefix only.
type apiKeyRow struct {
	APIKey         string   `json:"apiKey"`
	Name           string   `json:"name"`
	WhitelistedIPs []string `json:"whitelistedIPs"`
	CreatedAt      string   `json:"createdAt"`
}

func newCmdAPIKeyList(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "list", Short: "List the acting access's API keys (prefix, name, allow-list, created)", Args: noArgs,
		Example: `  tesouro apikey list
  tesouro apikey list --jq '.[].apiKey'`}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.runMain(cmd, func(ctx context.Context, s *session) error {
			keys, err := s.client().ListAPIKeys(ctx)
			if err != nil {
				return err
			}
			rows := make([]apiKeyRow, len(keys))
			for i, k := range keys {
				rows[i] = apiKeyRow{APIKey: k.APIKey, Name: k.Name, WhitelistedIPs: k.WhitelistedIPs, CreatedAt: ts(k.CreatedAt)}
				if rows[i].WhitelistedIPs == nil {
					rows[i].WhitelistedIPs = []string{}
				}
			}
			return out.Write(f.Stdout, rows, func() Table {
				t := Table{Columns: []string{"api_key", "name", "allowed_ips", "created_at"}}
				for _, r := range rows {
					ips := strings.Join(r.WhitelistedIPs, ",")
					if ips == "" {
						ips = "any"
					}
					t.Rows = append(t.Rows, []string{r.APIKey, r.Name, ips, r.CreatedAt})
				}
				return t
			})
		})
	}
	return cmd
}

// parseIPs reads --ip values (repeatable, or comma-separated).
func parseIPs(vals []string) []string {
	out := []string{}
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func newCmdAPIKeyCreate(f *Factory) *cobra.Command {
	var newProfile, typ string
	var ips []string
	cmd := &cobra.Command{Use: "create NAME", Short: "Make a key pair and register it as a new API key, stored in a new profile",
		Long: `Makes a key pair on the spot, registers its public key as a new API key of the acting
access named NAME, and saves a new profile (--new-profile) on the same service with the API
key and the private key in the keyring. The private key is never printed nor written to a
file. Switch to it with "tesouro profile use PROFILE"; then revoke the old key.`,
		Example: `  tesouro --credentials sandbox-credentials.json --as admin apikey create ci --new-profile admin-ci --ip 127.0.0.1 --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes`,
		Args:    exactArgs("NAME"), ValidArgsFunction: noFiles}
	cmd.Flags().StringVar(&newProfile, "new-profile", "", "PROFILE to save the new key in (required; must not exist)")
	cmd.Flags().StringVar(&typ, "type", api.KeyEd25519, "key type: ed25519, ecdsa (P-256) or rsa (4096 bits)")
	cmd.Flags().StringSliceVar(&ips, "ip", nil, "an IP or CIDR range the key may be used from (repeat, or separate with commas; none: any IP)")
	_ = cmd.RegisterFlagCompletionFunc("type", cobra.FixedCompletions([]string{api.KeyEd25519, api.KeyECDSA, api.KeyRSA}, cobra.ShellCompDirectiveNoFileComp))
	aw := addAdminWriteFlags(cmd)
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		name := strings.TrimSpace(args[0])
		if newProfile == "" {
			return Usagef("apikey create: --new-profile PROFILE is required: the new key is saved in it")
		}
		if err := keystore.ValidName(newProfile); err != nil {
			return Usagef("apikey create: --new-profile: %v", err)
		}
		switch typ {
		case api.KeyEd25519, api.KeyECDSA, api.KeyRSA:
		default:
			return Usagef("apikey create: --type must be ed25519, ecdsa or rsa, not %q", typ)
		}
		cfg, err := f.Config()
		if err != nil {
			return err
		}
		if _, err := cfg.Lookup(newProfile); err == nil {
			return Usagef("apikey create: profile %q exists; name a new one with --new-profile", newProfile)
		}
		allow := parseIPs(ips)
		interactive, err := aw.interactive(f)
		if err != nil {
			return err
		}
		t, err := f.Resolve()
		if err != nil {
			return err
		}
		if t.Embedded {
			return Usagef("apikey create: the --sandbox started for this command ends with it, and the key with it; use a running \"tesouro sandbox\" (--credentials FILE) or a profile")
		}
		env := keystore.EnvSandbox
		if t.Profile != "" {
			_, p, err := f.Profile(t.Profile)
			if err != nil {
				return err
			}
			env = p.Env
		}
		return f.runWrite(cmd, write{what: "apikey create", interactive: interactive, mainOnly: true}, func(ctx context.Context, s *session) error {
			allowWords := strings.Join(allow, ", ")
			if allowWords == "" {
				allowWords = "any IP"
			}
			if err := aw.confirm(ctx, f, interactive, fmt.Sprintf("Create API key %q (%s) for %s, usable from %s, saved as profile %s.", name, typ, s.conn.Email, allowWords, newProfile)); err != nil {
				return err
			}
			code, err := aw.code(f)
			if err != nil {
				return err
			}
			pair, err := api.NewKeyPair(typ, 4096)
			if err != nil {
				return err
			}
			privPEM, pubPEM := pair.PrivatePEM, pair.PublicPEM
			// The private key goes to the keyring before the key exists at
			// the service: a keyring that cannot take it stops everything
			// before anything is created.
			sec := f.Secrets()
			if err := sec.Set(newProfile, keystore.KeyPrivateKey, privPEM); err != nil {
				return fmt.Errorf("nothing was created: the private key could not be stored in the keyring: %w", err)
			}
			var apiKey string
			err = s.write("apikey-create", "POST /v2/auth/api-keys", func(je *journal.Entry) error {
				je.IDs = map[string]string{"name": name, "profile": newProfile, "publicKey": pair.Fingerprint, "allowedIPs": strings.Join(allow, ",")}
				var err error
				if apiKey, err = s.client().CreateAPIKey(ctx, api.CreateAPIKeyRequest{OTP: code, Name: name, PublicKey: pubPEM, WhitelistedIPs: allow}); err != nil {
					return err
				}
				je.IDs["apiKey"], je.Outcome = prefixOf(apiKey), "created"
				return nil
			})
			if err != nil {
				if derr := sec.Delete(newProfile, keystore.KeyPrivateKey); derr != nil {
					fmt.Fprintf(f.Stderr, "warning: the unused private key of %s stays in the keyring: %v\n", newProfile, derr)
				}
				return explainAdmin(err)
			}
			p := keystore.Profile{Name: newProfile, BaseURL: keystore.NormalizeBaseURL(s.target.baseURL), Env: env, Auth: keystore.AuthAPIKey}
			if err := cfg.Put(p, false); err != nil {
				return fmt.Errorf("the key %s was created, but profile %s could not be saved: %w; revoke it with \"tesouro apikey revoke %s\"", prefixOf(apiKey), newProfile, err, prefixOf(apiKey))
			}
			if err := sec.Set(newProfile, keystore.KeyAPIKey, apiKey); err != nil {
				return fmt.Errorf("the key %s was created, but it could not be stored: %w; revoke it with \"tesouro apikey revoke %s\"", prefixOf(apiKey), err, prefixOf(apiKey))
			}
			if err := cfg.Save(); err != nil {
				return err
			}
			fmt.Fprintf(f.Stderr, "Private key stored in the keyring under %s; switch with: tesouro profile use %s\n", keystore.Service(newProfile), newProfile)
			res := map[string]any{"apiKey": prefixOf(apiKey), "name": name, "profile": newProfile, "whitelistedIPs": allow, "publicKey": pair.Fingerprint}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"api_key", "name", "profile", "allowed_ips"}, Rows: [][]string{{prefixOf(apiKey), name, newProfile, strings.Join(allow, ",")}}}
			})
		})
	}
	return cmd
}

// prefixOf is the part of an API key the service lists.
func prefixOf(key string) string {
	if len(key) > 12 {
		return key[:12]
	}
	return key
}

// findKey resolves a key the user named (the listed prefix or a name) to
// the acting access's key.
func findKey(ctx context.Context, c *api.Client, ref string) (api.APIKeyInfo, error) {
	keys, err := c.ListAPIKeys(ctx)
	if err != nil {
		return api.APIKeyInfo{}, err
	}
	var matches []api.APIKeyInfo
	for _, k := range keys {
		if k.APIKey == ref || k.Name == ref || (len(ref) >= 12 && strings.HasPrefix(ref, k.APIKey)) {
			matches = append(matches, k)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = k.APIKey + " (" + k.Name + ")"
		}
		sort.Strings(names)
		return api.APIKeyInfo{}, fmt.Errorf("no API key of this access is %q; its keys: %s", ref, strings.Join(names, ", "))
	}
	return api.APIKeyInfo{}, fmt.Errorf("%q names %d keys; give the prefix (tesouro apikey list)", ref, len(matches))
}

func newCmdAPIKeyAllow(f *Factory) *cobra.Command {
	var ips []string
	var anyIP bool
	cmd := &cobra.Command{Use: "allow KEY", Short: "Replace the IPs an API key may be used from (KEY: its prefix or name)",
		Example: `  tesouro --credentials sandbox-credentials.json --as admin apikey allow "demo admin" --ip 127.0.0.1 --ip ::1 --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes
  tesouro --credentials sandbox-credentials.json --as admin apikey allow "demo admin" --any --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes`,
		Args: exactArgs("KEY"), ValidArgsFunction: noFiles}
	cmd.Flags().StringSliceVar(&ips, "ip", nil, "an IP or CIDR range the key may be used from (repeat, or separate with commas)")
	cmd.Flags().BoolVar(&anyIP, "any", false, "allow any IP (empties the allow-list)")
	aw := addAdminWriteFlags(cmd)
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		allow := parseIPs(ips)
		switch {
		case anyIP && len(allow) > 0:
			return Usagef("apikey allow: --any and --ip exclude each other")
		case !anyIP && len(allow) == 0:
			return Usagef("apikey allow: give the allowed IPs with --ip, or --any to allow any IP")
		}
		interactive, err := aw.interactive(f)
		if err != nil {
			return err
		}
		return f.runWrite(cmd, write{what: "apikey allow", interactive: interactive, mainOnly: true}, func(ctx context.Context, s *session) error {
			k, err := findKey(ctx, s.client(), strings.TrimSpace(args[0]))
			if err != nil {
				return err
			}
			from, to := strings.Join(k.WhitelistedIPs, ", "), strings.Join(allow, ", ")
			if from == "" {
				from = "any IP"
			}
			if to == "" {
				to = "any IP"
			}
			if err := aw.confirm(ctx, f, interactive, fmt.Sprintf("API key %s (%s): usable from %s instead of %s.", k.APIKey, k.Name, to, from)); err != nil {
				return err
			}
			code, err := aw.code(f)
			if err != nil {
				return err
			}
			err = s.write("apikey-allow", "PATCH /v2/auth/api-keys", func(je *journal.Entry) error {
				je.IDs = map[string]string{"apiKey": k.APIKey, "name": k.Name, "from": strings.Join(k.WhitelistedIPs, ","), "to": strings.Join(allow, ",")}
				if err := s.client().SetAPIKeyAllowedIPs(ctx, code, k.APIKey, allow); err != nil {
					return err
				}
				je.Outcome = "allow-list changed"
				return nil
			})
			if err != nil {
				return explainAdmin(err)
			}
			res := map[string]any{"apiKey": k.APIKey, "name": k.Name, "whitelistedIPs": allow}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"api_key", "name", "allowed_ips"}, Rows: [][]string{{k.APIKey, k.Name, to}}}
			})
		})
	}
	return cmd
}

func newCmdAPIKeyRevoke(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "revoke KEY", Short: "Revoke an API key at once (KEY: its prefix or name)",
		Example: `  tesouro --credentials sandbox-credentials.json --as admin apikey revoke "demo admin" --otp "$(tesouro --credentials sandbox-credentials.json sandbox totp admin)" --yes`,
		Args:    exactArgs("KEY"), ValidArgsFunction: noFiles}
	aw := addAdminWriteFlags(cmd)
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		interactive, err := aw.interactive(f)
		if err != nil {
			return err
		}
		return f.runWrite(cmd, write{what: "apikey revoke", interactive: interactive, mainOnly: true}, func(ctx context.Context, s *session) error {
			k, err := findKey(ctx, s.client(), strings.TrimSpace(args[0]))
			if err != nil {
				return err
			}
			if err := aw.confirm(ctx, f, interactive, fmt.Sprintf("Revoke API key %s (%s): every request signed with it is refused from now on.", k.APIKey, k.Name)); err != nil {
				return err
			}
			code, err := aw.code(f)
			if err != nil {
				return err
			}
			err = s.write("apikey-revoke", "DELETE /v2/auth/api-keys/{key}", func(je *journal.Entry) error {
				je.IDs = map[string]string{"apiKey": k.APIKey, "name": k.Name}
				if err := s.client().DeleteAPIKey(ctx, k.APIKey, code); err != nil {
					return err
				}
				je.Outcome = "revoked"
				return nil
			})
			if err != nil {
				return explainAdmin(err)
			}
			res := map[string]string{"apiKey": k.APIKey, "name": k.Name, "outcome": "revoked"}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"api_key", "name", "outcome"}, Rows: [][]string{{k.APIKey, k.Name, "revoked"}}}
			})
		})
	}
	return cmd
}
