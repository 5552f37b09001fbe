package sandbox_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// publicCall sends an unauthenticated request, as the payer of a payment
// session does, and returns the status and the error code (if any).
func publicCall(t *testing.T, e *env, method, path, body string) (int, string, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.run.BaseURL+path, rd)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	code := ""
	if e, ok := m["error"].(map[string]any); ok {
		code, _ = e["code"].(string)
	}
	return resp.StatusCode, code, m
}

// The path around the rules: a multi-signature requester opened a
// payment session and, through the public create-ticket, paid BRL out by
// PIX with no approval, five times on one session. A session ticket only
// brings money in to its owner: every payout shape is 400, one ticket per
// session, and an expired session takes none.
func TestPaymentSessionOnlyBringsMoneyIn(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 52})
	req := e.as("requester")
	sid := must[string](t)(req.CreatePaymentSession(ctx(t), uuid.Nil, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{pixInto("BRLA"), {InputCurrency: "BRLA", InputPaymentMethod: "POLYGON", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}}, OutputCurrency: "BRLA", ExpirationInMinutes: 10}))
	base := "/v2/payment-session/" + sid
	quote := func(method string) string {
		cur := map[string]string{"PIX": "BRL", "POLYGON": "BRLA"}[method]
		v := url.Values{"inputCurrency": {cur}, "inputPaymentMethod": {method}, "inputAmount": {"9.49"}}
		if method != "PIX" {
			v.Set("blockchainSendMethod", "TRANSFER")
		}
		st, code, q := publicCall(t, e, http.MethodGet, base+"/fixed-quote?"+v.Encode(), "")
		if st != 200 {
			t.Fatalf("session quote %s: %d %s %v", method, st, code, q)
		}
		tok, _ := q["quoteToken"].(string)
		return tok
	}
	tok, second := quote("PIX"), quote("POLYGON")
	// The requester's own payout quote, offered to the session.
	payout := must[*api.Quote](t)(req.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("9.49")}))
	for name, body := range map[string]string{
		"payout quote":                `{"quoteToken":"` + payout.QuoteToken + `"}`,
		"payout quote with PIX block": `{"quoteToken":"` + payout.QuoteToken + `","ticketBrlPixOutput":{"pixKey":"maria@example.com"}}`,
		"PIX block":                   `{"quoteToken":"` + tok + `","ticketBrlPixOutput":{"pixKey":"maria@example.com"}}`,
		"bank fields":                 `{"quoteToken":"` + tok + `","ticketBrlPixOutput":{"taxId":"52998224725","userName":"M","bankCode":"001","branchCode":"1","accountNumber":"1","accountType":"CHECKING"}}`,
		"USD block":                   `{"quoteToken":"` + tok + `","ticketUsdOutput":{"beneficiaryUsdBankAccountId":"` + uuid.NewString() + `"}}`,
		"outside wallet":              `{"quoteToken":"` + tok + `","ticketBlockchainOutput":{"walletChain":"POLYGON","walletAddress":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"}}`,
		"a registered wallet":         `{"quoteToken":"` + tok + `","ticketBlockchainOutput":{"beneficiaryWalletId":"` + uuid.NewString() + `"}}`,
	} {
		if st, code, _ := publicCall(t, e, http.MethodPost, base+"/create-ticket", body); st != 400 {
			t.Errorf("%s: %d %s, want 400", name, st, code)
		}
	}
	before := must[api.Balances](t)(req.Balances(ctx(t), uuid.Nil))
	st, code, created := publicCall(t, e, http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+tok+`"}`)
	if st != 200 {
		t.Fatalf("the pay-in ticket: %d %s", st, code)
	}
	tk, _ := created["ticket"].(map[string]any)
	if q, _ := tk["quote"].(map[string]any); q["outputPaymentMethod"] != "INTERNAL" || q["inputPaymentMethod"] != "PIX" {
		t.Errorf("session ticket quote = %v", tk["quote"])
	}
	// One ticket per session, whatever the payer sends next.
	for range 5 {
		if st, code, _ := publicCall(t, e, http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+second+`"}`); st != 409 || code != "SESSION_USED" {
			t.Fatalf("another ticket on the session: %d %s", st, code)
		}
	}
	if after := must[api.Balances](t)(req.Balances(ctx(t), uuid.Nil)); !after["BRLA"].Equal(before["BRLA"]) {
		t.Errorf("the owner's BRLA moved from %s to %s: something paid out", before["BRLA"], after["BRLA"])
	}

	// A quote taken while the session was open does not outlive it.
	sid2 := must[string](t)(req.CreatePaymentSession(ctx(t), uuid.Nil, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{pixInto("BRLA")}, OutputCurrency: "BRLA", ExpirationInMinutes: 1}))
	base = "/v2/payment-session/" + sid2
	tok = quote("PIX")
	e.clock.Add(61 * time.Second)
	if st, code, _ := publicCall(t, e, http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+tok+`"}`); st != 409 || code != "SESSION_EXPIRED" {
		t.Errorf("ticket on an expired session: %d %s", st, code)
	}
	if st, _, got := publicCall(t, e, http.MethodGet, base, ""); st != 200 || got["paymentSession"].(map[string]any)["status"] != "EXPIRED" {
		t.Errorf("expired session reads %d %v", st, got)
	}
}

// The guess: wrong e-mail tokens, then the right one. From the
// fifth failure on, even the right token is 429 with Retry-After.
func TestRightEmailTokenAfterFiveWrongIsLocked(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 53})
	cred := e.cred("operator")
	post := func(path, body string) (int, string, http.Header) {
		resp, err := http.Post(e.run.BaseURL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		var m struct{ Error struct{ Code string } }
		_ = json.Unmarshal(out, &m)
		return resp.StatusCode, m.Error.Code, resp.Header
	}
	if st, code, _ := post("/v2/auth/login", `{"email":"`+cred.Email+`","password":"`+cred.Password+`"}`); st != 200 {
		t.Fatalf("login: %d %s", st, code)
	}
	validate := func(token string) (int, string, http.Header) {
		return post("/v2/auth/validate-login", `{"email":"`+cred.Email+`","emailToken":"`+token+`"}`)
	}
	for i := range 5 {
		if st, code, _ := validate("000000"); st != 401 {
			t.Fatalf("wrong token %d: %d %s", i+1, st, code)
		}
	}
	for range 3 {
		st, code, h := validate(cred.EmailToken)
		if st != 429 || code != "LOGIN_LOCKED" || h.Get("Retry-After") == "" {
			t.Fatalf("the right token after five wrong: %d %s Retry-After %q", st, code, h.Get("Retry-After"))
		}
	}
	e.clock.Add(15*time.Minute + time.Second)
	if st, code, _ := post("/v2/auth/login", `{"email":"`+cred.Email+`","password":"`+cred.Password+`"}`); st != 200 {
		t.Fatalf("login after the window: %d %s", st, code)
	}
	if st, code, _ := validate(cred.EmailToken); st != 200 {
		t.Errorf("the right token after the window: %d %s", st, code)
	}
}
