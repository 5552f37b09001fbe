package api

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Fixed identifiers used across the tests.
const (
	subID    = "11111111-1111-4111-8111-111111111111"
	ticketID = "22222222-2222-4222-8222-222222222222"
	opID     = "33333333-3333-4333-8333-333333333333"
	benID    = "44444444-4444-4444-8444-444444444444"
	testKey  = "ak_test_123"
)

// ticketJSON is a ticket as the service may send it: fractional seconds, an
// unknown status, an empty markupAmount, and a field the client does not know.
const ticketJSON = `{"id":"` + ticketID + `","externalId":"ext-1","workspaceId":"55555555-5555-4555-8555-555555555555","userId":"66666666-6666-4666-8666-666666666666",
"status":"ON-HOLD","reason":"","failureReason":"","createdAt":"2026-11-20T10:00:00.123456Z","updatedAt":"2026-11-20T10:00:01Z","expiresAt":"2026-11-20T10:05:00.123456789Z",
"quote":{"id":"77777777-7777-4777-8777-777777777777","ticketId":"` + ticketID + `","inputCurrency":"BRL","inputPaymentMethod":"PIX","inputAmount":"1000.00",
"outputCurrency":"USDC","outputPaymentMethod":"POLYGON","outputAmount":"181.234567","markupCurrency":"","markupAmount":"","sendMethod":"",
"inputThirdParty":false,"outputThirdParty":false,"basePrice":"0.18456789","pairName":"BRLUSDC","outputBrCode":"","ticketRefundId":"",
"createdAt":"2026-11-20T10:00:00Z","appliedFees":[{"type":"In Fee","description":"PIX","amount":"1.50","currency":"BRL","rebatable":false}]},
"brlPixInputInfo":{"id":"b1","ticketId":"` + ticketID + `","referenceLabel":"r","additionalData":"","brCode":"00020101BR"},"somethingNew":{"a":1}}`

// recorded is what the test server saw of one request.
type recorded struct {
	Method     string
	Path       string
	RawQuery   string
	RequestURI string
	Header     http.Header
	Body       []byte
}

// edKey makes an Ed25519 signer and its public key.
func edKey(t testing.TB) (*APIKeyAuth, ed25519.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAPIKeyAuth(testKey, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil {
		t.Fatal(err)
	}
	return a, pub
}

// verifyEd checks the API-key headers of a recorded request against pub;
// it returns "" when the request is correctly signed.
func verifyEd(pub ed25519.PublicKey, r recorded) string {
	if r.Header.Get("X-API-Key") != testKey {
		return "wrong X-API-Key " + r.Header.Get("X-API-Key")
	}
	ts := r.Header.Get("X-API-Timestamp")
	ms, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "timestamp not integer: " + ts
	}
	if d := time.Since(time.UnixMilli(ms)); d < -30*time.Second || d > 30*time.Second {
		return "timestamp not Unix ms near now: " + ts
	}
	sig, err := base64.StdEncoding.DecodeString(r.Header.Get("X-API-Signature"))
	if err != nil {
		return "signature not std base64"
	}
	msg := ts + r.Method + r.RequestURI + string(r.Body)
	if !ed25519.Verify(pub, []byte(msg), sig) {
		return "signature does not verify over " + msg
	}
	return ""
}

// server is an httptest server that records requests and answers with
// what handle returns.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, body []byte)) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, recorded{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, RequestURI: r.RequestURI, Header: r.Header.Clone(), Body: body})
		s.mu.Unlock()
		handle(w, r, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.reqs...)
}

// fastRetries makes retry waits instant and records them.
func fastRetries(c *Client) *[]time.Duration {
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return waits
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}
