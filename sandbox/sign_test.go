package sandbox

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// rawClient signs requests by hand, independently of the api package, so
// that the sandbox's own tests exercise the wire exactly.
type rawClient struct {
	t    testing.TB
	base string
	cred AccessCredential
	key  crypto.Signer
	now  func() time.Time
	hc   *http.Client
	// last is the previous timestamp sent: a request is never signed at
	// the same millisecond as the one before (the sandbox takes the same
	// signed message twice for a replay), even on a frozen clock.
	mu   sync.Mutex
	last int64
}

func newRawClient(t testing.TB, base string, cred AccessCredential, now func() time.Time) *rawClient {
	t.Helper()
	b, _ := pem.Decode([]byte(cred.PrivateKeyPEM))
	if b == nil {
		t.Fatalf("%s: no PEM", cred.Name)
	}
	var k any
	var err error
	switch b.Type {
	case "RSA PRIVATE KEY":
		k, err = x509.ParsePKCS1PrivateKey(b.Bytes)
	case "EC PRIVATE KEY":
		k, err = x509.ParseECPrivateKey(b.Bytes)
	default:
		k, err = x509.ParsePKCS8PrivateKey(b.Bytes)
	}
	if err != nil {
		t.Fatalf("%s: parse key: %v", cred.Name, err)
	}
	if now == nil {
		now = time.Now
	}
	return &rawClient{t: t, base: base, cred: cred, key: k.(crypto.Signer), now: now, hc: &http.Client{Timeout: 10 * time.Second}}
}

func (c *rawClient) sign(msg []byte) []byte {
	var sig []byte
	var err error
	switch k := c.key.(type) {
	case ed25519.PrivateKey:
		sig = ed25519.Sign(k, msg)
	case *ecdsa.PrivateKey:
		h := sha256.Sum256(msg)
		sig, err = ecdsa.SignASN1(rand.Reader, k, h[:])
	case *rsa.PrivateKey:
		h := sha256.Sum256(msg)
		sig, err = rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, h[:])
	}
	if err != nil {
		c.t.Fatal(err)
	}
	return sig
}

// do sends a signed request and returns the status and body.
func (c *rawClient) do(method, uri string, body any) (int, []byte) {
	c.t.Helper()
	var data []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		data = b
	case string:
		data = []byte(b)
	default:
		var err error
		data, err = json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, c.base+uri, bytes.NewReader(data))
	if err != nil {
		c.t.Fatal(err)
	}
	if data == nil {
		req.Body = nil
	}
	ms := c.now().UnixMilli()
	c.mu.Lock()
	if ms <= c.last && c.last-ms < 20_000 {
		ms = c.last + 1
	}
	c.last = ms
	c.mu.Unlock()
	ts := strconv.FormatInt(ms, 10)
	msg := append([]byte(ts+method+uri), data...)
	req.Header.Set("X-API-Key", c.cred.APIKey)
	req.Header.Set("X-API-Timestamp", ts)
	req.Header.Set("X-API-Signature", base64.StdEncoding.EncodeToString(c.sign(msg)))
	if data != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, uri, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// json sends a request, checks the status and decodes the body into v.
func (c *rawClient) json(method, uri string, body any, want int, v any) {
	c.t.Helper()
	code, out := c.do(method, uri, body)
	if code != want {
		c.t.Fatalf("%s %s as %s: status %d, want %d: %s", method, uri, c.cred.Name, code, want, out)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			c.t.Fatalf("%s %s: decode %s: %v", method, uri, out, err)
		}
	}
}

// wantError checks a refusal's status and §4 code.
func (c *rawClient) wantError(method, uri string, body any, status int, code string) string {
	c.t.Helper()
	got, out := c.do(method, uri, body)
	var e errorBody
	if err := json.Unmarshal(out, &e); err != nil {
		c.t.Fatalf("%s %s: error body is not §4 JSON: %s", method, uri, out)
	}
	if got != status || e.Error.Code != code {
		c.t.Fatalf("%s %s as %s: got %d %s (%s), want %d %s", method, uri, c.cred.Name, got, e.Error.Code, e.Error.Message, status, code)
	}
	if e.Error.Message == "" {
		c.t.Fatalf("%s %s: error without a message", method, uri)
	}
	return e.Error.Message
}
