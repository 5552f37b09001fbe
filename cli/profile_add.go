package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/validate"
)

// profileAddFlags are the flags of "profile add".
type profileAddFlags struct {
	baseURL, env, apiKeyFile, privKeyFile, email, subAccount string
	jwt, readOnly, noVerify, replace, scriptedWrites         bool
}

func newCmdProfileAdd(f *Factory) *cobra.Command {
	var opts profileAddFlags
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Add a profile (secrets go to the keyring only)",
		Long: `Checks the credentials with GET /v2/account/access-info (unless --no-verify), then stores the
profile in config.toml and its secrets in the keyring. The private key may come from an earlier
"tesouro keygen --profile NAME". Without --api-key-file the API key is asked for (no echo) or
read from stdin.`,
		Example: `  tesouro profile add live --base-url https://api.example.com:8443 --env production --api-key-file api-key.txt --private-key-file key.pem
  tesouro profile add local --base-url http://127.0.0.1:8443 --api-key-file api-key.txt --private-key-file key.pem
  tesouro profile add ops --base-url https://api.sandbox.example.com:10952 --env sandbox --jwt --email me@example.com`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return f.profileAdd(cmd, args, opts) },
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.baseURL, "base-url", "", "service base URL (https; plain http only for a sandbox on this machine)")
	fs.StringVar(&opts.env, "env", "", "environment: sandbox or production (default sandbox for a local URL; required otherwise)")
	fs.StringVar(&opts.apiKeyFile, "api-key-file", "", "read the API key from FILE (- for stdin)")
	fs.StringVar(&opts.privKeyFile, "private-key-file", "", "read the private key PEM from FILE (- for stdin)")
	fs.BoolVar(&opts.jwt, "jwt", false, "log in with e-mail, password and an e-mailed token instead of an API key")
	fs.StringVar(&opts.email, "email", "", "e-mail of the access (required with --jwt)")
	fs.StringVar(&opts.subAccount, "sub-account", "", "sub-account (ID or NAME) the dashboard opens on (default: the main account)")
	fs.BoolVar(&opts.readOnly, "readonly", false, "the dashboard offers no write action with this profile")
	fs.BoolVar(&opts.noVerify, "no-verify", false, "save without checking the credentials against the service")
	fs.BoolVar(&opts.replace, "replace", false, "replace an existing profile of that name (and its secrets)")
	fs.BoolVar(&opts.scriptedWrites, "allow-scripted-writes", false, "on a production profile, let scripts create tickets (tesouro ticket create --yes)")
	return cmd
}

func (f *Factory) profileAdd(cmd *cobra.Command, args []string, opts profileAddFlags) error {
	baseURL, env, apiKeyFile, privKeyFile, email, subAccount := &opts.baseURL, &opts.env, &opts.apiKeyFile, &opts.privKeyFile, &opts.email, &opts.subAccount
	jwt, readOnly, noVerify, replace := &opts.jwt, &opts.readOnly, &opts.noVerify, &opts.replace
	name, err := parseNamed(cmd, args, true)
	if err != nil {
		return err
	}

	p := keystore.Profile{Name: name, BaseURL: keystore.NormalizeBaseURL(*baseURL), Env: *env,
		Email: strings.TrimSpace(*email), SubAccount: strings.TrimSpace(*subAccount), ReadOnly: *readOnly, ScriptedWrites: opts.scriptedWrites}
	if p.BaseURL == "" {
		return Usagef("profile add: --base-url is required (the service address, such as https://api.example.com)")
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		return Usagef("profile add: --base-url %q is not a URL", p.BaseURL)
	}
	switch p.Env {
	case "":
		if !keystore.Loopback(u.Hostname()) {
			return Usagef("profile add: --env is required for %s: say --env production (real money) or --env sandbox", p.BaseURL)
		}
		p.Env = keystore.EnvSandbox
	case keystore.EnvSandbox, keystore.EnvProduction:
	default:
		return Usagef("profile add: --env must be sandbox or production, not %q", p.Env)
	}
	if err := keystore.CheckBaseURL(p.BaseURL, p.Env); err != nil {
		return Usagef("profile add: %v", err)
	}
	if p.Email != "" {
		norm, err := validate.Email(p.Email)
		if err != nil {
			return Usagef("profile add: --email: %v", err)
		}
		p.Email = norm
	}
	if *jwt {
		if *apiKeyFile != "" || *privKeyFile != "" {
			return Usagef("profile add: --jwt profiles have no API key or private key: drop --api-key-file and --private-key-file")
		}
		if p.Email == "" {
			return Usagef("profile add: --jwt needs --email, the e-mail you log in with")
		}
		p.Auth = keystore.AuthJWT
	} else {
		p.Auth = keystore.AuthAPIKey
		if *apiKeyFile == "-" && *privKeyFile == "-" {
			return Usagef("profile add: only one of --api-key-file and --private-key-file can be - (stdin)")
		}
	}

	cfg, err := f.Config()
	if err != nil {
		return err
	}
	if _, err := cfg.Lookup(name); err == nil && !*replace {
		return fmt.Errorf("profile %q already exists: pass --replace to replace it, or remove it first with \"tesouro profile remove %s\"", name, name)
	}
	if p.Production() {
		fmt.Fprintf(f.Stderr, "PRODUCTION: profile %q talks to %s, where requests move real money.\n", name, p.BaseURL)
	}

	sec := f.Secrets()
	var info *api.AccessInfo
	var save func() error
	switch p.Auth {
	case keystore.AuthAPIKey:
		info, save, err = f.addAPIKey(p, sec, *apiKeyFile, *privKeyFile, *noVerify)
	case keystore.AuthJWT:
		info, save, err = f.addJWT(p, sec, *noVerify)
	}
	if err != nil {
		return err
	}
	if info != nil && info.Email != "" {
		p.Email = info.Email
	}
	if err := cfg.Put(p, true); err != nil {
		return err
	}
	if err := save(); err != nil {
		return err
	}
	// Secrets of the other auth kind, left from a replaced profile, would
	// only confuse: remove them.
	for _, k := range keystore.SecretKeys {
		if !usesKey(p.Auth, k) {
			if err := sec.Delete(p.Name, k); err != nil {
				return err
			}
		}
	}
	if err := cfg.Save(); err != nil {
		return err
	}

	fmt.Fprintf(f.Stdout, "Profile %q saved: %s, %s, %s.\n", p.Name, envLabel(p.Env), p.Auth, p.BaseURL)
	if info != nil {
		fmt.Fprintf(f.Stdout, "You are %s (permissions: %s).\n", info.Email, permissionList(info.AccountPermissions))
	} else if p.Auth == keystore.AuthJWT {
		fmt.Fprintf(f.Stdout, "Not verified. Log in with: tesouro login --profile %s\n", p.Name)
	} else {
		fmt.Fprintf(f.Stdout, "Not verified. Check it with: tesouro profile show %s --check\n", p.Name)
	}
	if cfg.Active == p.Name {
		fmt.Fprintf(f.Stdout, "It is the active profile.\n")
	} else {
		fmt.Fprintf(f.Stdout, "Make it the active profile with: tesouro profile use %s\n", p.Name)
	}
	return nil
}

func usesKey(auth, key string) bool {
	if auth == keystore.AuthJWT {
		return key == keystore.KeyAccessToken || key == keystore.KeyRefreshToken
	}
	return key == keystore.KeyAPIKey || key == keystore.KeyPrivateKey
}

// addAPIKey reads and checks the API key and private key. Nothing is
// stored until the returned save runs, so a failed check leaves no trace.
func (f *Factory) addAPIKey(p keystore.Profile, sec keystore.Secrets, apiKeyFile, privKeyFile string, noVerify bool) (*api.AccessInfo, func() error, error) {
	var pemText string
	fromKeyring := false
	if privKeyFile != "" {
		b, err := f.Prompter.SecretFile(privKeyFile, "private key")
		if err != nil {
			return nil, nil, err
		}
		pemText = string(b)
	} else {
		// A key made earlier by "tesouro keygen --profile NAME".
		stored, err := sec.Get(p.Name, keystore.KeyPrivateKey)
		if errors.Is(err, keystore.ErrNotStored) {
			return nil, nil, Usagef("profile add: --private-key-file is required (or make a key first with \"tesouro keygen --profile %s --type ed25519\" and register its public key)", p.Name)
		}
		if err != nil {
			return nil, nil, err
		}
		pemText, fromKeyring = stored, true
	}
	var apiKey string
	if apiKeyFile != "" {
		b, err := f.Prompter.SecretFile(apiKeyFile, "API key")
		if err != nil {
			return nil, nil, err
		}
		apiKey = string(b)
	} else {
		s, err := f.Prompter.Secret(fmt.Sprintf("API key for %s: ", p.Name))
		if err != nil {
			return nil, nil, fmt.Errorf("read the API key: %w (give it with --api-key-file FILE)", err)
		}
		apiKey = s
	}
	apiKey = strings.TrimSpace(apiKey)
	if strings.ContainsAny(apiKey, " \t\r\n") {
		return nil, nil, errors.New("the API key holds spaces or several lines: the file must contain only the key the service issued")
	}
	auth, err := api.NewAPIKeyAuth(apiKey, []byte(pemText))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot use these credentials: %w", err)
	}
	var info *api.AccessInfo
	if !noVerify {
		if info, err = f.accessInfo(p, auth); err != nil {
			return nil, nil, fmt.Errorf("%w\nNothing was saved. Check the base URL, the API key and that the public key registered for it matches this private key (fingerprint %s), or pass --no-verify to save without checking", err, api.Fingerprint(auth.PublicKey()))
		}
	}
	save := func() error {
		if err := sec.Set(p.Name, keystore.KeyAPIKey, apiKey); err != nil {
			return err
		}
		if fromKeyring {
			return nil
		}
		return sec.Set(p.Name, keystore.KeyPrivateKey, pemText)
	}
	return info, save, nil
}

// addJWT logs in right away (unless noVerify), so that the profile is
// usable as soon as it is saved.
func (f *Factory) addJWT(p keystore.Profile, sec keystore.Secrets, noVerify bool) (*api.AccessInfo, func() error, error) {
	if noVerify {
		return nil, func() error { return nil }, nil
	}
	tokens, err := f.jwtLogin(p)
	if err != nil {
		return nil, nil, fmt.Errorf("%w\nNothing was saved (pass --no-verify to save the profile and log in later)", err)
	}
	auth := api.NewBearerAuth(tokens, nil)
	info, err := f.accessInfo(p, auth)
	if err != nil {
		return nil, nil, fmt.Errorf("%w\nNothing was saved", err)
	}
	return info, func() error { return keystore.StoreTokens(sec, p.Name, auth.Tokens()) }, nil
}

// accessInfo asks the service who the credentials belong to.
func (f *Factory) accessInfo(p keystore.Profile, auth api.Authenticator) (*api.AccessInfo, error) {
	client, err := f.NewClient(p.BaseURL, auth)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
	defer cancel()
	info, err := client.AccessInfo(ctx)
	if err != nil {
		return nil, explainAuthError(p, err)
	}
	return info, nil
}

func explainAuthError(p keystore.Profile, err error) error {
	switch {
	case errors.Is(err, api.ErrUnauthenticated) && p.Auth == keystore.AuthJWT:
		return fmt.Errorf("the service refused the login of profile %q: %w; log in again with \"tesouro login --profile %s\"", p.Name, err, p.Name)
	case errors.Is(err, api.ErrUnauthenticated):
		return fmt.Errorf("the service refused the credentials of profile %q: %w", p.Name, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the service at %s did not answer within %s: check the base URL and your network", p.BaseURL, RequestTimeout)
	}
	return fmt.Errorf("check the credentials of profile %q against %s: %w", p.Name, p.BaseURL, err)
}
