package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Credentials is what a client needs to talk to a sandbox as any of its
// demo accesses. `tesouro sandbox` writes it as JSON (mode 0600).
type Credentials struct {
	BaseURL       string                 `json:"baseUrl"`
	MainAccountID string                 `json:"mainAccountId"`
	SubAccounts   []SubAccountCredential `json:"subAccounts"`
	Accesses      []AccessCredential     `json:"accesses"`
}

// SubAccountCredential names one demo sub-account.
type SubAccountCredential struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// AccessCredential is one demo access: its API key and private key, and its
// password and e-mailed login token for the JWT flow. These are sandbox demo
// secrets, meaningful to no other service.
type AccessCredential struct {
	Name          string              `json:"name"`
	Email         string              `json:"email"`
	AccessID      string              `json:"accessId"`
	APIKey        string              `json:"apiKey"`
	KeyType       string              `json:"keyType"`
	PrivateKeyPEM string              `json:"privateKeyPem"`
	Password      string              `json:"password"`
	EmailToken    string              `json:"emailToken"`
	Permissions   records.Permissions `json:"permissions"`
	// TOTPSecret is the base32 secret of the access's TOTP second factor
	// (RFC 6238: SHA-1, 6 digits, 30 s), for the writes that need a code;
	// `tesouro sandbox totp NAME` prints the current code. Active when
	// MFAActive is true.
	TOTPSecret string `json:"totpSecret,omitempty"`
	MFAActive  bool   `json:"mfaActive"`
}

// Access returns the demo access with that name.
func (c Credentials) Access(name string) (AccessCredential, bool) {
	for _, a := range c.Accesses {
		if a.Name == name {
			return a, true
		}
	}
	return AccessCredential{}, false
}

// ReadCredentials reads a credentials file written by WriteFile.
func ReadCredentials(path string) (Credentials, error) {
	var c Credentials
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("read sandbox credentials: %w", err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("sandbox credentials %s are not valid JSON: %w", path, err)
	}
	if c.BaseURL == "" || len(c.Accesses) == 0 {
		return c, fmt.Errorf("sandbox credentials %s lack a base URL or accesses; run `tesouro sandbox --credentials-out %s` again", path, path)
	}
	return c, nil
}

// WriteFile writes the credentials as JSON with mode 0600, atomically (a
// reader never sees half a file).
func (c Credentials) WriteFile(path string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'), 0o600)
}

// writeFileAtomic writes to a temporary file in the same directory and
// renames it over path.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
