package keystore

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// The failure texts are those measured in reference/keyring-ci.md.
func TestExplainKeyringFailures(t *testing.T) {
	cases := []struct {
		raw  error
		kind error
		says string
	}{
		{errors.New(`exec: "dbus-launch": executable file not found in $PATH`), ErrNoSessionBus, "no D-Bus session bus is running"},
		{errors.New("The name org.freedesktop.secrets was not provided by any .service files"), ErrNoSecretService, "no Secret Service is running: start gnome-keyring-daemon"},
		{errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"), ErrKeyringLocked, "keyring locked or unavailable: unlock it"},
		{errors.New("Failed to activate service 'org.freedesktop.secrets': timed out (service_start_timeout=120000ms)"), ErrNoSecretService, "no Secret Service is running"},
		{errTimeout{5 * time.Second}, ErrKeyringTimeout, "the keyring did not answer within 5s (it may be waiting for an unlock password"},
		{errors.New("Did not receive a reply. Possible causes include: the remote application did not send a reply"), ErrKeyringTimeout, "the keyring did not answer (it may be waiting"},
		{keyring.ErrSetDataTooBig, ErrSecretTooLarge, "secret too large"},
		{keyring.ErrNotFound, ErrNotStored, `no credential stored for profile "prod"`},
		{errors.New("something odd"), ErrKeyring, "something odd"},
	}
	for _, tc := range cases {
		err := explain(tc.raw, "prod", KeyAPIKey)
		if !errors.Is(err, tc.kind) {
			t.Errorf("%v: kind %v, want %v", tc.raw, err, tc.kind)
		}
		if !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: message %q does not say %q", tc.raw, err, tc.says)
		}
	}
}

// hangingBackend never answers, like a wedged Secret Service.
type hangingBackend struct {
	release chan struct{}
	calls   atomic.Int32
}

func (h *hangingBackend) Get(string, string) (string, error) {
	h.calls.Add(1)
	<-h.release
	return "", nil
}
func (h *hangingBackend) Set(string, string, string) error { h.calls.Add(1); <-h.release; return nil }
func (h *hangingBackend) Delete(string, string) error      { h.calls.Add(1); <-h.release; return nil }

func TestBoundedCallsGiveUpAtTheDeadline(t *testing.T) {
	h := &hangingBackend{release: make(chan struct{})}
	defer close(h.release)
	var waited atomic.Int32
	s := &store{b: newBoundedBackend(h, KeyringOptions{
		ReadTimeout: 150 * time.Millisecond, WriteTimeout: 200 * time.Millisecond,
		WaitNotice: 50 * time.Millisecond, Waiting: func(time.Duration) { waited.Add(1) },
	})}
	start := time.Now()
	_, err := s.Get("prod", KeyAPIKey)
	if el := time.Since(start); el > time.Second {
		t.Fatalf("Get took %v on a hung keyring, want about 150ms", el)
	}
	if !errors.Is(err, ErrKeyringTimeout) || !strings.Contains(err.Error(), "the keyring did not answer within 150ms") {
		t.Fatalf("Get on a hung keyring = %v", err)
	}
	if waited.Load() != 1 {
		t.Fatalf("the waiting notice fired %d times, want once", waited.Load())
	}
	start = time.Now()
	err = s.Set("prod", KeyAPIKey, "v")
	if el := time.Since(start); el > time.Second || !errors.Is(err, ErrKeyringTimeout) {
		t.Fatalf("Set on a hung keyring: %v after %v", err, el)
	}
	if err := s.Delete("prod", KeyAPIKey); !errors.Is(err, ErrKeyringTimeout) {
		t.Fatalf("Delete on a hung keyring: %v", err)
	}
}

func TestBoundedCallsPassResultsThrough(t *testing.T) {
	s := &store{b: newBoundedBackend(newMemBackend(), KeyringOptions{})}
	must(t, s.Set("p", KeyRefreshToken, "r"))
	if v, err := s.Get("p", KeyRefreshToken); err != nil || v != "r" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if _, err := s.Get("p", KeyAccessToken); !errors.Is(err, ErrNotStored) {
		t.Fatalf("missing: %v", err)
	}
}
