package keystore

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"strings"
	"sync"
	"testing"
)

func rsa4096PEM(t testing.TB) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 4096)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

func TestMemorySetGetDelete(t *testing.T) {
	s := NewMemory()
	_, err := s.Get("prod", KeyAPIKey)
	if !errors.Is(err, ErrNotStored) {
		t.Fatalf("Get of nothing = %v, want ErrNotStored", err)
	}
	if want := `no credential stored for profile "prod" (API key)`; !strings.Contains(err.Error(), want) {
		t.Fatalf("message %q does not say %q", err, want)
	}
	must(t, s.Set("prod", KeyAPIKey, "k-1"))
	must(t, s.Set("other", KeyAPIKey, "k-2"))
	if v, err := s.Get("prod", KeyAPIKey); err != nil || v != "k-1" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	must(t, s.Delete("prod", KeyAPIKey))
	if _, err := s.Get("prod", KeyAPIKey); !errors.Is(err, ErrNotStored) {
		t.Fatalf("after Delete: %v", err)
	}
	if v, _ := s.Get("other", KeyAPIKey); v != "k-2" {
		t.Fatalf("deleting one profile's secret touched another's: %q", v)
	}
	must(t, s.Delete("prod", KeyAPIKey)) // deleting nothing is not an error
	if err := s.Set("bad name", KeyAPIKey, "x"); err == nil {
		t.Fatal("Set accepted a profile name with a space")
	}
}

func TestNotStoredMessagesSayHowToFix(t *testing.T) {
	s := NewMemory()
	for key, fix := range map[string]string{
		KeyAPIKey:       `tesouro profile add prod --replace`,
		KeyPrivateKey:   `tesouro keygen --profile prod`,
		KeyRefreshToken: `tesouro login --profile prod`,
	} {
		_, err := s.Get("prod", key)
		if err == nil || !strings.Contains(err.Error(), fix) {
			t.Errorf("Get(%s) = %v, want the fix %q", key, err, fix)
		}
	}
}

func TestLargeSecretsAreSplitTransparently(t *testing.T) {
	s := NewMemory().(*store)
	mb := s.b.(*memBackend)
	key := rsa4096PEM(t)
	if len(key) <= EntryLimit {
		t.Fatalf("an RSA-4096 PEM of %d bytes should exceed the entry limit", len(key))
	}
	must(t, s.Set("prod", KeyPrivateKey, key))
	got, err := s.Get("prod", KeyPrivateKey)
	if err != nil || got != key {
		t.Fatalf("split round trip failed: err %v, equal %v", err, got == key)
	}
	for k, v := range mb.m {
		if len(v) > EntryLimit {
			t.Errorf("entry %v holds %d bytes, more than %d", k, len(v), EntryLimit)
		}
	}
	if len(mb.m) < 3 {
		t.Fatalf("expected a header and at least two parts, got %d entries", len(mb.m))
	}
	// Replacing it by a small secret removes the old parts.
	must(t, s.Set("prod", KeyPrivateKey, "small"))
	if len(mb.m) != 1 {
		t.Fatalf("after shrinking, %d entries remain, want 1", len(mb.m))
	}
	must(t, s.Set("prod", KeyPrivateKey, key))
	must(t, s.Delete("prod", KeyPrivateKey))
	if len(mb.m) != 0 {
		t.Fatalf("Delete left %d entries", len(mb.m))
	}
}

func TestSplitEdgeCases(t *testing.T) {
	s := NewMemory()
	cases := map[string]string{
		"exactly the limit":       strings.Repeat("a", EntryLimit),
		"one over the limit":      strings.Repeat("a", EntryLimit+1),
		"looks like a header":     splitMarker + "parts=1 bytes=3 sha256=00",
		"multibyte on a boundary": strings.Repeat("a", EntryLimit-1) + strings.Repeat("é", 2000),
		"empty":                   "",
	}
	for name, v := range cases {
		must(t, s.Set("p", KeyAPIKey, v))
		got, err := s.Get("p", KeyAPIKey)
		if err != nil || got != v {
			t.Errorf("%s: round trip gave err %v, equal %v", name, err, got == v)
		}
	}
	for _, c := range chunks(cases["multibyte on a boundary"]) {
		if !strings.HasPrefix(c, "a") && !strings.HasPrefix(c, "é") {
			t.Fatalf("a part starts inside a UTF-8 sequence: %q", c[:4])
		}
	}
	err := s.Set("p", KeyAPIKey, strings.Repeat("x", MaxSecretBytes+1))
	if !errors.Is(err, ErrSecretTooLarge) || !strings.Contains(err.Error(), "secret too large") {
		t.Fatalf("oversized secret: %v", err)
	}
}

func TestDamagedSplitSecretIsReported(t *testing.T) {
	s := NewMemory().(*store)
	mb := s.b.(*memBackend)
	v := strings.Repeat("z", 3*EntryLimit)
	must(t, s.Set("p", KeyPrivateKey, v))
	delete(mb.m, [2]string{Service("p"), partUser(KeyPrivateKey, 2)})
	if _, err := s.Get("p", KeyPrivateKey); !errors.Is(err, ErrSecretDamaged) || !strings.Contains(err.Error(), "part 2 of 3 is missing") {
		t.Fatalf("missing part: %v", err)
	}
	must(t, s.Set("p", KeyPrivateKey, v))
	mb.m[[2]string{Service("p"), partUser(KeyPrivateKey, 1)}] = strings.Repeat("y", EntryLimit)
	if _, err := s.Get("p", KeyPrivateKey); !errors.Is(err, ErrSecretDamaged) {
		t.Fatalf("altered part: %v", err)
	}
}

func TestMemoryConcurrentUse(t *testing.T) {
	s := NewMemory()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			name := string(rune('a' + g))
			for i := range 20 {
				v := strings.Repeat(name, 100*i)
				if err := s.Set(name, KeyAccessToken, v); err != nil {
					t.Error(err)
					return
				}
				if got, err := s.Get(name, KeyAccessToken); err != nil || got != v {
					t.Errorf("%s/%d: %v", name, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
