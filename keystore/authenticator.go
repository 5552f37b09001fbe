package keystore

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
)

// Persister is implemented by the authenticators of jwt profiles, which write
// each rotated token pair back to the keyring while a request runs. A
// process must call WaitPersisted before it exits: the service has already
// spent the old refresh token, so a pair lost at exit means logging in again.
type Persister interface {
	WaitPersisted(timeout time.Duration) error
}

// bearer is a refreshing JWT authenticator that tracks its keyring writes.
type bearer struct {
	*api.BearerAuth
	writes sync.WaitGroup
}

// WaitPersisted waits until every rotated pair has been written, or timeout.
func (b *bearer) WaitPersisted(timeout time.Duration) error {
	done := make(chan struct{})
	go func() { b.writes.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("the renewed session was still being saved to the keyring after %s: if the next start asks you to log in, run \"tesouro login\"", timeout)
	}
}

// NewAuthenticator reads the profile's secrets and returns the credentials
// of its requests: a request signer for api-key profiles, a bearer that
// refreshes itself for jwt profiles (each rotated token pair is written back
// to the keyring). It calls the keyring: call it inside a tea.Cmd, never in
// Update.
func NewAuthenticator(sec Secrets, p Profile) (api.Authenticator, error) {
	return NewAuthenticatorWith(sec, p, nil)
}

// NewAuthenticatorWith is NewAuthenticator that also reports the outcome of
// persisting each rotated token pair (nil on success), so that a caller can
// warn when the new refresh token could not be saved.
func NewAuthenticatorWith(sec Secrets, p Profile, persisted func(error)) (api.Authenticator, error) {
	switch p.Auth {
	case AuthAPIKey:
		key, err := sec.Get(p.Name, KeyAPIKey)
		if err != nil {
			return nil, err
		}
		pem, err := sec.Get(p.Name, KeyPrivateKey)
		if err != nil {
			return nil, err
		}
		a, err := api.NewAPIKeyAuth(strings.TrimSpace(key), []byte(pem))
		if err != nil {
			return nil, fmt.Errorf("the private key stored for profile %q cannot sign requests (%w): store a valid one with \"tesouro profile add %s --replace ... --private-key-file FILE\"", p.Name, err, p.Name)
		}
		return a, nil
	case AuthJWT:
		refresh, err := sec.Get(p.Name, KeyRefreshToken)
		if err != nil {
			return nil, err
		}
		// A missing access token is no loss: the first request is answered
		// 401 and the bearer refreshes it.
		access, err := sec.Get(p.Name, KeyAccessToken)
		if err != nil && !errors.Is(err, ErrNotStored) {
			return nil, err
		}
		name := p.Name
		b := &bearer{}
		b.BearerAuth = api.NewBearerAuth(api.Tokens{AccessToken: access, RefreshToken: refresh}, func(t api.Tokens) {
			b.writes.Add(1)
			defer b.writes.Done()
			err := StoreTokens(sec, name, t)
			if persisted != nil {
				persisted(err)
			}
		})
		return b, nil
	}
	return nil, fmt.Errorf("profile %q: auth kind %q is not api-key or jwt", p.Name, p.Auth)
}

// StoreTokens saves a JWT pair for a profile. The refresh token goes first:
// it is the one that cannot be recovered without logging in again.
func StoreTokens(sec Secrets, profile string, t api.Tokens) error {
	if t.RefreshToken == "" {
		return fmt.Errorf("the service returned no refresh token for profile %q: log in again with \"tesouro login --profile %s\"", profile, profile)
	}
	if err := sec.Set(profile, KeyRefreshToken, t.RefreshToken); err != nil {
		return err
	}
	if t.AccessToken == "" {
		return sec.Delete(profile, KeyAccessToken)
	}
	return sec.Set(profile, KeyAccessToken, t.AccessToken)
}
