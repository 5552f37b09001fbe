package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
)

func newCmdProfileShow(f *Factory) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:               "show [NAME]",
		Short:             "Show a profile and which secrets the keyring holds for it, never the secrets",
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
	tw := tabwriter.NewWriter(f.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Profile:\t%s%s\n", p.Name, active)
	fmt.Fprintf(tw, "Environment:\t%s\n", envLabel(p.Env))
	fmt.Fprintf(tw, "Base URL:\t%s\n", p.BaseURL)
	fmt.Fprintf(tw, "Auth:\t%s\n", p.Auth)
	fmt.Fprintf(tw, "E-mail:\t%s\n", dash(p.Email))
	fmt.Fprintf(tw, "Sub-account:\t%s\n", subLabel(p.SubAccount))
	fmt.Fprintf(tw, "Read-only:\t%s\n", yesNo(p.ReadOnly))
	if p.Production() {
		fmt.Fprintf(tw, "Scripted writes:\t%s\n", yesNo(p.ScriptedWrites))
	}
	fmt.Fprintf(tw, "Keyring:\tservice %s\n", keystore.Service(p.Name))
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
		fmt.Fprintf(tw, "  %s:\t%s\n", secretLabel(k), state)
	}
	if err := tw.Flush(); err != nil {
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Access e-mail:\t%s\n", info.Email)
	fmt.Fprintf(tw, "Permissions:\t%s\n", permissionList(info.AccountPermissions))
	frozen := "no"
	if info.Frozen(time.Now()) {
		frozen = "until " + info.FrozenUntil.Local().Format("2006-01-02 15:04")
	}
	fmt.Fprintf(tw, "Frozen:\t%s\n", frozen)
	fmt.Fprintf(tw, "MFA:\t%s\n", yesNo(info.MFAActivated))
	bl := "none"
	if n := len(info.BlacklistedAccountIDs); n > 0 || info.IsMainAccountBlacklisted {
		bl = fmt.Sprintf("%d account(s)", n)
		if info.IsMainAccountBlacklisted {
			bl += ", including the main account"
		}
	}
	fmt.Fprintf(tw, "Blacklisted from:\t%s\n", bl)
	tw.Flush()
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
		{p.ManageWebhooks, "manageWebhooks"},
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
