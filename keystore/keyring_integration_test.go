package keystore

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/tesouro-treasury/tesouro/internal/sstest"
)

// These tests run against a real gnome-keyring on a private bus (TestMain).

func TestOSKeyringRoundTrip(t *testing.T) {
	ss := sstest.Need(t)
	s := OSKeyring()
	profile := "it-roundtrip"
	t.Cleanup(func() { s.Delete(profile, KeyAPIKey) })

	if _, err := s.Get(profile, KeyAPIKey); !errors.Is(err, ErrNotStored) {
		t.Fatalf("Get before Set = %v, want ErrNotStored", err)
	}
	must(t, s.Set(profile, KeyAPIKey, "api-key-value-1"))
	must(t, s.Set(profile, KeyAPIKey, "api-key-value-2")) // replaces, never duplicates
	if v, err := s.Get(profile, KeyAPIKey); err != nil || v != "api-key-value-2" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	// Filed where other tools find it: service tesouro:<profile>.
	if out, err := ss.Tool("lookup", "service", "tesouro:"+profile, "username", KeyAPIKey); err == nil && out != "api-key-value-2" {
		t.Fatalf("secret-tool sees %q under service tesouro:%s", out, profile)
	}
	must(t, s.Delete(profile, KeyAPIKey))
	if _, err := s.Get(profile, KeyAPIKey); !errors.Is(err, ErrNotStored) {
		t.Fatalf("Get after Delete = %v", err)
	}
}

func TestOSKeyringRSA4096KeySplitAcrossEntries(t *testing.T) {
	ss := sstest.Need(t)
	s := OSKeyring()
	profile := "it-rsa4096"
	t.Cleanup(func() { s.Delete(profile, KeyPrivateKey) })
	key := rsa4096PEM(t)
	must(t, s.Set(profile, KeyPrivateKey, key))
	got, err := s.Get(profile, KeyPrivateKey)
	if err != nil || got != key {
		t.Fatalf("RSA-4096 key round trip: err %v, equal %v", err, got == key)
	}
	// The secret is filed as a header and parts, none above the smallest
	// platform limit (read back with go-keyring itself, on the same bus).
	head, err := keyring.Get(Service(profile), KeyPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := parseHeader(head)
	if !ok || h.parts < 2 {
		t.Fatalf("first entry %q is not a split header", head)
	}
	for i := 1; i <= h.parts; i++ {
		part, err := keyring.Get(Service(profile), partUser(KeyPrivateKey, i))
		if err != nil || len(part) > EntryLimit || len(part) == 0 {
			t.Fatalf("part %d: %d bytes, %v", i, len(part), err)
		}
	}
	must(t, s.Delete(profile, KeyPrivateKey))
	for i := 0; i <= h.parts; i++ {
		user := KeyPrivateKey
		if i > 0 {
			user = partUser(KeyPrivateKey, i)
		}
		if _, err := keyring.Get(Service(profile), user); !errors.Is(err, keyring.ErrNotFound) {
			t.Fatalf("Delete left %s behind: %v", user, err)
		}
	}
	if out, err := ss.Tool("search", "--all", "service", Service(profile)); err == nil && strings.TrimSpace(out) != "" {
		t.Fatalf("Delete left entries behind: %s", out)
	}
}

func TestOSKeyringConcurrentCalls(t *testing.T) {
	sstest.Need(t)
	s := OSKeyring()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			profile := fmt.Sprintf("it-conc-%d", g)
			defer s.Delete(profile, KeyRefreshToken)
			for i := range 10 {
				v := fmt.Sprintf("token-%d-%d", g, i)
				if err := s.Set(profile, KeyRefreshToken, v); err != nil {
					t.Error(err)
					return
				}
				if got, err := s.Get(profile, KeyRefreshToken); err != nil || got != v {
					t.Errorf("got %q, %v; want %q", got, err, v)
					return
				}
			}
		})
	}
	wg.Wait()
}

// A wedged Secret Service (SIGSTOP) never answers; the call must come back
// at its deadline with a message that says what to do.
func TestOSKeyringHungDaemonIsCutOff(t *testing.T) {
	ss := sstest.Need(t)
	s := OSKeyringWith(KeyringOptions{ReadTimeout: 700 * time.Millisecond, WriteTimeout: 700 * time.Millisecond})
	must(t, s.Set("it-hung", KeyAPIKey, "v"))
	t.Cleanup(func() { s.Delete("it-hung", KeyAPIKey) })

	if err := syscall.Kill(ss.DaemonPID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(ss.DaemonPID, syscall.SIGCONT)
	start := time.Now()
	_, err := s.Get("it-hung", KeyAPIKey)
	elapsed := time.Since(start)
	syscall.Kill(ss.DaemonPID, syscall.SIGCONT)

	if !errors.Is(err, ErrKeyringTimeout) {
		t.Fatalf("Get on a stopped daemon = %v, want ErrKeyringTimeout", err)
	}
	t.Logf("the user reads: %v", err)
	if want := "the keyring did not answer within 700ms"; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "unlock the keyring") {
		t.Fatalf("message %q does not say %q and how to fix it", err, want)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("Get returned after %v, want about 700ms", elapsed)
	}
	// Once the daemon runs again, the keyring works again.
	if v, err := s.Get("it-hung", KeyAPIKey); err != nil || v != "v" {
		t.Fatalf("after SIGCONT: %q, %v", v, err)
	}
}

// A bus where the Secret Service is activated but never answers (the
// "cannot be activated: timed out" case, which takes minutes).
func TestOSKeyringActivationThatNeverAnswersIsCutOff(t *testing.T) {
	sstest.Need(t)
	ss, err := sstest.Start(filepath.Join(t.TempDir(), "hang"), sstest.Hangs)
	if err != nil {
		sstest.Missing(t, err)
	}
	defer ss.Stop()
	sstest.UseBus(t, ss.Addr)
	s := OSKeyringWith(KeyringOptions{ReadTimeout: 500 * time.Millisecond})
	start := time.Now()
	_, err = s.Get("it-act", KeyAPIKey)
	t.Logf("the user reads: %v", err)
	if !errors.Is(err, ErrKeyringTimeout) || time.Since(start) > 2*time.Second {
		t.Fatalf("Get = %v after %v, want a timeout after about 500ms", err, time.Since(start))
	}
}

func TestOSKeyringNoSecretService(t *testing.T) {
	sstest.Need(t)
	ss, err := sstest.Start(filepath.Join(t.TempDir(), "none"), sstest.None)
	if err != nil {
		sstest.Missing(t, err)
	}
	defer ss.Stop()
	sstest.UseBus(t, ss.Addr)
	_, err = OSKeyring().Get("it-none", KeyAPIKey)
	if !errors.Is(err, ErrNoSecretService) {
		t.Fatalf("Get = %v, want ErrNoSecretService", err)
	}
	t.Logf("the user reads: %v (keyring said: %v)", err, errors.Unwrap(err))
	if want := "no Secret Service is running: start gnome-keyring-daemon"; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("message %q, want it to start with %q", err, want)
	}
}

func TestOSKeyringNoSessionBus(t *testing.T) {
	sstest.Need(t)
	sstest.UseBus(t, "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no bus socket to discover
	t.Setenv("PATH", t.TempDir())            // and no dbus-launch to start one
	_, err := OSKeyring().Get("it-nobus", KeyAPIKey)
	t.Logf("the user reads: %v (keyring said: %v)", err, errors.Unwrap(err))
	if !errors.Is(err, ErrNoSessionBus) || !strings.HasPrefix(err.Error(), "no D-Bus session bus is running") {
		t.Fatalf("Get = %v, want the no-session-bus message", err)
	}
}

func TestOSKeyringLockedCollection(t *testing.T) {
	sstest.Need(t)
	ss, err := sstest.Start(filepath.Join(t.TempDir(), "locked"), sstest.GnomeKeyring)
	if err != nil {
		sstest.Missing(t, err)
	}
	defer ss.Stop()
	if err := ss.Lock(); err != nil {
		t.Fatal(err)
	}
	sstest.UseBus(t, ss.Addr)
	s := OSKeyring()
	for name, call := range map[string]func() error{
		"Get": func() error { _, err := s.Get("it-locked", KeyAPIKey); return err },
		"Set": func() error { return s.Set("it-locked", KeyAPIKey, "v") },
	} {
		err := call()
		t.Logf("%s: the user reads: %v (keyring said: %v)", name, err, errors.Unwrap(err))
		if !errors.Is(err, ErrKeyringLocked) || !strings.HasPrefix(err.Error(), "keyring locked or unavailable: unlock it") {
			t.Errorf("%s on a locked keyring = %v, want the locked message", name, err)
		}
	}
}
