// Package totp is the time-based one-time password of RFC 6238 as the
// service uses it for its second factor: HMAC-SHA-1, 6 digits, 30-second
// steps, the secret written in base32 without padding and as an
// otpauth:// URI for authenticator apps.
package totp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// The parameters of the service's codes.
const (
	Step   = 30 * time.Second
	Digits = 6
	// SecretSize is the size of a new secret: 160 bits, the size of the
	// SHA-1 block key RFC 4226 recommends.
	SecretSize = 20
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewSecret draws a random secret.
func NewSecret() ([]byte, error) {
	s := make([]byte, SecretSize)
	if _, err := rand.Read(s); err != nil {
		return nil, err
	}
	return s, nil
}

// Encode writes a secret in base32 without padding, as authenticator
// apps take it.
func Encode(secret []byte) string { return b32.EncodeToString(secret) }

// Decode reads a base32 secret, in any case, with or without padding
// and spaces.
func Decode(s string) ([]byte, error) {
	s = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	s = strings.TrimRight(s, "=")
	if s == "" {
		return nil, errors.New("empty TOTP secret")
	}
	b, err := b32.DecodeString(s)
	if err != nil {
		return nil, errors.New("the TOTP secret is not base32")
	}
	return b, nil
}

// Code is the code of secret at t (RFC 6238 with RFC 4226's dynamic
// truncation).
func Code(secret []byte, t time.Time) string {
	return codeAt(secret, uint64(t.Unix())/uint64(Step/time.Second))
}

func codeAt(secret []byte, counter uint64) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], counter)
	m := hmac.New(sha1.New, secret)
	m.Write(msg[:])
	sum := m.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", bin%1_000_000)
}

// Valid reports whether code is the code of secret at now or one step
// before or after it (a clock a little off, a code typed as it changed).
func Valid(secret []byte, code string, now time.Time) bool {
	if len(code) != Digits || len(secret) == 0 {
		return false
	}
	for _, c := range code {
		if c < '0' || c > '9' {
			return false
		}
	}
	step := uint64(now.Unix()) / uint64(Step/time.Second)
	ok := 0
	for _, s := range []uint64{step - 1, step, step + 1} {
		ok |= subtle.ConstantTimeCompare([]byte(codeAt(secret, s)), []byte(code))
	}
	return ok == 1
}

// URI is the otpauth:// URI of secret for account under issuer.
func URI(issuer, account string, secret []byte) string {
	q := url.Values{}
	q.Set("secret", Encode(secret))
	q.Set("issuer", issuer)
	q.Set("algorithm", "SHA1")
	q.Set("digits", "6")
	q.Set("period", "30")
	return "otpauth://totp/" + url.PathEscape(issuer+":"+account) + "?" + q.Encode()
}
