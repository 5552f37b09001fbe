package keystore

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
)

func ed25519PEM(t *testing.T) string {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

func TestAPIKeyAuthenticatorSignsWithTheStoredKey(t *testing.T) {
	sec := NewMemory()
	p := Profile{Name: "op", BaseURL: "http://127.0.0.1:1", Env: EnvSandbox, Auth: AuthAPIKey}
	if _, err := NewAuthenticator(sec, p); !errors.Is(err, ErrNotStored) || !strings.Contains(err.Error(), "API key") {
		t.Fatalf("no secrets: %v, want ErrNotStored naming the API key", err)
	}
	must(t, sec.Set("op", KeyAPIKey, "key-123\n"))
	if _, err := NewAuthenticator(sec, p); !errors.Is(err, ErrNotStored) || !strings.Contains(err.Error(), "private key") {
		t.Fatalf("no private key: %v", err)
	}
	must(t, sec.Set("op", KeyPrivateKey, "not a pem"))
	if _, err := NewAuthenticator(sec, p); err == nil || !strings.Contains(err.Error(), "cannot sign") {
		t.Fatalf("unusable key: %v", err)
	}
	must(t, sec.Set("op", KeyPrivateKey, ed25519PEM(t)))
	auth, err := NewAuthenticator(sec, p)
	if err != nil {
		t.Fatal(err)
	}
	req := &api.Request{Method: "GET", RequestURI: "/v2/account/access-info", Header: http.Header{}}
	must(t, auth.Authenticate(req))
	if req.Header.Get("X-API-Key") != "key-123" || req.Header.Get("X-API-Signature") == "" {
		t.Fatalf("request headers = %v", req.Header)
	}
}

// failingSet is a store whose writes fail, like a keyring that locked
// itself during a session.
type failingSet struct{ Secrets }

func (failingSet) Set(string, string, string) error { return errors.New("keyring locked") }

func TestJWTAuthenticatorPersistsRotatedTokens(t *testing.T) {
	sec := NewMemory()
	p := Profile{Name: "j", BaseURL: "http://127.0.0.1:1", Env: EnvSandbox, Auth: AuthJWT, Email: "j@example.com"}
	if _, err := NewAuthenticator(sec, p); !errors.Is(err, ErrNotStored) || !strings.Contains(err.Error(), "tesouro login --profile j") {
		t.Fatalf("not logged in: %v", err)
	}
	must(t, StoreTokens(sec, "j", api.Tokens{AccessToken: "a1", RefreshToken: "r1"}))
	var persisted []error
	auth, err := NewAuthenticatorWith(sec, p, func(err error) { persisted = append(persisted, err) })
	if err != nil {
		t.Fatal(err)
	}
	req := &api.Request{Header: http.Header{}}
	must(t, auth.Authenticate(req))
	if req.Header.Get("Authorization") != "Bearer a1" {
		t.Fatalf("Authorization = %q", req.Header.Get("Authorization"))
	}
	re, ok := auth.(api.Reauthenticator)
	if !ok {
		t.Fatal("a jwt authenticator must be able to refresh")
	}
	err = re.Reauthenticate(context.Background(), func(_ context.Context, rt string) (*api.Tokens, error) {
		if rt != "r1" {
			t.Errorf("refreshed with %q, want the stored r1", rt)
		}
		return &api.Tokens{AccessToken: "a2", RefreshToken: "r2"}, nil
	})
	must(t, err)
	if v, _ := sec.Get("j", KeyRefreshToken); v != "r2" {
		t.Fatalf("rotated refresh token not persisted: %q", v)
	}
	if v, _ := sec.Get("j", KeyAccessToken); v != "a2" {
		t.Fatalf("new access token not persisted: %q", v)
	}
	if len(persisted) != 1 || persisted[0] != nil {
		t.Fatalf("persisted callback = %v, want one nil", persisted)
	}

	// A missing access token is fine (the first 401 refreshes); a failed
	// write is reported, not swallowed.
	must(t, sec.Delete("j", KeyAccessToken))
	auth, err = NewAuthenticatorWith(failingSet{sec}, p, func(err error) { persisted = append(persisted, err) })
	if err != nil {
		t.Fatal(err)
	}
	err = auth.(api.Reauthenticator).Reauthenticate(context.Background(), func(context.Context, string) (*api.Tokens, error) {
		return &api.Tokens{AccessToken: "a3", RefreshToken: "r3"}, nil
	})
	must(t, err)
	if len(persisted) != 2 || persisted[1] == nil {
		t.Fatalf("a failed write was not reported: %v", persisted)
	}
}

// slowSecrets holds every Set until release is closed, the way a keyring
// under load does.
type slowSecrets struct {
	Secrets
	setting chan struct{}
	release chan struct{}
}

func (s *slowSecrets) Set(profile, key, value string) error {
	select {
	case s.setting <- struct{}{}:
	default:
	}
	<-s.release
	return s.Secrets.Set(profile, key, value)
}

// A rotated pair still being written when the dashboard quits must be
// waited for: the service has spent the old refresh token already.
func TestJWTAuthenticatorWaitsForTheRotatedPair(t *testing.T) {
	mem := NewMemory()
	if err := StoreTokens(mem, "ops", api.Tokens{AccessToken: "a1", RefreshToken: "r1"}); err != nil {
		t.Fatal(err)
	}
	slow := &slowSecrets{Secrets: mem, setting: make(chan struct{}, 1), release: make(chan struct{})}
	auth, err := NewAuthenticator(slow, Profile{Name: "ops", Auth: AuthJWT})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := auth.(Persister)
	if !ok {
		t.Fatalf("a jwt authenticator (%T) does not let the process wait for its keyring writes", auth)
	}
	refresh := func(context.Context, string) (*api.Tokens, error) {
		return &api.Tokens{AccessToken: "a2", RefreshToken: "r2"}, nil
	}
	go auth.(api.Reauthenticator).Reauthenticate(context.Background(), refresh)
	<-slow.setting
	if err := p.WaitPersisted(20 * time.Millisecond); err == nil {
		t.Fatal("WaitPersisted returned while the new pair was still being written")
	}
	close(slow.release)
	if err := p.WaitPersisted(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got, _ := mem.Get("ops", KeyRefreshToken); got != "r2" {
		t.Fatalf("refresh token in the keyring = %q, want the rotated r2", got)
	}
}
