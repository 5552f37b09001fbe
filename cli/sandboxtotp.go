package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/internal/totp"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// newCmdSandboxTOTP prints the current TOTP code of a demo access, from the
// secret in a sandbox's credentials file: the authenticator app of the
// sandbox's demo accesses, for examples and scripts.
func newCmdSandboxTOTP(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "totp ACCESS",
		Short: "Print the current TOTP code of a demo access (from the sandbox's credentials file)",
		Long: `Prints the current 6-digit TOTP code of the demo access ACCESS, computed from the secret in
the credentials file of a running "tesouro sandbox" (--credentials FILE, else the one in the
state directory). Only for the sandbox's demo accesses: a real access's code comes from its
owner's authenticator.`,
		Example: `  tesouro sandbox totp admin
  tesouro --credentials sandbox-credentials.json sandbox totp admin`,
		Args: exactArgs("ACCESS"),
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		path := f.G.Credentials
		if path == "" {
			dir, err := keystore.StateDir(f.Getenv)
			if err != nil {
				return fmt.Errorf("sandbox totp: %w, or pass --credentials FILE", err)
			}
			path = filepath.Join(dir, "sandbox-credentials.json")
		}
		creds, err := sandbox.ReadCredentials(path)
		if err != nil {
			return err
		}
		acc, ok := creds.Access(args[0])
		if !ok {
			return Usagef("sandbox totp: the credentials file %s has no access named %q", path, args[0])
		}
		if acc.TOTPSecret == "" {
			return fmt.Errorf("sandbox totp: %s has no TOTP secret in %s (written by an older tesouro sandbox? start it again)", acc.Name, path)
		}
		secret, err := totp.Decode(acc.TOTPSecret)
		if err != nil {
			return fmt.Errorf("sandbox totp: %s: %w", acc.Name, err)
		}
		if !acc.MFAActive {
			fmt.Fprintf(f.Stderr, "note: %s's second factor is not active; the service will not take this code until it is\n", acc.Name)
		}
		_, err = fmt.Fprintln(f.Stdout, totp.Code(secret, time.Now()))
		return err
	}
	return cmd
}

func newCmdLogout(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "logout",
		Short: "End a jwt profile's session at the service and remove its tokens from the keyring",
		Long: `Ends the session of a jwt profile: the service revokes its refresh token, and the tokens
are removed from the keyring. "tesouro login" starts a new one.`,
		Example: `  tesouro logout --profile ops`,
		Args:    noArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return f.runLogout(cmd) },
	}
}
