package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// `tesouro sandbox --allow-remote` hands out credentials of its own, kept
// with --state, in a file only its owner reads: the published demo keys of
// the seed, the same in every tesouro, do not open it.
func TestSandboxAllowRemoteHasItsOwnCredentials(t *testing.T) {
	dir := t.TempDir()
	creds, state := filepath.Join(dir, "creds.json"), filepath.Join(dir, "state.db")
	var out, errOut syncBuffer
	f := testFactory(strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, f, []string{"sandbox", "--allow-remote", "--addr", "127.0.0.1:0", "--state", state, "--credentials-out", creds})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sandbox: %v", err)
		}
	}()
	waitFor(t, 45*time.Second, "the sandbox to start", func() bool { return strings.Contains(out.String(), "press Ctrl-C") })
	if !strings.Contains(out.String(), "this installation's own, kept in "+state) {
		t.Errorf("the start does not say the credentials are the installation's own:\n%s", out.String())
	}
	fi, err := os.Stat(creds)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the credentials file has mode %v, want 0600", fi.Mode().Perm())
	}
	got, err := sandbox.ReadCredentials(creds)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := sandbox.New(sandbox.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	published := pub.Credentials("http://unused")
	pub.Close()
	for _, a := range got.Accesses {
		p, ok := published.Access(a.Name)
		if !ok {
			t.Fatalf("access %s is not a demo access", a.Name)
		}
		if a.APIKey == p.APIKey || a.PrivateKeyPEM == p.PrivateKeyPEM || a.Password == p.Password {
			t.Errorf("%s has the published demo credentials of seed 1", a.Name)
		}
	}
	// And they work: the command line reads with them.
	mustTesouro(t, "--credentials", creds, "--as", "viewer", "balances")
}
