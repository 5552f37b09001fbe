package sandbox

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// TestBadInputNeverFails500 sends malformed bodies, ids and queries to every
// route as an authenticated access: each answer is a 4xx with the §4 body
// (or a success), never a 5xx.
func TestBadInputNeverFails500(t *testing.T) {
	t.Parallel() // thousands of requests; runs beside the other long tests
	r := startTest(t, Config{Seed: 21})
	c := r.client(t, "operator")
	bodies := []string{"", "null", "{", `{"a":`, "[]", `"x"`, "{}", `{"quoteToken":{}}`, `{"ids":"x"}`, `{"reason":7}`, `{"alias":["x"]}`,
		`{"walletAddress":"0x0000000000000000000000000000000000000000","alias":"z","walletChain":"POLYGON"}`, strings.Repeat("{", 5000),
		`{"quoteToken":"a.b","ticketBlockchainOutput":{"beneficiaryWalletId":"nil"}}`, `{"customDuration":-1,"quoteToken":"x"}`, "\xff\xfe"}
	queries := []string{"", "?subAccountId=x", "?cursor=zz", "?createdAfter=-1", "?createdBefore=9999999999999999999", "?inputAmount=NaN&inputCurrency=BRL",
		"?status=%00", "?unackedOnly=maybe", "?subAccountId=" + uuid.NewString(), "?%zz"}
	ids := []string{"x", uuid.NewString(), "00000000-0000-0000-0000-000000000000", strings.Repeat("9", 300)}
	for _, rt := range r.Server.api.Routes() {
		for _, id := range ids {
			pattern := strings.Split(strings.TrimPrefix(rt.Pattern, "/"), "/")
			segs := make([]string, len(pattern))
			for i, s := range pattern {
				if strings.HasPrefix(s, "{") {
					s = id
				}
				segs[i] = s
			}
			path := "/" + strings.Join(segs, "/")
			type try struct{ q, b string }
			var tries []try
			for _, q := range queries {
				tries = append(tries, try{q, "{}"})
			}
			for _, b := range bodies {
				tries = append(tries, try{"", b})
			}
			for _, tr := range tries {
				q, b := tr.q, tr.b
				{
					var body any
					if b != "" {
						body = b
					}
					code, out := c.do(rt.Method, path+q, body)
					if code >= 500 {
						t.Fatalf("%s %s%s with %q: %d %s", rt.Method, path, q, truncate(b, 40), code, out)
					}
					if code >= 400 {
						var e errorBody
						if err := json.Unmarshal(out, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
							t.Fatalf("%s %s%s: %d without the §4 body: %s", rt.Method, path, q, code, out)
						}
					}
				}
			}
		}
	}
}

func TestSpeedScalesTheLifecycle(t *testing.T) {
	clk := time.Now().UTC()
	now := func() time.Time { return clk }
	s, err := New(Config{Seed: 22, Speed: 10, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.eng.Scaled(engine.PIXFundDelay); got != 300*time.Millisecond {
		t.Errorf("3 s at speed 10 is %v, want 300ms", got)
	}
	if _, err := New(Config{Speed: -1}); err == nil {
		t.Error("a negative speed was accepted")
	}
	if _, err := New(Config{Faults: "explode=1"}); err == nil {
		t.Error("an unknown fault was accepted")
	}
	if _, err := New(Config{Faults: "error500=2"}); err == nil {
		t.Error("a probability of 2 was accepted")
	}
}

func TestStartTLS(t *testing.T) {
	certPath := filepath.Join(t.TempDir(), "cert.pem")
	r, err := StartTLS(Config{Seed: 23}, "127.0.0.1:0", certPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !strings.HasPrefix(r.BaseURL, "https://") {
		t.Fatalf("base URL %s", r.BaseURL)
	}
	pemBytes, err := os.ReadFile(certPath)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatal("certificate file holds no certificate")
	}
	c := r.client(t, "operator")
	c.hc = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	var info struct{ Email string }
	c.json("GET", "/v2/account/access-info", nil, 200, &info)
	if info.Email == "" {
		t.Error("no access info over TLS")
	}
}

func TestFaultsDropAndRateLimit(t *testing.T) {
	r := startTest(t, Config{Seed: 24, Faults: "drop=1"})
	req, _ := http.NewRequest("GET", r.BaseURL+"/v2/public-key", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("drop=1 answered %d", resp.StatusCode)
	}
	r2 := startTest(t, Config{Seed: 24, Faults: "ratelimit=1,latency=20ms"})
	start := time.Now()
	resp, err := http.Get(r2.BaseURL + "/v2/public-key")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("ratelimit=1: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if time.Since(start) < 20*time.Millisecond {
		t.Error("latency fault not applied")
	}
}
