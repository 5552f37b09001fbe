package keystore

// Secrets stores the secrets of profiles. Get of a secret that was never
// stored returns an error that matches ErrNotStored; Delete of one is not
// an error. Every error of the OS implementation is a *Error whose message
// says what happened and how to fix it.
type Secrets interface {
	Get(profile, key string) (string, error)
	Set(profile, key, value string) error
	Delete(profile, key string) error
}

// Names of the secrets a profile can hold.
const (
	KeyAPIKey       = "api-key"
	KeyPrivateKey   = "private-key" // PEM
	KeyAccessToken  = "access-token"
	KeyRefreshToken = "refresh-token"
)

// SecretKeys lists every secret a profile can hold, for removal.
var SecretKeys = []string{KeyAPIKey, KeyPrivateKey, KeyAccessToken, KeyRefreshToken}

// Service is the keyring service a profile's secrets are filed under.
func Service(profile string) string { return "tesouro:" + profile }

// keyLabel names a secret the way a user thinks of it.
func keyLabel(key string) string {
	switch key {
	case KeyAPIKey:
		return "API key"
	case KeyPrivateKey:
		return "private key"
	case KeyAccessToken:
		return "access token"
	case KeyRefreshToken:
		return "refresh token"
	}
	return key
}
