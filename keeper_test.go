package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/keystore"
)

// TestKeeperFilesANewAPIKeyProfile follows what the Accesses screen asks
// of the keeper: a free name, the private key, then the API key and the
// profile, which config.toml then lists with no secret in it.
func TestKeeperFilesANewAPIKeyProfile(t *testing.T) {
	dir := t.TempDir()
	f := testFactory(nil, io.Discard, io.Discard, func(k string) string {
		if k == "TESOURO_CONFIG_DIR" {
			return dir
		}
		return ""
	})
	mem := keystore.NewMemory()
	f.Secrets = func() keystore.Secrets { return mem }
	k := newKeeper(f, "http://127.0.0.1:8443")

	if err := k.Free("bad name"); err == nil {
		t.Error("a name with a space is free")
	}
	if err := k.Free("live-2"); err != nil {
		t.Fatalf("live-2 is not free: %v", err)
	}
	if err := k.SetPrivateKey("live-2", "-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n"); err != nil {
		t.Fatal(err)
	}
	if err := k.Free("live-2"); err == nil {
		t.Error("a name whose private key is in the keyring is free")
	}
	if err := k.Save("live-2", "tk_secret_api_key", "sandbox"); err != nil {
		t.Fatal(err)
	}
	cfg, err := keystore.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.Lookup("live-2")
	if err != nil || p.Auth != keystore.AuthAPIKey || p.BaseURL != "http://127.0.0.1:8443" || p.Env != "sandbox" {
		t.Fatalf("profile %+v (%v)", p, err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	if strings.Contains(string(raw), "tk_secret_api_key") || strings.Contains(string(raw), "PRIVATE KEY") {
		t.Errorf("config.toml holds a secret:\n%s", raw)
	}
	if cfg.Active != "" {
		t.Errorf("the new profile became the active one (%q): it is used only when asked for", cfg.Active)
	}
	if got, _ := mem.Get("live-2", keystore.KeyAPIKey); got != "tk_secret_api_key" {
		t.Errorf("API key in the keyring: %q", got)
	}
	if err := k.Free("live-2"); err == nil {
		t.Error("a saved profile's name is free")
	}
	if err := k.Forget("live-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := mem.Get("live-2", keystore.KeyPrivateKey); !errors.Is(err, keystore.ErrNotStored) {
		t.Errorf("Forget left the private key: %v", err)
	}
}
