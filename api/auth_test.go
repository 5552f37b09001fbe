package api

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
)

// keyFixture is a private key in one PEM encoding and a verifier that uses
// only the standard library.
type keyFixture struct {
	name    string
	keyType string
	pem     []byte
	verify  func(msg, sig []byte) bool
}

var (
	rsaOnce sync.Once
	rsaKey  *rsa.PrivateKey
)

func testRSAKey(t testing.TB) *rsa.PrivateKey {
	rsaOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		rsaKey = k
	})
	return rsaKey
}

func keyFixtures(t testing.TB) []keyFixture {
	edPub, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	ecPriv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaPriv := testRSAKey(t)
	pkcs8 := func(k any) []byte {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	}
	sec1, err := x509.MarshalECPrivateKey(ecPriv)
	if err != nil {
		t.Fatal(err)
	}
	// What `openssl ecparam -genkey` writes: parameters, then the key.
	ecParams := append(pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: []byte{0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1})...)
	edVerify := func(msg, sig []byte) bool { return ed25519.Verify(edPub, msg, sig) }
	ecVerify := func(msg, sig []byte) bool {
		h := sha256.Sum256(msg)
		return ecdsa.VerifyASN1(&ecPriv.PublicKey, h[:], sig)
	}
	rsaVerify := func(msg, sig []byte) bool {
		h := sha256.Sum256(msg)
		return rsa.VerifyPKCS1v15(&rsaPriv.PublicKey, crypto.SHA256, h[:], sig) == nil
	}
	return []keyFixture{
		{"ed25519 PKCS#8", KeyEd25519, pkcs8(edPriv), edVerify},
		{"ecdsa PKCS#8", KeyECDSA, pkcs8(ecPriv), ecVerify},
		{"ecdsa SEC1", KeyECDSA, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1}), ecVerify},
		{"ecdsa SEC1 with parameters", KeyECDSA, ecParams, ecVerify},
		{"rsa PKCS#8", KeyRSA, pkcs8(rsaPriv), rsaVerify},
		{"rsa PKCS#1", KeyRSA, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaPriv)}), rsaVerify},
	}
}

// TestAPIKeySignatures sends a request with an escaped query and a JSON
// body under each key type and encoding, and checks on the server, byte for
// byte, the string that was signed and the signature with the standard
// library's verify.
func TestAPIKeySignatures(t *testing.T) {
	const ts = 1763633400123
	for _, kf := range keyFixtures(t) {
		t.Run(kf.name, func(t *testing.T) {
			a, err := NewAPIKeyAuth(" "+testKey+"\n", kf.pem)
			if err != nil {
				t.Fatal(err)
			}
			if a.KeyType() != kf.keyType {
				t.Fatalf("key type %s, want %s", a.KeyType(), kf.keyType)
			}
			a.now = func() time.Time { return time.UnixMilli(ts) }
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeJSON(w, 200, `{"ok":true}`) })
			c, err := New(srv.URL+"/prefix/", a)
			if err != nil {
				t.Fatal(err)
			}
			q := newQuery().str("externalId", "a b/c&d=é+").str("subAccountId", subID)
			body := map[string]string{"alias": "Açaí <&> \"q\"", "walletChain": "POLYGON"}
			if err := c.json(context.Background(), call{method: http.MethodPost, path: item(pathWallets, "x y"), query: q.values(), body: body}, nil); err != nil {
				t.Fatal(err)
			}
			r := srv.requests()[0]
			wantURI := "/prefix/v2/account/beneficiaries/wallets/x%20y?externalId=a+b%2Fc%26d%3D%C3%A9%2B&subAccountId=" + subID
			if r.RequestURI != wantURI {
				t.Fatalf("request URI on the wire\n got %s\nwant %s", r.RequestURI, wantURI)
			}
			wantBody := `{"alias":"A` + "çaí" + ` \u003c\u0026\u003e \"q\"","walletChain":"POLYGON"}`
			if string(r.Body) != wantBody {
				t.Fatalf("body on the wire\n got %s\nwant %s", r.Body, wantBody)
			}
			if r.Header.Get("X-API-Key") != testKey || r.Header.Get("X-API-Timestamp") != "1763633400123" {
				t.Fatalf("headers %v", r.Header)
			}
			signed := "1763633400123POST" + wantURI + wantBody
			sig, err := base64.StdEncoding.Strict().DecodeString(r.Header.Get("X-API-Signature"))
			if err != nil {
				t.Fatalf("signature is not padded standard base64: %v", err)
			}
			if kf.keyType == KeyEd25519 && len(sig) != ed25519.SignatureSize {
				t.Fatalf("ed25519 signature of %d bytes", len(sig))
			}
			if !kf.verify([]byte(signed), sig) {
				t.Fatalf("signature does not verify over %q", signed)
			}
			if kf.verify([]byte(signed+" "), sig) {
				t.Fatal("signature verifies over a different string: the verifier is not checking")
			}
		})
	}
}

func TestParsePrivateKeyRefusals(t *testing.T) {
	ec384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	der384, _ := x509.MarshalPKCS8PrivateKey(ec384)
	pubDER, _ := x509.MarshalPKIXPublicKey(&testRSAKey(t).PublicKey)
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	cases := map[string]struct {
		pem  []byte
		want string
	}{
		"not PEM":     {[]byte("hello"), "no PEM block"},
		"P-384":       {pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der384}), "P-256"},
		"public key":  {pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), "public key"},
		"encrypted":   {pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1}}), "encrypted"},
		"garbage DER": {pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}), "PKCS#8"},
		"short RSA":   {pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(small)}), "2048"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := NewAPIKeyAuth(testKey, tc.pem)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := NewAPIKeyAuth("  ", keyFixtures(t)[0].pem); err == nil {
		t.Fatal("empty API key accepted")
	}
}

// bearerServer accepts only the current access token and rotates single-use
// refresh tokens.
type bearerServer struct {
	mu        sync.Mutex
	access    string
	refresh   string
	refreshes atomic.Int32
}

func (b *bearerServer) handle(w http.ResponseWriter, r *http.Request, body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r.URL.Path == pathRefresh {
		b.refreshes.Add(1)
		if r.Header.Get("Authorization") != "" {
			writeJSON(w, 400, `{"error":{"code":"BAD_REQUEST","message":"refresh carries no bearer"}}`)
			return
		}
		if string(body) != `{"refreshToken":"`+b.refresh+`"}` {
			writeJSON(w, 401, `{"error":{"code":"UNAUTHENTICATED","message":"refresh token invalid"}}`)
			return
		}
		n := b.refreshes.Load()
		b.access = "access-" + string(rune('0'+n))
		b.refresh = "refresh-" + string(rune('0'+n))
		writeJSON(w, 200, `{"accessToken":"`+b.access+`","refreshToken":"`+b.refresh+`"}`)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+b.access {
		writeJSON(w, 401, `{"error":{"code":"TOKEN_EXPIRED","message":"access token expired"}}`)
		return
	}
	writeJSON(w, 200, `{"balances":{"BRLA":"1.5"}}`)
}

func TestBearerRefreshesOnceAndRotates(t *testing.T) {
	bs := &bearerServer{access: "access-new", refresh: "refresh-0"}
	srv := newServer(t, bs.handle)
	var rotated []Tokens
	var mu sync.Mutex
	auth := NewBearerAuth(Tokens{AccessToken: "access-stale", RefreshToken: "refresh-0"}, func(tk Tokens) {
		mu.Lock()
		rotated = append(rotated, tk)
		mu.Unlock()
	})
	c, err := New(srv.URL, auth)
	if err != nil {
		t.Fatal(err)
	}
	// Eight screens ask at once with the stale token: one refresh only.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			b, err := c.Balances(context.Background(), uuid.Nil)
			if err == nil && b["BRLA"].String() != "1.5" {
				err = errors.New("wrong balance " + b["BRLA"].String())
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("request after refresh: %v", err)
		}
	}
	if n := bs.refreshes.Load(); n != 1 {
		t.Fatalf("%d refreshes, want 1", n)
	}
	want := Tokens{AccessToken: "access-1", RefreshToken: "refresh-1"}
	if len(rotated) != 1 || rotated[0] != want || auth.Tokens() != want {
		t.Fatalf("rotation reported %+v, tokens now %+v; want one rotation to %+v", rotated, auth.Tokens(), want)
	}
}

func TestBearerGivesUpAfterOneRefresh(t *testing.T) {
	// The server never accepts any token: one refresh, one retry, then a
	// 401 the caller can recognise.
	var refreshes, reads atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if r.URL.Path == pathRefresh {
			refreshes.Add(1)
			writeJSON(w, 200, `{"accessToken":"again"}`)
			return
		}
		reads.Add(1)
		writeJSON(w, 401, `{"error":{"code":"UNAUTHENTICATED","message":"no"}}`)
	})
	auth := NewBearerAuth(Tokens{AccessToken: "a", RefreshToken: "r"}, nil)
	c, _ := New(srv.URL, auth)
	_, err := c.AccessInfo(context.Background())
	if !errors.Is(err, ErrUnauthenticated) {
		t.Fatalf("err = %v, want ErrUnauthenticated", err)
	}
	if refreshes.Load() != 1 || reads.Load() != 2 {
		t.Fatalf("%d refreshes and %d reads, want 1 and 2", refreshes.Load(), reads.Load())
	}
	if auth.Tokens().RefreshToken != "r" {
		t.Fatalf("a refresh answer without a refresh token must keep the old one, got %+v", auth.Tokens())
	}
}

func TestBearerRefreshFailureSaysLogInAgain(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		writeJSON(w, 401, `{"error":{"code":"TOKEN_EXPIRED","message":"expired"}}`)
	})
	c, _ := New(srv.URL, NewBearerAuth(Tokens{AccessToken: "a", RefreshToken: "r"}, func(Tokens) { t.Error("rotated on failure") }))
	_, err := c.AccessInfo(context.Background())
	if !errors.Is(err, ErrUnauthenticated) || !strings.Contains(err.Error(), "log in again") {
		t.Fatalf("err = %v", err)
	}
}

// TestStampsNeverRunAheadOfTheClock: a burst of signatures stays on the
// clock's millisecond; the same message twice in one millisecond waits for
// the next one; a clock set back a little is waited for, set back a lot is
// followed.
func TestStampsNeverRunAheadOfTheClock(t *testing.T) {
	a, err := NewAPIKeyAuth(testKey, keyFixtures(t)[0].pem)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.UnixMilli(1763633400123)
	a.now = func() time.Time { return clock }
	var slept []time.Duration
	a.sleep = func(d time.Duration) { slept = append(slept, d); clock = clock.Add(d) }

	// 1000 different requests in one millisecond: all stamped with it.
	for i := range 1000 {
		if ms := a.stamp("GET", fmt.Sprintf("/v2/account/tickets/?externalId=%d", i), nil); ms != 1763633400123 {
			t.Fatalf("request %d stamped %d: ahead of the clock", i, ms)
		}
	}
	if len(slept) != 0 {
		t.Fatalf("different messages waited: %v", slept)
	}
	// The same message again: the next millisecond, after waiting for it.
	if ms := a.stamp("GET", "/v2/account/tickets/?externalId=0", nil); ms != 1763633400124 || len(slept) != 1 || slept[0] != time.Millisecond {
		t.Fatalf("the same message twice: stamped %d after %v", ms, slept)
	}
	// The same path with another body is another message.
	if ms := a.stamp("POST", "/v2/account/tickets/", []byte(`{"a":1}`)); ms != 1763633400124 {
		t.Fatalf("stamped %d", ms)
	}
	if ms := a.stamp("POST", "/v2/account/tickets/", []byte(`{"a":2}`)); ms != 1763633400124 || len(slept) != 1 {
		t.Fatalf("another body waited: %d %v", ms, slept)
	}
	// Set back 2 s: waited for, never stamped behind what was sent.
	clock = clock.Add(-2 * time.Second)
	if ms := a.stamp("GET", "/v2/account/balances", nil); ms != 1763633400124 || len(slept) != 2 {
		t.Fatalf("a clock set back 2 s: stamped %d after %v", ms, slept)
	}
	// Set back an hour: followed.
	clock = clock.Add(-time.Hour)
	if ms := a.stamp("GET", "/v2/account/balances", nil); ms != clock.UnixMilli() {
		t.Fatalf("a clock set back an hour: stamped %d, clock %d", ms, clock.UnixMilli())
	}
}

// TestAStampThatWaitsHoldsUpNoOther: while the same message twice waits
// for the next millisecond, another message is stamped with this one at
// once (a burst of identical quotes from one client used to hold every
// other request of the process behind each wait).
func TestAStampThatWaitsHoldsUpNoOther(t *testing.T) {
	a, err := NewAPIKeyAuth(testKey, keyFixtures(t)[0].pem)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	clock := time.UnixMilli(1763633400123)
	a.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	waiting, release := make(chan struct{}), make(chan struct{})
	a.sleep = func(d time.Duration) {
		close(waiting)
		<-release
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
	}
	a.stamp("GET", "/v2/account/quote/fixed-rate?inputAmount=100", nil)
	second := make(chan int64)
	go func() { second <- a.stamp("GET", "/v2/account/quote/fixed-rate?inputAmount=100", nil) }()
	<-waiting
	other := make(chan int64, 1)
	go func() { other <- a.stamp("GET", "/v2/account/quote/fixed-rate?inputAmount=101", nil) }()
	select {
	case ms := <-other:
		if ms != 1763633400123 {
			t.Fatalf("another message stamped %d", ms)
		}
	case <-time.After(5 * time.Second):
		close(release)
		t.Fatal("another message waited for the same message's next millisecond")
	}
	close(release)
	if ms := <-second; ms != 1763633400124 {
		t.Fatalf("the same message again stamped %d, not the next millisecond", ms)
	}
}
