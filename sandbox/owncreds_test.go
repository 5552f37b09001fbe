package sandbox

import (
	"net/http"
	"path/filepath"
	"testing"
)

// With OwnCredentials (tesouro sandbox --allow-remote) the demo accesses'
// secrets are this installation's: none is the published one of the seed,
// the published keys are refused, the new ones sign, and they are kept
// with the state across restarts; another installation has others.
func TestOwnCredentialsAreThisInstallations(t *testing.T) {
	t.Parallel()
	published, err := Start(Config{Seed: 3}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer published.Close()
	if published.OwnCredentials() {
		t.Fatal("a sandbox without OwnCredentials reports its own credentials")
	}

	path := filepath.Join(t.TempDir(), "state.db")
	own, err := Start(Config{Seed: 3, StatePath: path, OwnCredentials: true}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if !own.OwnCredentials() {
		t.Fatal("OwnCredentials is not reported")
	}
	first := own.Creds
	if len(first.Accesses) != len(published.Creds.Accesses) {
		t.Fatalf("%d accesses, the published sandbox has %d", len(first.Accesses), len(published.Creds.Accesses))
	}
	for i, a := range first.Accesses {
		p := published.Creds.Accesses[i]
		if a.Name != p.Name || a.AccessID != p.AccessID || a.KeyType != p.KeyType {
			t.Errorf("access %s (%s, %s) is not the seed's %s (%s, %s): the demo data changed", a.Name, a.AccessID, a.KeyType, p.Name, p.AccessID, p.KeyType)
		}
		for what, pair := range map[string][2]string{
			"API key": {a.APIKey, p.APIKey}, "private key": {a.PrivateKeyPEM, p.PrivateKeyPEM},
			"password": {a.Password, p.Password}, "e-mail token": {a.EmailToken, p.EmailToken},
		} {
			if pair[0] == "" || pair[0] == pair[1] {
				t.Errorf("%s's %s is the published one (or empty)", a.Name, what)
			}
		}
	}
	// Every key type signs with the new keys; the published ones are
	// refused.
	for _, name := range []string{"operator", "requester", "approver1", "viewer"} {
		own.client(t, name).json("GET", "/v2/accounts", nil, http.StatusOK, nil)
		stale := published.client(t, name)
		stale.base = own.BaseURL
		if code, out := stale.do("GET", "/v2/accounts", nil); code != http.StatusUnauthorized {
			t.Errorf("the published key of %s answered %d on an installation of its own: %s", name, code, out)
		}
	}
	if err := own.Close(); err != nil {
		t.Fatal(err)
	}

	// Restarted on its state, even without the option, it keeps them.
	again, err := Start(Config{Seed: 3, StatePath: path}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range again.Creds.Accesses {
		if f := first.Accesses[i]; a.APIKey != f.APIKey || a.PrivateKeyPEM != f.PrivateKeyPEM || a.Password != f.Password || a.EmailToken != f.EmailToken {
			t.Errorf("%s's credentials changed across a restart on the same state", a.Name)
		}
	}
	again.client(t, "viewer").json("GET", "/v2/accounts", nil, http.StatusOK, nil)
	again.Close()

	// Another installation has its own.
	other, err := Start(Config{Seed: 3, OwnCredentials: true}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for i, a := range other.Creds.Accesses {
		if f := first.Accesses[i]; a.APIKey == f.APIKey || a.PrivateKeyPEM == f.PrivateKeyPEM {
			t.Errorf("two installations share %s's keys", a.Name)
		}
	}
}
