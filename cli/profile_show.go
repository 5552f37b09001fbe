package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
)

func newCmdProfileShow(f *Factory) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show a profile and which secrets the keyring holds for it, never the secrets",
		Example: `  tesouro profile show
  tesouro profile show acme --check`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: f.completeProfiles,
		RunE:              func(cmd *cobra.Command, args []string) error { return f.profileShow(cmd, args, &check) },
	}
	cmd.Flags().BoolVar(&check, "check", false, "authenticate with the stored secrets and show the access e-mail and permissions")
	return cmd
}

func (f *Factory) profileShow(cmd *cobra.Command, args []string, check *bool) error {
	name, err := parseNamed(cmd, args, false)
	if err != nil {
		return err
	}
	cfg, p, err := f.Profile(name)
	if err != nil {
		return err
	}
	active := ""
	if p.Name == cfg.Active {
		active = " (active)"
	}
	pairs := [][2]string{
		{"Profile:", p.Name + active},
		{"Environment:", envLabel(p.Env)},
		{"Base URL:", p.BaseURL},
		{"Auth:", p.Auth},
		{"E-mail:", dash(p.Email)},
		{"Sub-account:", subLabel(p.SubAccount)},
		{"Read-only:", yesNo(p.ReadOnly)},
	}
	if p.Production() {
		pairs = append(pairs, [2]string{"Scripted writes:", yesNo(p.ScriptedWrites)})
	}
	pairs = append(pairs, [2]string{"Keyring:", "service " + keystore.Service(p.Name)})
	sec := f.Secrets()
	var keyringErr error
	for _, k := range keystore.SecretKeys {
		if !usesKey(p.Auth, k) {
			continue
		}
		state, err := secretState(sec, p.Name, k)
		if err != nil {
			keyringErr = err
			break
		}
		pairs = append(pairs, [2]string{"  " + secretLabel(k) + ":", state})
	}
	if err := writePairs(f.Stdout, pairs); err != nil {
		return err
	}
	if keyringErr != nil {
		return keyringErr
	}
	if !*check {
		return nil
	}

	var persistErr error
	auth, err := keystore.NewAuthenticatorWith(sec, p, func(err error) { persistErr = err })
	if err != nil {
		return err
	}
	info, err := f.accessInfo(p, auth)
	if err != nil {
		return fmt.Errorf("check failed: %w", err)
	}
	if persistErr != nil {
		fmt.Fprintf(f.Stderr, "warning: the service rotated the login tokens but they could not be saved: %v\n", persistErr)
	}
	fmt.Fprintf(f.Stdout, "\nCheck: authenticated with %s.\n", p.BaseURL)
	printAccessInfo(f.Stdout, info)
	return nil
}

// secretState says whether the keyring holds secret k of a profile, and
// which key pair a stored private key is. The error is the keyring's.
func secretState(sec keystore.Secrets, name, k string) (string, error) {
	v, err := sec.Get(name, k)
	switch {
	case errors.Is(err, keystore.ErrNotStored) && k == keystore.KeyAccessToken:
		return "not stored (fetched with the refresh token at the next request)", nil
	case errors.Is(err, keystore.ErrNotStored):
		return "missing", nil
	case err != nil:
		return "", err
	case k != keystore.KeyPrivateKey:
		return "stored", nil
	}
	signer, err := api.ParsePrivateKey([]byte(v))
	if err != nil {
		return "stored, but unreadable: " + err.Error(), nil
	}
	return "stored (" + keySummary(signer.Public()) + ")", nil
}

func printAccessInfo(w io.Writer, info *api.AccessInfo) {
	pairs := [][2]string{{"Access e-mail:", info.Email}, {"Permissions:", permissionList(info.AccountPermissions)}}
	frozen := "no"
	if info.Frozen(time.Now()) {
		frozen = "until " + info.FrozenUntil.Local().Format("2006-01-02 15:04")
	}
	pairs = append(pairs, [2]string{"Frozen:", frozen}, [2]string{"MFA:", yesNo(info.MFAActivated)})
	bl := "none"
	if n := len(info.BlacklistedAccountIDs); n > 0 || info.IsMainAccountBlacklisted {
		bl = fmt.Sprintf("%d account(s)", n)
		if info.IsMainAccountBlacklisted {
			bl += ", including the main account"
		}
	}
	pairs = append(pairs, [2]string{"Blacklisted from:", bl})
	_ = writePairs(w, pairs)
}

// permissionList names the permissions an access holds, in the order the
// service lists them.
func permissionList(p api.Permissions) string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{
		{p.Admin, "admin"}, {p.ViewOnly, "viewOnly"}, {p.PayIn, "payIn"}, {p.PayOut, "payOut"},
		{p.Convert, "convert"}, {p.OnChain, "onChain"}, {p.Markup, "markup"}, {p.Beneficiary, "beneficiary"},
		{p.EnforceAllowedBeneficiaries, "enforceAllowedBeneficiaries"},
		{p.OperationRequester, "operationRequester"}, {p.OperationApprover, "operationApprover"},
		{p.ManageWebhooks, "manageWebhooks"}, {p.ManageAccesses, "manageAccesses"},
	} {
		if f.on {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
