package main

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/keystore"
)

// keeper files the API keys the Accesses screen creates as new profiles of
// the service at baseURL: secrets in the OS keyring of the profile, the
// profile in config.toml (views/accesses.Keeper). Its calls run inside the
// screen's commands, never in its Update, since the keyring may block.
type keeper struct {
	f       *cli.Factory
	baseURL string
	// mu orders the reads and writes of config.toml made from commands.
	mu *sync.Mutex
}

func newKeeper(f *cli.Factory, baseURL string) keeper {
	return keeper{f: f, baseURL: baseURL, mu: &sync.Mutex{}}
}

// Free implements accesses.Keeper: a valid name no profile has.
func (k keeper) Free(name string) error {
	if err := keystore.ValidName(name); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	cfg, err := k.f.Config()
	if err != nil {
		return err
	}
	if _, err := cfg.Lookup(name); err == nil {
		return fmt.Errorf("profile %q exists already: choose another name", name)
	} else if !errors.Is(err, keystore.ErrUnknownProfile) && !errors.Is(err, keystore.ErrNoProfile) {
		return err
	}
	if _, err := k.f.Secrets().Get(name, keystore.KeyPrivateKey); err == nil {
		return fmt.Errorf("the keyring holds a private key for %q already: choose another name", name)
	} else if !errors.Is(err, keystore.ErrNotStored) {
		return err
	}
	return nil
}

// SetPrivateKey implements accesses.Keeper.
func (k keeper) SetPrivateKey(name, pem string) error {
	return k.f.Secrets().Set(name, keystore.KeyPrivateKey, pem)
}

// Save implements accesses.Keeper: the API key to the keyring, then the
// profile to config.toml, so that a profile is never listed without it.
func (k keeper) Save(name, apiKey, env string) error {
	p := keystore.Profile{Name: name, BaseURL: keystore.NormalizeBaseURL(k.baseURL), Env: env, Auth: keystore.AuthAPIKey}
	if err := p.Validate(); err != nil {
		return err
	}
	if err := k.f.Secrets().Set(name, keystore.KeyAPIKey, apiKey); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	cfg, err := k.f.Config()
	if err != nil {
		return err
	}
	// The new profile is used when asked for (--profile, or "tesouro
	// profile use"), never by itself: a first profile would otherwise
	// become the active one, and the next plain "tesouro" would leave the
	// sandbox it starts today for this one.
	active := cfg.Active
	if err := cfg.Put(p, false); err != nil {
		return err
	}
	cfg.Active = active
	if err := cfg.Save(); err != nil {
		_ = cfg.Remove(name)
		cfg.Active = active
		return err
	}
	return nil
}

// Forget implements accesses.Keeper: both secrets go; a profile saved is
// left to "tesouro profile remove".
func (k keeper) Forget(name string) error {
	sec := k.f.Secrets()
	return errors.Join(sec.Delete(name, keystore.KeyAPIKey), sec.Delete(name, keystore.KeyPrivateKey))
}
