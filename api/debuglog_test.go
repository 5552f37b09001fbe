package api

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestRedactURLHidesSecretLookingValuesAndSessionIDs(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/v2/account/tickets?externalId=e1&status=PAID": "http://h/v2/account/tickets?externalId=e1&status=PAID",
		"http://h/v2/x?token=abc&refreshToken=r&apiKey=k":       "http://h/v2/x?apiKey=REDACTED&refreshToken=REDACTED&token=REDACTED",
		"http://h/v2/payment-session/ps_secret_1/create-ticket": "http://h/v2/payment-session/REDACTED/create-ticket",
		"http://h/v2/account/balances":                          "http://h/v2/account/balances",
		"/v2/x?note=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln":  "/v2/x?note=REDACTED",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// traceTo is a logger writing the trace to b as slog's text handler does.
// The client traces from the goroutine that calls it.
func traceTo(b *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Every kind of secret the client sends or receives is planted in an
// exchange, and the trace is searched for each: the trace must still show
// the method, the full URL, the status, the latency, the headers and the
// bodies, with those values replaced.
func TestTraceShowsExchangesWithEverySecretRedacted(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	privPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	const (
		apiKey       = "ak_live_planted_0001"
		password     = "planted-password-0002"
		emailToken   = "914273"
		refreshToken = "rt_planted_0004"
		accessToken  = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlMDAwNQ"
		newRefresh   = "rt_planted_rotated_0006"
		otp          = "771204"
		cookie       = "sid=planted-cookie-0008"
		queryToken   = "qt_planted_0009"
		session      = "ps_planted_0010"
		pemInNote    = "note"
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-42")
		w.Header().Set("Set-Cookie", cookie)
		switch r.URL.Path {
		case "/v2/auth/validate-login", "/v2/auth/refresh":
			w.Write([]byte(`{"accessToken":"` + accessToken + `","refreshToken":"` + newRefresh + `"}`))
		case "/v2/account/balances":
			w.Write([]byte(`{"balances":{"BRL":"10.00"},"privateKey":` + jsonString(privPEM) + `,"passwordUpdatedAt":"2026-01-02T03:04:05Z","pixKeyType":"CPF"}`))
		case "/v2/html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`<p>upstream said password=` + password + ` and Authorization: Bearer ` + accessToken + `</p>`))
		default:
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte(`{"id":"created-1","otp":"` + otp + `"}`))
		}
	}))
	defer srv.Close()

	var trace bytes.Buffer
	ctx := context.Background()
	signed, err := NewAPIKeyAuth(apiKey, []byte(privPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(srv.URL, signed, WithTrace(traceTo(&trace)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Balances(ctx, [16]byte{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Login(ctx, "me@example.com", password); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ValidateLogin(ctx, "me@example.com", emailToken); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RefreshTokens(ctx, refreshToken); err != nil {
		t.Fatal(err)
	}
	body := `{"otp":"` + otp + `","apiKey":"` + apiKey + `","nested":{"password":"` + password + `","key":` + jsonString(privPEM) + `},"amount":"12.50"}`
	if _, err := c.Raw(ctx, "POST", "/v2/raw", url.Values{"refreshToken": {queryToken}, "status": {"PAID"}}, []byte(body)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Raw(ctx, "GET", "/v2/payment-session/"+session+"/info", nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Raw(ctx, "GET", "/v2/html", nil, nil); err != nil {
		t.Fatal(err)
	}
	bearer, err := New(srv.URL, NewBearerAuth(Tokens{AccessToken: accessToken, RefreshToken: refreshToken}, nil), WithTrace(traceTo(&trace)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bearer.Raw(ctx, "GET", "/v2/account/balances", nil, nil); err != nil {
		t.Fatal(err)
	}

	out := trace.String()
	for _, want := range []string{
		"msg=http", "method=GET", "url=" + srv.URL + "/v2/account/balances", "status=200", "latency=", "request_id=req-42",
		"method=POST", `url="` + srv.URL + `/v2/raw?refreshToken=REDACTED&status=PAID"`, "status=201",
		"request.header.X-Api-Key=REDACTED", "request.header.X-Api-Signature=REDACTED", "request.header.X-Api-Timestamp=",
		"request.header.Authorization=REDACTED", "request.header.Content-Type=application/json",
		"response.header.Set-Cookie=REDACTED", "response.header.Content-Type=application/json",
		`\"amount\":\"12.50\"`, `\"balances\":{\"BRL\":\"10.00\"}`, `\"email\":\"me@example.com\"`,
		`\"password\":\"REDACTED\"`, `\"emailToken\":\"REDACTED\"`, `\"refreshToken\":\"REDACTED\"`, `\"accessToken\":\"REDACTED\"`,
		`\"otp\":\"REDACTED\"`, `\"apiKey\":\"REDACTED\"`, `\"privateKey\":\"REDACTED\"`, `\"id\":\"created-1\"`,
		`\"passwordUpdatedAt\":\"2026-01-02T03:04:05Z\"`, `\"pixKeyType\":\"CPF\"`,
		"/v2/payment-session/REDACTED/info", "status=400", "upstream said password=REDACTED",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the trace lacks %s:\n%s", want, out)
		}
	}
	for what, secret := range map[string]string{
		"API key": apiKey, "password": password, "e-mailed token": emailToken, "refresh token": refreshToken,
		"access token": accessToken, "rotated refresh token": newRefresh, "one-time code": otp, "cookie": "planted-cookie",
		"secret query value": queryToken, "payment session": session, "private key": "PRIVATE KEY",
		"private key body": strings.Split(privPEM, "\n")[1][:20],
	} {
		if strings.Contains(out, secret) {
			t.Errorf("the trace holds the %s", what)
		}
	}
	if sig := regexp.MustCompile(`X-Api-Signature=[^R ]`).FindString(out); sig != "" {
		t.Errorf("a signature was traced: %s", sig)
	}
}

func TestRedactBodyShowsBinaryAsItsSizeAndCutsLongBodies(t *testing.T) {
	if got := RedactBody("application/pdf", []byte("%PDF-1.7\x00\x01")); got != "(10 bytes of application/pdf)" {
		t.Errorf("a PDF: %q", got)
	}
	long := `{"items":"` + strings.Repeat("a", 2*maxTraceBody) + `"}`
	got := RedactBody("application/json", []byte(long))
	if len(got) > maxTraceBody+64 || !strings.Contains(got, "bytes more)") {
		t.Errorf("a long body is shown in %d bytes, ending %q", len(got), got[len(got)-40:])
	}
}

func jsonString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
