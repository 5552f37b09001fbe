package accesses

import (
	"context"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the screen asks of the service: the list any access may
// read, and the administration writes offered only to an access with
// manageAccesses, each carrying the acting access's current TOTP code.
type Service interface {
	ListAccesses(ctx context.Context, f api.AccessFilter) ([]api.Access, error)
	InviteAccess(ctx context.Context, req api.InviteAccessRequest) (string, error)
	UpdateAccessPermissions(ctx context.Context, id, otp string, p api.Permissions) error
	RevokeAccess(ctx context.Context, id, otp string) error

	ListAPIKeys(ctx context.Context) ([]api.APIKeyInfo, error)
	CreateAPIKey(ctx context.Context, req api.CreateAPIKeyRequest) (string, error)
	SetAPIKeyAllowedIPs(ctx context.Context, otp, apiKey string, ips []string) error
	DeleteAPIKey(ctx context.Context, apiKey, otp string) error
}

// Keeper files the key pair of an API key made on this screen as a new
// profile: the private key goes into the OS keyring of that profile before
// the key is registered, and the API key the service issues joins it, with
// the profile itself (same service, same environment) in config.toml.
// Neither secret is ever shown or written to a file. Its calls may block
// (the keyring): the screen makes them inside its commands only.
type Keeper interface {
	// Free says why no new profile may be called name (nil when one may).
	Free(name string) error
	// SetPrivateKey stores the PEM private key for profile name.
	SetPrivateKey(name, pem string) error
	// Save stores apiKey for profile name and adds the profile, on the
	// base URL of the service the dashboard talks to, in environment env.
	Save(name, apiKey, env string) error
	// Forget removes what SetPrivateKey and Save stored for name.
	Forget(name string) error
}
