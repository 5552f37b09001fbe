package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/keystore"
)

const profileUsage = `Profiles live in config.toml in the config directory ($TESOURO_CONFIG_DIR,
else $XDG_CONFIG_HOME/tesouro, else ~/.config/tesouro) and hold no secret.
Secrets go to the OS keyring only, under the service "tesouro:NAME". They are
read from a file (FILE "-" is stdin), or from a prompt that does not echo,
never from the command line.`

func newCmdProfile(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Manage profiles: add, list, use, show, remove",
		Long:  profileUsage,
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("add, list, use, show or remove"),
	}
	cmd.AddCommand(newCmdProfileAdd(f), newCmdProfileList(f), newCmdProfileUse(f), newCmdProfileShow(f), newCmdProfileRemove(f))
	return cmd
}

// parseNamed takes the one positional NAME of a command. required says
// whether NAME must be given. Extra arguments are refused without echoing
// them: a secret pasted on the command line must not end up in an error
// message too.
func parseNamed(cmd *cobra.Command, args []string, required bool) (string, error) {
	name := ""
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if len(args) > 0 {
		return "", Usagef("%s: %d unexpected argument(s) after the profile name; secrets are never taken on the command line (use the --*-file flags or the prompt)", cmd.CommandPath(), len(args))
	}
	if name == "" {
		if required {
			return "", Usagef("%s: give the profile NAME", cmd.CommandPath())
		}
		return "", nil
	}
	if err := keystore.ValidName(name); err != nil {
		return "", Usagef("%s: %v", cmd.CommandPath(), err)
	}
	return name, nil
}
func newCmdProfileList(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the profiles; * marks the active one (reads no secret)",
		Example: `  tesouro profile list`,
		Args:    noArgs,
		RunE:    func(*cobra.Command, []string) error { return f.profileList() },
	}
}

func (f *Factory) profileList() error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	if len(cfg.Profiles) == 0 {
		fmt.Fprintf(f.Stdout, "No profiles in %s.\nAdd one with: tesouro profile add NAME --base-url URL --env sandbox|production --api-key-file FILE --private-key-file FILE\n", cfg.Dir)
		return nil
	}
	t := Table{Columns: []string{"", "name", "env", "auth", "base_url", "e-mail", "sub-account", "mode"}}
	for _, p := range cfg.Profiles {
		mark := ""
		if p.Name == cfg.Active {
			mark = "*"
		}
		mode := "read-write"
		if p.ReadOnly {
			mode = "read-only"
		}
		t.Rows = append(t.Rows, []string{mark, p.Name, envLabel(p.Env), p.Auth, p.BaseURL, dash(p.Email), subLabel(p.SubAccount), mode})
	}
	return writeTable(f.Stdout, t)
}

func newCmdProfileUse(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "use NAME",
		Short:             "Make NAME the profile used by default",
		Example:           `  tesouro profile use acme`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: f.completeProfiles,
		RunE:              f.profileUse,
	}
}

func (f *Factory) profileUse(cmd *cobra.Command, args []string) error {
	name, err := parseNamed(cmd, args, true)
	if err != nil {
		return err
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	if err := cfg.Use(name); err != nil {
		return err
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	p, _ := cfg.Lookup(name)
	fmt.Fprintf(f.Stdout, "Active profile: %s (%s, %s).\n", p.Name, envLabel(p.Env), p.BaseURL)
	return nil
}

func newCmdProfileRemove(f *Factory) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:               "remove NAME",
		Aliases:           []string{"rm"},
		Short:             "Remove a profile and delete its secrets from the keyring",
		Example:           `  tesouro profile remove old`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: f.completeProfiles,
		RunE:              func(cmd *cobra.Command, args []string) error { return f.profileRemove(cmd, args, &force) },
	}
	cmd.Flags().BoolVar(&force, "force", false, "remove the profile even when the keyring cannot be reached (its secrets then stay there)")
	return cmd
}

func (f *Factory) profileRemove(cmd *cobra.Command, args []string, force *bool) error {
	name, err := parseNamed(cmd, args, true)
	if err != nil {
		return err
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	_, lookupErr := cfg.Lookup(name)
	configured := lookupErr == nil
	sec := f.Secrets()
	deleted, keyErr := deleteSecrets(sec, name, !configured)
	switch {
	case keyErr != nil && !*force:
		return fmt.Errorf("%w\nNothing was removed. Fix the keyring and try again, or pass --force to remove the profile anyway (its secrets then stay in the keyring under %s)", keyErr, keystore.Service(name))
	case keyErr != nil:
		fmt.Fprintf(f.Stderr, "warning: %v\nThe secrets of %q stay in the keyring under %s: delete them there.\n", keyErr, name, keystore.Service(name))
	}
	if !configured {
		if deleted == 0 {
			return lookupErr
		}
		fmt.Fprintf(f.Stdout, "Profile %q was not in config.toml; deleted its %d secret(s) from the keyring.\n", name, deleted)
		return nil
	}
	wasActive := cfg.Active == name
	if err := cfg.Remove(name); err != nil {
		return err
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	fmt.Fprintf(f.Stdout, "Profile %q removed", name)
	if keyErr == nil {
		fmt.Fprintf(f.Stdout, ", and its secrets deleted from the keyring")
	}
	fmt.Fprintln(f.Stdout, ".")
	if wasActive {
		fmt.Fprintln(f.Stdout, "No profile is active now: choose one with \"tesouro profile use NAME\".")
	}
	return nil
}

// deleteSecrets deletes every secret a profile can hold. When count is set
// it first finds out how many were there (for a profile known only to the
// keyring, as keygen leaves before profile add).
func deleteSecrets(sec keystore.Secrets, name string, count bool) (int, error) {
	n := 0
	for _, k := range keystore.SecretKeys {
		if count {
			_, err := sec.Get(name, k)
			if errors.Is(err, keystore.ErrNotStored) {
				continue
			}
			if err != nil {
				return n, err
			}
		}
		if err := sec.Delete(name, k); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
func envLabel(env string) string {
	if env == keystore.EnvProduction {
		return "PRODUCTION (real money)"
	}
	return env
}

func subLabel(s string) string {
	if s == "" {
		return "main account"
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func secretLabel(k string) string {
	switch k {
	case keystore.KeyAPIKey:
		return "API key"
	case keystore.KeyPrivateKey:
		return "Private key"
	case keystore.KeyAccessToken:
		return "Access token"
	case keystore.KeyRefreshToken:
		return "Refresh token"
	}
	return k
}
