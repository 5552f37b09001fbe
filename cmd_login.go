package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
)

func (c *cli) runLogin(args []string) error {
	fs := c.newFlagSet("login", "Usage: tesouro login [--profile NAME]\n\n"+
		"Logs in to a jwt profile: asks for the password, then for the token the service e-mails\n"+
		"(both without echo on a terminal, else one per line on stdin), and stores the refresh token\n"+
		"in the keyring. The dashboard rotates it as it refreshes the session.\n\nFlags:")
	name := fs.String("profile", "", "profile `NAME` (default: the active profile)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("login: unexpected argument(s); the password and token are asked for, never taken on the command line")
	}
	_, p, err := c.lookupProfile(*name)
	if err != nil {
		return err
	}
	if p.Auth != keystore.AuthJWT {
		return fmt.Errorf("profile %q signs requests with an API key and needs no login (see \"tesouro profile show %s --check\")", p.Name, p.Name)
	}
	if p.Production() {
		fmt.Fprintf(c.stderr, "PRODUCTION: logging in to %s as %s.\n", p.BaseURL, p.Email)
	}
	tokens, err := c.jwtLogin(p, c.newPrompter())
	if err != nil {
		return err
	}
	auth := api.NewBearerAuth(tokens, nil)
	info, err := c.accessInfo(p, auth)
	if err != nil {
		return err
	}
	if err := keystore.StoreTokens(openSecrets(c), p.Name, auth.Tokens()); err != nil {
		return fmt.Errorf("logged in, but the tokens could not be stored: %w", err)
	}
	fmt.Fprintf(c.stdout, "Logged in to %s as %s (permissions: %s).\nRefresh token stored in the keyring under %s.\n",
		p.Name, info.Email, permissionList(info.AccountPermissions), keystore.Service(p.Name))
	return nil
}

// jwtLogin runs the e-mail, password and e-mailed token flow and returns
// the token pair. Each call to the service has its own deadline; the
// prompts wait for the user as long as needed.
func (c *cli) jwtLogin(p keystore.Profile, pr *prompter) (api.Tokens, error) {
	client, err := newClient(p, nil)
	if err != nil {
		return api.Tokens{}, err
	}
	password, err := pr.secret(fmt.Sprintf("Password for %s: ", p.Email))
	if err != nil {
		return api.Tokens{}, fmt.Errorf("read the password: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	err = client.Login(ctx, p.Email, password)
	cancel()
	if err != nil {
		return api.Tokens{}, fmt.Errorf("log in as %s at %s: %w", p.Email, p.BaseURL, err)
	}
	fmt.Fprintf(c.stderr, "A login token was e-mailed to %s.\n", p.Email)
	token, err := pr.secret("E-mailed token: ")
	if err != nil {
		return api.Tokens{}, fmt.Errorf("read the e-mailed token: %w", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	t, err := client.ValidateLogin(ctx, p.Email, strings.TrimSpace(token))
	if err != nil {
		return api.Tokens{}, fmt.Errorf("validate the e-mailed token for %s: %w (tokens are single-use and expire: run the login again)", p.Email, err)
	}
	return *t, nil
}
