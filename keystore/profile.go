package keystore

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// Environments a profile can point at.
const (
	EnvSandbox    = "sandbox"
	EnvProduction = "production"
)

// Auth kinds: signed requests with an API key and private key, or a JWT
// obtained with e-mail, password and an e-mailed token.
const (
	AuthAPIKey = "api-key"
	AuthJWT    = "jwt"
)

// Profile is one configured connection to the service. It holds no secret.
type Profile struct {
	Name       string `toml:"name"`
	BaseURL    string `toml:"base_url"`
	Env        string `toml:"env"`  // sandbox or production
	Auth       string `toml:"auth"` // api-key or jwt
	Email      string `toml:"email,omitempty"`
	SubAccount string `toml:"sub_account,omitempty"` // default sub-account, id or name; "" is the main account
	ReadOnly   bool   `toml:"read_only,omitempty"`
	// ScriptedWrites lets scripts write on a production profile
	// (tesouro ticket create --yes); sandbox profiles always may.
	ScriptedWrites bool `toml:"allow_scripted_writes,omitempty"`
}

// Production reports whether the profile moves real money.
func (p Profile) Production() bool { return p.Env == EnvProduction }

// Config is the content of config.toml: the profiles and which one is active.
type Config struct {
	Active string `toml:"active"`
	// ExportDir is where exports are written; "" is the current directory.
	ExportDir string    `toml:"export_dir,omitempty"`
	Profiles  []Profile `toml:"profile"`
	// Keys rebinds the dashboard's actions by name ([keys] refresh = "R");
	// Theme recolours its roles by name ([theme] accent = "#ff8800"). The
	// dashboard checks the names and keys when it starts.
	Keys  map[string]KeyList `toml:"keys,omitempty"`
	Theme map[string]string  `toml:"theme,omitempty"`

	lines map[string]int // "keys.refresh" -> its line in the file

	// Notifications say how news reaches the user (see Notifications).
	Notifications Notifications `toml:"notifications,omitempty"`
}

// ErrNoProfile means no profile is configured, or none is active: the
// dashboard then falls back to the embedded sandbox.
var ErrNoProfile = errors.New("no profile configured: add one with \"tesouro profile add NAME --base-url URL ...\"")

// ErrUnknownProfile means a profile was asked for by a name that is not
// configured. It is deliberately not ErrNoProfile: a mistyped --profile must
// never silently fall back to another service.
var ErrUnknownProfile = errors.New("unknown profile")

// Lookup returns the profile called name, or the active profile when name
// is "".
func (c *Config) Lookup(name string) (Profile, error) {
	if name == "" {
		if c.Active == "" {
			if len(c.Profiles) == 0 {
				return Profile{}, ErrNoProfile
			}
			return Profile{}, fmt.Errorf("%w: none is active; choose one with \"tesouro profile use NAME\" (see \"tesouro profile list\")", ErrNoProfile)
		}
		name = c.Active
	}
	if i := c.index(name); i >= 0 {
		return c.Profiles[i], nil
	}
	if name == c.Active {
		return Profile{}, fmt.Errorf("%w: the active profile %q is not in config.toml; choose another with \"tesouro profile use NAME\"", ErrUnknownProfile, name)
	}
	return Profile{}, fmt.Errorf("%w %q: see \"tesouro profile list\", or add it with \"tesouro profile add %s --base-url URL ...\"", ErrUnknownProfile, name, name)
}

func (c *Config) index(name string) int {
	return slices.IndexFunc(c.Profiles, func(p Profile) bool { return p.Name == name })
}

// Put adds p, or replaces the profile of the same name when replace is set.
// The first profile added becomes the active one.
func (c *Config) Put(p Profile, replace bool) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if i := c.index(p.Name); i >= 0 {
		if !replace {
			return fmt.Errorf("profile %q already exists: remove it first (\"tesouro profile remove %s\") or pass --replace", p.Name, p.Name)
		}
		c.Profiles[i] = p
		return nil
	}
	c.Profiles = append(c.Profiles, p)
	if c.Active == "" {
		c.Active = p.Name
	}
	return nil
}

// Remove deletes the profile called name; when it was active, no profile
// is active afterwards.
func (c *Config) Remove(name string) error {
	i := c.index(name)
	if i < 0 {
		return fmt.Errorf("%w %q: see \"tesouro profile list\"", ErrUnknownProfile, name)
	}
	c.Profiles = slices.Delete(c.Profiles, i, i+1)
	if c.Active == name {
		c.Active = ""
	}
	return nil
}

// Use makes the profile called name the active one.
func (c *Config) Use(name string) error {
	if c.index(name) < 0 {
		return fmt.Errorf("%w %q: see \"tesouro profile list\"", ErrUnknownProfile, name)
	}
	c.Active = name
	return nil
}

// validate checks every profile and the active name, as read from disk.
func (c *Config) validate() error {
	seen := map[string]bool{}
	for _, p := range c.Profiles {
		if err := p.Validate(); err != nil {
			return err
		}
		if seen[p.Name] {
			return fmt.Errorf("profile %q appears twice: keep one of them", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}

// ValidName checks a profile name. Names become part of the keyring service
// ("tesouro:<name>") and of command lines, so they are kept plain.
func ValidName(name string) error {
	if name == "" {
		return errors.New("profile name is empty: give a name such as \"prod\" or \"sandbox\"")
	}
	if len(name) > 64 {
		return fmt.Errorf("profile name %q is longer than 64 characters: choose a shorter one", name)
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			i > 0 && (r == '-' || r == '_' || r == '.')
		if !ok {
			return fmt.Errorf("profile name %q may only hold letters, digits, '-', '_' and '.', starting with a letter or digit", name)
		}
	}
	return nil
}

// Validate checks that the profile is complete and safe to use: a known
// environment and auth kind, and a base URL that a production profile can
// only reach over HTTPS.
func (p Profile) Validate() error {
	if err := ValidName(p.Name); err != nil {
		return err
	}
	switch p.Env {
	case EnvSandbox, EnvProduction:
	default:
		return fmt.Errorf("profile %q: environment %q is not sandbox or production", p.Name, p.Env)
	}
	switch p.Auth {
	case AuthAPIKey, AuthJWT:
	default:
		return fmt.Errorf("profile %q: auth kind %q is not api-key or jwt", p.Name, p.Auth)
	}
	if p.Auth == AuthJWT && p.Email == "" {
		return fmt.Errorf("profile %q: a jwt profile needs the e-mail to log in with", p.Name)
	}
	if err := CheckBaseURL(p.BaseURL, p.Env); err != nil {
		return fmt.Errorf("profile %q: %w", p.Name, err)
	}
	return nil
}

// CheckBaseURL checks a service base URL for an environment: absolute,
// http or https, no query or fragment; production only over https, and
// plain http only on a loopback address (the HTTP client refuses anything
// else, and credentials must never cross a network in clear).
func CheckBaseURL(raw, env string) error {
	if raw == "" {
		return errors.New("base URL is empty: give the service address, such as https://api.example.com")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("base URL %q is not an http(s) address: write it as https://host[:port][/path]", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("base URL %q must not carry a query, fragment or user name: give only scheme, host and path", raw)
	}
	if u.Scheme == "http" {
		if env == EnvProduction {
			return fmt.Errorf("base URL %q is plain http: a production profile must use https", raw)
		}
		if !Loopback(u.Hostname()) {
			return fmt.Errorf("base URL %q is plain http on a non-local host: use https (plain http is only for a sandbox on this machine)", raw)
		}
	}
	return nil
}

// NormalizeBaseURL trims spaces and trailing slashes, so that request paths
// join cleanly.
func NormalizeBaseURL(raw string) string {
	return strings.TrimRight(strings.TrimSpace(raw), "/")
}

// Loopback reports whether host names this machine.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
