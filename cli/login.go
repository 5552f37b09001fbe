package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
)

func newCmdLogin(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "login",
		Short: "Log in to a jwt profile; stores the refresh token in the keyring",
		Long: `Logs in to a jwt profile: asks for the password, then for the token the service e-mails
(both without echo on a terminal, else one per line on stdin), then for the current TOTP
code when the access has a second factor, and stores the refresh token in the keyring. The dashboard rotates it as it refreshes the session.`,
		Example: `  tesouro login --profile ops`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return Usagef("login: unexpected argument(s); the password and token are asked for, never taken on the command line")
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error { return f.runLogin() },
	}
}

func (f *Factory) runLogin() error {
	_, p, err := f.Profile(f.G.Profile)
	if err != nil {
		return err
	}
	if p.Auth != keystore.AuthJWT {
		return fmt.Errorf("profile %q signs requests with an API key and needs no login (see \"tesouro profile show %s --check\")", p.Name, p.Name)
	}
	if p.Production() {
		fmt.Fprintf(f.Stderr, "PRODUCTION: logging in to %s as %s.\n", p.BaseURL, p.Email)
	}
	tokens, err := f.jwtLogin(p)
	if err != nil {
		return err
	}
	auth := api.NewBearerAuth(tokens, nil)
	info, err := f.accessInfo(p, auth)
	if err != nil {
		return err
	}
	if err := keystore.StoreTokens(f.Secrets(), p.Name, auth.Tokens()); err != nil {
		return fmt.Errorf("logged in, but the tokens could not be stored: %w", err)
	}
	fmt.Fprintf(f.Stdout, "Logged in to %s as %s (permissions: %s).\nRefresh token stored in the keyring under %s.\n",
		p.Name, info.Email, permissionList(info.AccountPermissions), keystore.Service(p.Name))
	return nil
}

// jwtLogin runs the e-mail, password and e-mailed token flow and returns
// the token pair. Each call to the service has its own deadline; the
// prompts wait for the user as long as needed.
func (f *Factory) jwtLogin(p keystore.Profile) (api.Tokens, error) {
	client, err := f.NewClient(p.BaseURL, nil)
	if err != nil {
		return api.Tokens{}, err
	}
	password, err := f.Prompter.Secret(fmt.Sprintf("Password for %s: ", p.Email))
	if err != nil {
		return api.Tokens{}, fmt.Errorf("read the password: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
	err = client.Login(ctx, p.Email, password)
	cancel()
	if err != nil {
		return api.Tokens{}, fmt.Errorf("log in as %s at %s: %w", p.Email, p.BaseURL, err)
	}
	fmt.Fprintf(f.Stderr, "A login token was e-mailed to %s.\n", p.Email)
	token, err := f.Prompter.Secret("E-mailed token: ")
	if err != nil {
		return api.Tokens{}, fmt.Errorf("read the e-mailed token: %w", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), RequestTimeout)
	defer cancel()
	t, err := client.ValidateLogin(ctx, p.Email, strings.TrimSpace(token))
	if api.IsOTPRequired(err) {
		// The access has a TOTP second factor: the waiting login takes
		// its code with the same e-mailed token.
		cancel()
		code, cerr := f.Prompter.Secret("TOTP code: ")
		if cerr != nil {
			return api.Tokens{}, fmt.Errorf("read the TOTP code: %w", cerr)
		}
		ctx, cancel = context.WithTimeout(context.Background(), RequestTimeout)
		defer cancel()
		t, err = client.ValidateLoginOTP(ctx, p.Email, strings.TrimSpace(token), strings.TrimSpace(code))
	}
	if err != nil {
		return api.Tokens{}, fmt.Errorf("validate the e-mailed token for %s: %w (tokens are single-use and expire: run the login again)", p.Email, err)
	}
	return *t, nil
}

func (f *Factory) runLogout(cmd *cobra.Command) error {
	_, p, err := f.Profile(f.G.Profile)
	if err != nil {
		return err
	}
	if p.Auth != keystore.AuthJWT {
		return fmt.Errorf("profile %q signs requests with an API key and has no session to end (revoke a key with \"tesouro apikey revoke\")", p.Name)
	}
	sec := f.Secrets()
	if _, err := sec.Get(p.Name, keystore.KeyRefreshToken); errors.Is(err, keystore.ErrNotStored) {
		fmt.Fprintf(f.Stdout, "Profile %s has no session: nothing to end.\n", p.Name)
		return nil
	}
	auth, err := keystore.NewAuthenticator(sec, p)
	if err != nil {
		return err
	}
	client, err := f.NewClient(p.BaseURL, auth)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), RequestTimeout)
	defer cancel()
	remote := client.Logout(ctx)
	// The tokens go from the keyring whatever the service said: a session
	// the service no longer knows is over too.
	for _, k := range []string{keystore.KeyAccessToken, keystore.KeyRefreshToken} {
		if err := sec.Delete(p.Name, k); err != nil {
			return fmt.Errorf("logged out at the service, but the tokens could not be removed from the keyring: %w", err)
		}
	}
	var ae *api.Error
	if remote != nil && !(errors.As(remote, &ae) && ae.Status == http.StatusUnauthorized) {
		return fmt.Errorf("the tokens were removed from the keyring, but the service did not confirm the logout: %w", remote)
	}
	fmt.Fprintf(f.Stdout, "Logged out of %s (%s); tokens removed from the keyring.\n", p.Name, p.Email)
	return nil
}
