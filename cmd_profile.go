package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/validate"
)

const profileUsage = `Profiles live in config.toml in the config directory ($TESOURO_CONFIG_DIR,
else $XDG_CONFIG_HOME/tesouro, else ~/.config/tesouro) and hold no secret.
Secrets go to the OS keyring only, under the service "tesouro:NAME". They are
read from a file (FILE "-" is stdin), or from a prompt that does not echo,
never from the command line.`

// requestTimeout bounds each call the profile commands make to the service.
const requestTimeout = 30 * time.Second

// openSecrets returns the keyring the commands use. Tests substitute an
// in-memory store.
var openSecrets = func(c *app) keystore.Secrets {
	opts := keystore.KeyringOptions{}
	if c.interactive() {
		// A desktop keyring may be asking its owner for the unlock
		// password: give them time, and say what we are waiting for.
		opts.ReadTimeout, opts.WriteTimeout = time.Minute, time.Minute
	}
	var once sync.Once
	opts.Waiting = func(limit time.Duration) {
		once.Do(func() {
			fmt.Fprintf(c.stderr, "waiting for the keyring (unlock it if your desktop asks for its password; giving up after %s)...\n", limit)
		})
	}
	return keystore.OSKeyringWith(opts)
}

func (c *app) profileCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Manage profiles: add, list, use, show, remove",
		Long:  profileUsage,
		Args:  cobra.ArbitraryArgs,
		RunE:  cli.GroupRunE("add, list, use, show or remove"),
	}
	cmd.AddCommand(c.profileAddCommand(), c.profileListCommand(), c.profileUseCommand(), c.profileShowCommand(), c.profileRemoveCommand())
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
		return "", usagef("%s: %d unexpected argument(s) after the profile name; secrets are never taken on the command line (use the --*-file flags or the prompt)", cmd.CommandPath(), len(args))
	}
	if name == "" {
		if required {
			return "", usagef("%s: give the profile NAME", cmd.CommandPath())
		}
		return "", nil
	}
	if err := keystore.ValidName(name); err != nil {
		return "", usagef("%s: %v", cmd.CommandPath(), err)
	}
	return name, nil
}

// loadConfig reads config.toml and says which directory it lives in.
func (c *app) loadConfig() (string, *keystore.Config, error) {
	dir, err := keystore.ConfigDir(c.getenv)
	if err != nil {
		return "", nil, err
	}
	cfg, err := keystore.Load(dir)
	return dir, cfg, err
}

// lookupProfile reads config.toml and finds the profile called name (the
// active one when name is "").
func (c *app) lookupProfile(name string) (*keystore.Config, keystore.Profile, error) {
	_, cfg, err := c.loadConfig()
	if err != nil {
		return nil, keystore.Profile{}, err
	}
	if name == "" {
		name = strings.TrimSpace(c.getenv("TESOURO_PROFILE"))
	}
	p, err := cfg.Lookup(name)
	return cfg, p, err
}

// profileAddFlags are the flags of "profile add".
type profileAddFlags struct {
	baseURL, env, apiKeyFile, privKeyFile, email, subAccount string
	jwt, readOnly, noVerify, replace, scriptedWrites         bool
}

func (c *app) profileAddCommand() *cobra.Command {
	var f profileAddFlags
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Add a profile (secrets go to the keyring only)",
		Long: `Checks the credentials with GET /v2/account/access-info (unless --no-verify), then stores the
profile in config.toml and its secrets in the keyring. The private key may come from an earlier
"tesouro keygen --profile NAME". Without --api-key-file the API key is asked for (no echo) or
read from stdin.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return c.profileAdd(cmd, args, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.baseURL, "base-url", "", "service base URL (https; plain http only for a sandbox on this machine)")
	fs.StringVar(&f.env, "env", "", "environment: sandbox or production (default sandbox for a local URL; required otherwise)")
	fs.StringVar(&f.apiKeyFile, "api-key-file", "", "read the API key from FILE (- for stdin)")
	fs.StringVar(&f.privKeyFile, "private-key-file", "", "read the private key PEM from FILE (- for stdin)")
	fs.BoolVar(&f.jwt, "jwt", false, "log in with e-mail, password and an e-mailed token instead of an API key")
	fs.StringVar(&f.email, "email", "", "e-mail of the access (required with --jwt)")
	fs.StringVar(&f.subAccount, "sub-account", "", "sub-account (ID or NAME) the dashboard opens on (default: the main account)")
	fs.BoolVar(&f.readOnly, "readonly", false, "the dashboard offers no write action with this profile")
	fs.BoolVar(&f.noVerify, "no-verify", false, "save without checking the credentials against the service")
	fs.BoolVar(&f.replace, "replace", false, "replace an existing profile of that name (and its secrets)")
	fs.BoolVar(&f.scriptedWrites, "allow-scripted-writes", false, "on a production profile, let scripts create tickets (tesouro ticket create --yes)")
	return cmd
}

func (c *app) profileAdd(cmd *cobra.Command, args []string, f profileAddFlags) error {
	baseURL, env, apiKeyFile, privKeyFile, email, subAccount := &f.baseURL, &f.env, &f.apiKeyFile, &f.privKeyFile, &f.email, &f.subAccount
	jwt, readOnly, noVerify, replace := &f.jwt, &f.readOnly, &f.noVerify, &f.replace
	name, err := parseNamed(cmd, args, true)
	if err != nil {
		return err
	}

	p := keystore.Profile{Name: name, BaseURL: keystore.NormalizeBaseURL(*baseURL), Env: *env,
		Email: strings.TrimSpace(*email), SubAccount: strings.TrimSpace(*subAccount), ReadOnly: *readOnly, ScriptedWrites: f.scriptedWrites}
	if p.BaseURL == "" {
		return usagef("profile add: --base-url is required (the service address, such as https://api.example.com)")
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		return usagef("profile add: --base-url %q is not a URL", p.BaseURL)
	}
	switch p.Env {
	case "":
		if !keystore.Loopback(u.Hostname()) {
			return usagef("profile add: --env is required for %s: say --env production (real money) or --env sandbox", p.BaseURL)
		}
		p.Env = keystore.EnvSandbox
	case keystore.EnvSandbox, keystore.EnvProduction:
	default:
		return usagef("profile add: --env must be sandbox or production, not %q", p.Env)
	}
	if err := keystore.CheckBaseURL(p.BaseURL, p.Env); err != nil {
		return usagef("profile add: %v", err)
	}
	if p.Email != "" {
		norm, err := validate.Email(p.Email)
		if err != nil {
			return usagef("profile add: --email: %v", err)
		}
		p.Email = norm
	}
	if *jwt {
		if *apiKeyFile != "" || *privKeyFile != "" {
			return usagef("profile add: --jwt profiles have no API key or private key: drop --api-key-file and --private-key-file")
		}
		if p.Email == "" {
			return usagef("profile add: --jwt needs --email, the e-mail you log in with")
		}
		p.Auth = keystore.AuthJWT
	} else {
		p.Auth = keystore.AuthAPIKey
		if *apiKeyFile == "-" && *privKeyFile == "-" {
			return usagef("profile add: only one of --api-key-file and --private-key-file can be - (stdin)")
		}
	}

	dir, cfg, err := c.loadConfig()
	if err != nil {
		return err
	}
	if _, err := cfg.Lookup(name); err == nil && !*replace {
		return fmt.Errorf("profile %q already exists: pass --replace to replace it, or remove it first with \"tesouro profile remove %s\"", name, name)
	}
	if p.Production() {
		fmt.Fprintf(c.stderr, "PRODUCTION: profile %q talks to %s, where requests move real money.\n", name, p.BaseURL)
	}

	sec := openSecrets(c)
	pr := c.newPrompter()
	var info *api.AccessInfo
	var save func() error
	switch p.Auth {
	case keystore.AuthAPIKey:
		info, save, err = c.addAPIKey(p, sec, pr, *apiKeyFile, *privKeyFile, *noVerify)
	case keystore.AuthJWT:
		info, save, err = c.addJWT(p, sec, pr, *noVerify)
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
	if err := cfg.Save(dir); err != nil {
		return err
	}

	fmt.Fprintf(c.stdout, "Profile %q saved: %s, %s, %s.\n", p.Name, envLabel(p.Env), p.Auth, p.BaseURL)
	if info != nil {
		fmt.Fprintf(c.stdout, "You are %s (permissions: %s).\n", info.Email, permissionList(info.AccountPermissions))
	} else if p.Auth == keystore.AuthJWT {
		fmt.Fprintf(c.stdout, "Not verified. Log in with: tesouro login --profile %s\n", p.Name)
	} else {
		fmt.Fprintf(c.stdout, "Not verified. Check it with: tesouro profile show %s --check\n", p.Name)
	}
	if cfg.Active == p.Name {
		fmt.Fprintf(c.stdout, "It is the active profile.\n")
	} else {
		fmt.Fprintf(c.stdout, "Make it the active profile with: tesouro profile use %s\n", p.Name)
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
func (c *app) addAPIKey(p keystore.Profile, sec keystore.Secrets, pr *prompter, apiKeyFile, privKeyFile string, noVerify bool) (*api.AccessInfo, func() error, error) {
	var pemText string
	fromKeyring := false
	if privKeyFile != "" {
		b, err := pr.file(privKeyFile, "private key")
		if err != nil {
			return nil, nil, err
		}
		pemText = string(b)
	} else {
		// A key made earlier by "tesouro keygen --profile NAME".
		stored, err := sec.Get(p.Name, keystore.KeyPrivateKey)
		if errors.Is(err, keystore.ErrNotStored) {
			return nil, nil, usagef("profile add: --private-key-file is required (or make a key first with \"tesouro keygen --profile %s --type ed25519\" and register its public key)", p.Name)
		}
		if err != nil {
			return nil, nil, err
		}
		pemText, fromKeyring = stored, true
	}
	var apiKey string
	if apiKeyFile != "" {
		b, err := pr.file(apiKeyFile, "API key")
		if err != nil {
			return nil, nil, err
		}
		apiKey = string(b)
	} else {
		s, err := pr.secret(fmt.Sprintf("API key for %s: ", p.Name))
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
		if info, err = c.accessInfo(p, auth); err != nil {
			return nil, nil, fmt.Errorf("%w\nNothing was saved. Check the base URL, the API key and that the public key registered for it matches this private key (fingerprint %s), or pass --no-verify to save without checking", err, fingerprint(auth.PublicKey()))
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
func (c *app) addJWT(p keystore.Profile, sec keystore.Secrets, pr *prompter, noVerify bool) (*api.AccessInfo, func() error, error) {
	if noVerify {
		return nil, func() error { return nil }, nil
	}
	tokens, err := c.jwtLogin(p, pr)
	if err != nil {
		return nil, nil, fmt.Errorf("%w\nNothing was saved (pass --no-verify to save the profile and log in later)", err)
	}
	auth := api.NewBearerAuth(tokens, nil)
	info, err := c.accessInfo(p, auth)
	if err != nil {
		return nil, nil, fmt.Errorf("%w\nNothing was saved", err)
	}
	return info, func() error { return keystore.StoreTokens(sec, p.Name, auth.Tokens()) }, nil
}

// newClient builds a client for a profile.
func newClient(p keystore.Profile, auth api.Authenticator) (*api.Client, error) {
	return api.New(p.BaseURL, auth, api.WithTimeout(requestTimeout), api.WithUserAgent(userAgent()))
}

// accessInfo asks the service who the credentials belong to.
func (c *app) accessInfo(p keystore.Profile, auth api.Authenticator) (*api.AccessInfo, error) {
	client, err := newClient(p, auth)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
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
		return fmt.Errorf("the service at %s did not answer within %s: check the base URL and your network", p.BaseURL, requestTimeout)
	}
	return fmt.Errorf("check the credentials of profile %q against %s: %w", p.Name, p.BaseURL, err)
}

func (c *app) profileListCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the profiles; * marks the active one (reads no secret)",
		Args:    noArgs,
		RunE:    func(*cobra.Command, []string) error { return c.profileList() },
	}
}

func (c *app) profileList() error {
	dir, cfg, err := c.loadConfig()
	if err != nil {
		return err
	}
	if len(cfg.Profiles) == 0 {
		fmt.Fprintf(c.stdout, "No profiles in %s.\nAdd one with: tesouro profile add NAME --base-url URL --env sandbox|production --api-key-file FILE --private-key-file FILE\n", dir)
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tNAME\tENV\tAUTH\tBASE URL\tE-MAIL\tSUB-ACCOUNT\tMODE")
	for _, p := range cfg.Profiles {
		mark := ""
		if p.Name == cfg.Active {
			mark = "*"
		}
		mode := "read-write"
		if p.ReadOnly {
			mode = "read-only"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", mark, p.Name, envLabel(p.Env), p.Auth, p.BaseURL, dash(p.Email), subLabel(p.SubAccount), mode)
	}
	return tw.Flush()
}

func (c *app) profileUseCommand() *cobra.Command {
	return &cobra.Command{
		Use:               "use NAME",
		Short:             "Make NAME the profile used by default",
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: c.completeProfiles,
		RunE:              c.profileUse,
	}
}

func (c *app) profileUse(cmd *cobra.Command, args []string) error {
	name, err := parseNamed(cmd, args, true)
	if err != nil {
		return err
	}
	dir, cfg, err := c.loadConfig()
	if err != nil {
		return err
	}
	if err := cfg.Use(name); err != nil {
		return err
	}
	if err := cfg.Save(dir); err != nil {
		return err
	}
	p, _ := cfg.Lookup(name)
	fmt.Fprintf(c.stdout, "Active profile: %s (%s, %s).\n", p.Name, envLabel(p.Env), p.BaseURL)
	return nil
}

func (c *app) profileRemoveCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:               "remove NAME",
		Aliases:           []string{"rm"},
		Short:             "Remove a profile and delete its secrets from the keyring",
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: c.completeProfiles,
		RunE:              func(cmd *cobra.Command, args []string) error { return c.profileRemove(cmd, args, &force) },
	}
	cmd.Flags().BoolVar(&force, "force", false, "remove the profile even when the keyring cannot be reached (its secrets then stay there)")
	return cmd
}

func (c *app) profileRemove(cmd *cobra.Command, args []string, force *bool) error {
	name, err := parseNamed(cmd, args, true)
	if err != nil {
		return err
	}
	dir, cfg, err := c.loadConfig()
	if err != nil {
		return err
	}
	_, lookupErr := cfg.Lookup(name)
	configured := lookupErr == nil
	sec := openSecrets(c)
	deleted, keyErr := deleteSecrets(sec, name, !configured)
	switch {
	case keyErr != nil && !*force:
		return fmt.Errorf("%w\nNothing was removed. Fix the keyring and try again, or pass --force to remove the profile anyway (its secrets then stay in the keyring under %s)", keyErr, keystore.Service(name))
	case keyErr != nil:
		fmt.Fprintf(c.stderr, "warning: %v\nThe secrets of %q stay in the keyring under %s: delete them there.\n", keyErr, name, keystore.Service(name))
	}
	if !configured {
		if deleted == 0 {
			return lookupErr
		}
		fmt.Fprintf(c.stdout, "Profile %q was not in config.toml; deleted its %d secret(s) from the keyring.\n", name, deleted)
		return nil
	}
	wasActive := cfg.Active == name
	if err := cfg.Remove(name); err != nil {
		return err
	}
	if err := cfg.Save(dir); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "Profile %q removed", name)
	if keyErr == nil {
		fmt.Fprintf(c.stdout, ", and its secrets deleted from the keyring")
	}
	fmt.Fprintln(c.stdout, ".")
	if wasActive {
		fmt.Fprintln(c.stdout, "No profile is active now: choose one with \"tesouro profile use NAME\".")
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

func (c *app) profileShowCommand() *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:               "show [NAME]",
		Short:             "Show a profile and which secrets the keyring holds for it, never the secrets",
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: c.completeProfiles,
		RunE:              func(cmd *cobra.Command, args []string) error { return c.profileShow(cmd, args, &check) },
	}
	cmd.Flags().BoolVar(&check, "check", false, "authenticate with the stored secrets and show the access e-mail and permissions")
	return cmd
}

func (c *app) profileShow(cmd *cobra.Command, args []string, check *bool) error {
	name, err := parseNamed(cmd, args, false)
	if err != nil {
		return err
	}
	cfg, p, err := c.lookupProfile(name)
	if err != nil {
		return err
	}
	active := ""
	if p.Name == cfg.Active {
		active = " (active)"
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
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
	sec := openSecrets(c)
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
	info, err := c.accessInfo(p, auth)
	if err != nil {
		return fmt.Errorf("check failed: %w", err)
	}
	if persistErr != nil {
		fmt.Fprintf(c.stderr, "warning: the service rotated the login tokens but they could not be saved: %v\n", persistErr)
	}
	fmt.Fprintf(c.stdout, "\nCheck: authenticated with %s.\n", p.BaseURL)
	printAccessInfo(c.stdout, info)
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

// fingerprint identifies a public key the way a user can compare it with
// what they registered: SHA-256 of its PKIX encoding.
func fingerprint(pub any) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "unknown"
	}
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// prompter reads secrets from the terminal without echo, or from stdin
// when it is not a terminal (one secret per line).
type prompter struct {
	c    *app
	once sync.Once
	r    *bufio.Reader
}

func (c *app) newPrompter() *prompter { return &prompter{c: c} }

func (p *prompter) reader() *bufio.Reader {
	p.once.Do(func() { p.r = bufio.NewReader(p.c.stdin) })
	return p.r
}

// terminalFD returns the descriptor of stdin when it is a terminal.
func (c *app) terminalFD() (int, bool) {
	f, ok := c.stdin.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// interactive reports whether a person is typing at stdin.
func (c *app) interactive() bool {
	_, ok := c.terminalFD()
	return ok
}

// secret asks for one secret: a no-echo prompt on a terminal, else the next
// line of stdin.
func (p *prompter) secret(label string) (string, error) {
	if fd, ok := p.c.terminalFD(); ok {
		fmt.Fprint(p.c.stderr, label)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(p.c.stderr)
		if err != nil {
			return "", err
		}
		if len(b) == 0 {
			return "", errors.New("nothing was typed")
		}
		return string(b), nil
	}
	line, err := p.reader().ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		if err == nil || errors.Is(err, io.EOF) {
			return "", fmt.Errorf("stdin has no line for %q: pipe it in, one per line, or run in a terminal", strings.TrimSuffix(strings.TrimSpace(label), ":"))
		}
		return "", err
	}
	return line, nil
}

// maxSecretFile bounds what is read from a secret file, so that pointing
// at the wrong file fails clearly instead of filling the keyring.
const maxSecretFile = keystore.MaxSecretBytes

// file reads a secret from path, or all of stdin for "-".
func (p *prompter) file(path, what string) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = p.reader()
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read the %s: %w", what, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSecretFile+1))
	if err != nil {
		return nil, fmt.Errorf("read the %s: %w", what, err)
	}
	if len(b) > maxSecretFile {
		return nil, fmt.Errorf("the %s in %s is larger than %d bytes: is it the right file?", what, path, maxSecretFile)
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil, fmt.Errorf("the %s in %s is empty", what, path)
	}
	return b, nil
}
