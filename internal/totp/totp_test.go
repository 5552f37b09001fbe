package totp

import (
	"strings"
	"testing"
	"time"
)

// TestRFC6238Vectors checks the SHA-1 test vectors of RFC 6238 appendix B
// (their last six digits).
func TestRFC6238Vectors(t *testing.T) {
	secret := []byte("12345678901234567890")
	for unix, want := range map[int64]string{
		59: "287082", 1111111109: "081804", 1111111111: "050471",
		1234567890: "005924", 2000000000: "279037", 20000000000: "353130",
	} {
		if got := Code(secret, time.Unix(unix, 0)); got != want {
			t.Errorf("Code at %d = %s, want %s", unix, got, want)
		}
	}
}

func TestValidWindow(t *testing.T) {
	secret := []byte("12345678901234567890")
	now := time.Unix(1111111111, 0)
	code := Code(secret, now)
	for _, d := range []time.Duration{-Step, 0, Step} {
		if !Valid(secret, code, now.Add(d)) {
			t.Errorf("code refused %v away", d)
		}
	}
	for _, d := range []time.Duration{-3 * Step, 3 * Step} {
		if Valid(secret, code, now.Add(d)) {
			t.Errorf("code accepted %v away", d)
		}
	}
	if Valid(secret, "12345", now) || Valid(secret, "abcdef", now) || Valid(nil, code, now) {
		t.Error("malformed code or empty secret accepted")
	}
}

func TestEncodeDecodeURI(t *testing.T) {
	secret := []byte("12345678901234567890")
	enc := Encode(secret)
	if strings.Contains(enc, "=") {
		t.Errorf("padding in %s", enc)
	}
	back, err := Decode(strings.ToLower(enc) + "====")
	if err != nil || string(back) != string(secret) {
		t.Fatalf("decode = %q, %v", back, err)
	}
	if _, err := Decode("not base32!"); err == nil {
		t.Error("bad base32 accepted")
	}
	u := URI("Tesouro sandbox", "admin@example.com", secret)
	if !strings.HasPrefix(u, "otpauth://totp/") || !strings.Contains(u, "secret="+enc) || !strings.Contains(u, "period=30") {
		t.Errorf("uri = %s", u)
	}
}
