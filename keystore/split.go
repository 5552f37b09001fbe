package keystore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zalando/go-keyring"
)

// Platform limits: Windows refuses secrets over 2,560 bytes and macOS about
// 3,000, while an RSA-4096 private key PEM is about 3,300 bytes. Secrets up
// to EntryLimit go into one entry; larger ones are split across entries
// transparently, so every key size works on every platform.
const (
	EntryLimit     = 2560
	MaxSecretBytes = 64 << 10 // beyond this the Secret Service slows down and no real credential is that big
)

// splitMarker starts the first entry of a split secret. A secret that
// itself starts with the marker is always stored split, so a value is never
// mistaken for a header.
const splitMarker = "tesouro-split/1 "

// backend is a keyring as go-keyring exposes it: one value per service and
// user. Its errors are raw; store explains them.
type backend interface {
	Get(service, user string) (string, error)
	Set(service, user, value string) error
	Delete(service, user string) error
}

// store implements Secrets over a backend, splitting large secrets.
type store struct{ b backend }

func partUser(key string, i int) string { return fmt.Sprintf("%s#%d", key, i) }

func checkKey(profile, key string) error {
	if err := ValidName(profile); err != nil {
		return err
	}
	if key == "" || strings.ContainsRune(key, '#') {
		return fmt.Errorf("secret name %q is empty or holds '#'", key)
	}
	return nil
}

type header struct {
	parts, size int
	sum         string
}

func (h header) String() string {
	return fmt.Sprintf("%sparts=%d bytes=%d sha256=%s", splitMarker, h.parts, h.size, h.sum)
}

func parseHeader(s string) (header, bool) {
	if !strings.HasPrefix(s, splitMarker) {
		return header{}, false
	}
	var h header
	_, err := fmt.Sscanf(s[len(splitMarker):], "parts=%d bytes=%d sha256=%s", &h.parts, &h.size, &h.sum)
	return h, err == nil && h.parts > 0 && h.parts <= MaxSecretBytes/EntryLimit+1
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// chunks cuts s into pieces of at most EntryLimit bytes, never inside a
// UTF-8 sequence (macOS's keychain tool works on text).
func chunks(s string) []string {
	var out []string
	for len(s) > EntryLimit {
		n := EntryLimit
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

func (s *store) Get(profile, key string) (string, error) {
	if err := checkKey(profile, key); err != nil {
		return "", err
	}
	svc := Service(profile)
	first, err := s.b.Get(svc, key)
	if err != nil {
		return "", explain(err, profile, key)
	}
	h, split := parseHeader(first)
	if !split {
		return first, nil
	}
	var b strings.Builder
	b.Grow(h.size)
	for i := 1; i <= h.parts; i++ {
		part, err := s.b.Get(svc, partUser(key, i))
		if errors.Is(err, keyring.ErrNotFound) {
			return "", damaged(profile, key, fmt.Sprintf("part %d of %d is missing", i, h.parts))
		}
		if err != nil {
			return "", explain(err, profile, key)
		}
		b.WriteString(part)
	}
	v := b.String()
	if len(v) != h.size || digest(v) != h.sum {
		return "", damaged(profile, key, "its parts do not add up")
	}
	return v, nil
}

func damaged(profile, key, why string) error {
	return &Error{Kind: ErrSecretDamaged, Profile: profile, Key: key,
		msg: fmt.Sprintf("the %s stored for profile %q is damaged (%s): store it again (see \"tesouro profile add --help\")", keyLabel(key), profile, why)}
}

func (s *store) Set(profile, key, value string) error {
	if err := checkKey(profile, key); err != nil {
		return err
	}
	if len(value) > MaxSecretBytes {
		return &Error{Kind: ErrSecretTooLarge, Profile: profile, Key: key,
			msg: fmt.Sprintf("secret too large: the %s for profile %q is %d bytes, more than the %d a keyring entry set can hold; check that the file is the right one", keyLabel(key), profile, len(value), MaxSecretBytes)}
	}
	svc := Service(profile)
	oldParts, err := s.parts(profile, key)
	if err != nil {
		return err
	}
	newParts := 0
	if len(value) <= EntryLimit && !strings.HasPrefix(value, splitMarker) {
		if err := s.b.Set(svc, key, value); err != nil {
			return explain(err, profile, key)
		}
	} else {
		cs := chunks(value)
		newParts = len(cs)
		// Parts first, header last: until the header is written a reader
		// still sees the old value (or a damaged one it reports), never a
		// mix that passes the checksum.
		for i, c := range cs {
			if err := s.b.Set(svc, partUser(key, i+1), c); err != nil {
				return explain(err, profile, key)
			}
		}
		h := header{parts: newParts, size: len(value), sum: digest(value)}
		if err := s.b.Set(svc, key, h.String()); err != nil {
			return explain(err, profile, key)
		}
	}
	for i := newParts + 1; i <= oldParts; i++ {
		if err := s.b.Delete(svc, partUser(key, i)); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return explain(err, profile, key)
		}
	}
	return nil
}

// parts returns how many split parts the stored secret has (0 when it is
// stored whole or absent).
func (s *store) parts(profile, key string) (int, error) {
	first, err := s.b.Get(Service(profile), key)
	if errors.Is(err, keyring.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, explain(err, profile, key)
	}
	if h, ok := parseHeader(first); ok {
		return h.parts, nil
	}
	return 0, nil
}

func (s *store) Delete(profile, key string) error {
	if err := checkKey(profile, key); err != nil {
		return err
	}
	n, err := s.parts(profile, key)
	if err != nil {
		return err
	}
	svc := Service(profile)
	// The header goes first, so that an interrupted delete leaves nothing
	// that reads as a valid secret.
	if err := s.b.Delete(svc, key); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return explain(err, profile, key)
	}
	for i := 1; i <= n; i++ {
		if err := s.b.Delete(svc, partUser(key, i)); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return explain(err, profile, key)
		}
	}
	return nil
}
