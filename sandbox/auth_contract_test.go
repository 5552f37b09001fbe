package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

func TestAPIKeyAuthentication(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	// Every key type, through the api client's signer.
	for _, n := range []string{"operator", "requester", "approver1", "restricted"} {
		info := must[*api.AccessInfo](t)(e.as(n).AccessInfo(ctx(t)))
		if info.Email != e.cred(n).Email {
			t.Errorf("%s: access-info of %s", n, info.Email)
		}
	}
	r := e.rawAs(t, "operator")
	got, out := r.send(t, "GET", "/v2/account/balances", "", time.Time{}, nil)
	if got != 200 {
		t.Fatalf("signed request: %d %s", got, out)
	}
	// Both path forms are served, each signed as sent.
	for _, p := range []string{"/v2/account/tickets", "/v2/account/tickets/", "/v2/notifications/webhooks", "/v2/notifications/webhooks/"} {
		if got, out := r.send(t, "GET", p, "", time.Time{}, nil); got != 200 {
			t.Errorf("GET %s: %d %s", p, got, out)
		}
	}
	// Skew: 31 s either way is refused, 29 s accepted.
	now := e.clock.Now()
	for _, d := range []time.Duration{31 * time.Second, -31 * time.Second} {
		got, out := r.send(t, "GET", "/v2/account/balances", "", now.Add(d), nil)
		checkError(t, got, out, 401, "TIMESTAMP_SKEW")
	}
	if got, _ := r.send(t, "GET", "/v2/account/balances", "", now.Add(-29*time.Second), nil); got != 200 {
		t.Errorf("29 s of skew refused: %d", got)
	}
	// The signature covers the query and the body byte for byte.
	got, out = r.send(t, "GET", "/v2/account/balances?subAccountId="+e.subs[0].String(), "", time.Time{}, func(req *http.Request) {
		req.URL.RawQuery = "subAccountId=" + e.subs[1].String()
	})
	checkError(t, got, out, 401, "BAD_SIGNATURE")
	got, out = r.send(t, "POST", "/v2/account/beneficiaries/wallets/", `{"alias":"a","walletAddress":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","walletChain":"BASE"}`, time.Time{}, func(req *http.Request) {
		req.Body = http.NoBody
		req.ContentLength = 0
	})
	checkError(t, got, out, 401, "BAD_SIGNATURE")
	got, out = r.send(t, "GET", "/v2/account/balances", "", time.Time{}, func(req *http.Request) { req.Header.Set("X-API-Key", "sbx_nobody") })
	checkError(t, got, out, 401, "UNAUTHENTICATED")
	got, out = r.send(t, "GET", "/v2/account/balances", "", time.Time{}, func(req *http.Request) { req.Header.Del("X-API-Signature") })
	checkError(t, got, out, 401, "UNAUTHENTICATED")
	// Another access's key with this access's signature.
	got, out = r.send(t, "GET", "/v2/account/balances", "", time.Time{}, func(req *http.Request) { req.Header.Set("X-API-Key", e.cred("approver2").APIKey) })
	checkError(t, got, out, 401, "BAD_SIGNATURE")
	got, out = r.send(t, "GET", "/v2/account/balances", "", time.Time{}, func(req *http.Request) {
		for _, h := range []string{"X-API-Key", "X-API-Timestamp", "X-API-Signature"} {
			req.Header.Del(h)
		}
	})
	checkError(t, got, out, 401, "UNAUTHENTICATED")
}

func TestJWTLoginFlow(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	cred := e.cred("approver2")
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	wantCode(t, anon.Login(ctx(t), cred.Email, "wrong"), http.StatusUnauthorized, "UNAUTHENTICATED")
	_, err := anon.ValidateLogin(ctx(t), cred.Email, cred.EmailToken)
	wantCode(t, err, http.StatusBadRequest, "LOGIN_REQUIRED")
	if err := anon.Login(ctx(t), cred.Email, cred.Password); err != nil {
		t.Fatal(err)
	}
	_, err = anon.ValidateLogin(ctx(t), cred.Email, "000000")
	if cred.EmailToken != "000000" {
		wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	tok := must[*api.Tokens](t)(anon.ValidateLogin(ctx(t), cred.Email, cred.EmailToken))
	bearer := must[*api.Client](t)(api.New(e.run.BaseURL, api.NewBearerAuth(*tok, nil)))
	info := must[*api.AccessInfo](t)(bearer.AccessInfo(ctx(t)))
	if info.Email != cred.Email || !info.AccountPermissions.OperationApprover {
		t.Errorf("bearer access-info %+v", info)
	}
	// Refresh rotates: the new pair works, the old refresh token is spent.
	next := must[*api.Tokens](t)(anon.RefreshTokens(ctx(t), tok.RefreshToken))
	if next.AccessToken == tok.AccessToken || next.RefreshToken == tok.RefreshToken {
		t.Error("refresh returned the same tokens")
	}
	_, err = anon.RefreshTokens(ctx(t), tok.RefreshToken)
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
	_, err = anon.RefreshTokens(ctx(t), next.AccessToken)
	wantCode(t, err, http.StatusUnauthorized, "UNAUTHENTICATED")
	// Access tokens live 15 minutes on the sandbox clock.
	e.clock.Add(16 * time.Minute)
	raw := &http.Client{}
	req, _ := http.NewRequest("GET", e.run.BaseURL+"/v2/account/access-info", nil)
	req.Header.Set("Authorization", "Bearer "+next.AccessToken)
	resp, err := raw.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, 512)
	n, _ := resp.Body.Read(body)
	resp.Body.Close()
	checkError(t, resp.StatusCode, body[:n], 401, "TOKEN_EXPIRED")
	// A forged token (signature changed) is refused.
	parts := strings.Split(next.AccessToken, ".")
	forged := parts[0] + "." + parts[1] + ".AAAA" + parts[2][4:]
	req.Header.Set("Authorization", "Bearer "+forged)
	resp, _ = raw.Do(req)
	n, _ = resp.Body.Read(body)
	resp.Body.Close()
	checkError(t, resp.StatusCode, body[:n], 401, "UNAUTHENTICATED")
	// The refresh token still works within its 7 days.
	must[*api.Tokens](t)(anon.RefreshTokens(ctx(t), next.RefreshToken))
}

func TestWireRefusals(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	r := e.rawAs(t, "operator")
	r.wantError(t, "POST", "/v2/account/tickets/", `{"quoteToken":`, 400, "INVALID_JSON")
	r.wantError(t, "POST", "/v2/account/tickets/", `[1,2]`, 400, "INVALID_JSON")
	msg := r.wantError(t, "POST", "/v2/account/tickets/", `{"quoteToken":42}`, 400, "INVALID_FIELD")
	if !strings.Contains(msg, "quoteToken") {
		t.Errorf("type error %q does not name the field", msg)
	}
	r.wantError(t, "POST", "/v2/account/tickets/", `{}`, 400, "MISSING_FIELD")
	r.wantError(t, "GET", "/v2/account/tickets/not-a-uuid", "", 400, "INVALID_FIELD")
	r.wantError(t, "GET", "/v2/account/tickets/"+uuid.NewString(), "", 404, "NOT_FOUND")
	r.wantError(t, "GET", "/v2/account/tickets/?status=LOST", "", 400, "INVALID_FIELD")
	r.wantError(t, "GET", "/v2/account/tickets/?createdAfter=yesterday", "", 400, "INVALID_FIELD")
	r.wantError(t, "GET", "/v2/account/tickets/?cursor=%21%21", "", 400, "INVALID_CURSOR")
	r.wantError(t, "GET", "/v2/account/balances?subAccountId=nope", "", 400, "INVALID_FIELD")
	r.wantError(t, "GET", "/v2/nowhere", "", 404, "NOT_FOUND")
	r.wantError(t, "DELETE", "/v2/account/tickets/", "", 405, "METHOD_NOT_ALLOWED")
	r.wantError(t, "GET", "/v2/auth/accesses?createdAfter=abc", "", 400, "INVALID_FIELD")
	r.wantError(t, "GET", "/v2/account/quote/fixed-rate?inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=1&outputAmount=1", "", 400, "INVALID_FIELD")
	r.wantError(t, "GET", "/v2/account/quote/fixed-rate?inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL", "", 400, "MISSING_FIELD")
	r.wantError(t, "GET", "/v2/account/quote/fixed-rate?inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=1,5", "", 400, "INVALID_AMOUNT")
	r.wantError(t, "GET", "/v2/account/quote/fixed-rate?inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=1e3", "", 400, "INVALID_AMOUNT")
	r.wantError(t, "GET", "/v2/account/quote/fixed-rate?inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=-5", "", 400, "INVALID_AMOUNT")
	big := `{"quoteToken":"` + strings.Repeat("a", 1<<20) + `"}`
	r.wantError(t, "POST", "/v2/account/tickets/", big, 413, "PAYLOAD_TOO_LARGE")
	r.wantError(t, "POST", "/v2/account/multi-sig-operations/"+uuid.NewString()+"/reject", `{}`, 400, "MISSING_FIELD")
	r.wantError(t, "PATCH", "/v2/notifications/webhooks/attempts", `{"ids":["x"]}`, 400, "INVALID_FIELD")
	r.wantError(t, "PATCH", "/v2/notifications/webhooks/attempts", `{"ids":["`+uuid.NewString()+`"]}`, 404, "NOT_FOUND")
	r.wantError(t, "POST", "/v2/notifications/webhooks/", `{"webhookUrl":"http://example.com/x","subscriptions":["TICKET"]}`, 400, "INVALID_FIELD")
	r.wantError(t, "POST", "/v2/notifications/webhooks/", `{"webhookUrl":"https://example.com/x","subscriptions":["TICKETS"]}`, 400, "INVALID_FIELD")
	r.wantError(t, "POST", "/v2/account/sub-accounts", `{"name":"X","accountType":"PERSON"}`, 400, "INVALID_FIELD")
	// Extra fields pass through (the seed says so).
	if got, out := r.send(t, "POST", "/v2/account/beneficiaries/wallets/", `{"alias":"extra","walletAddress":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","walletChain":"BASE","futureField":{"a":1}}`, time.Time{}, nil); got != 200 {
		t.Errorf("extra field refused: %d %s", got, out)
	}
}

func TestAccountsAndSubAccounts(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	op := e.as("operator")
	accts := must[[]api.Account](t)(op.ListAccounts(ctx(t)))
	if len(accts) != 4 || accts[0].ID.String() != e.run.Creds.MainAccountID || accts[0].MainAccountID != "" || accts[1].MainAccountID != e.run.Creds.MainAccountID {
		t.Fatalf("accounts %+v", accts)
	}
	id := must[uuid.UUID](t)(op.CreateSubAccount(ctx(t), api.CreateSubAccountRequest{AccountType: "INDIVIDUAL", Name: "Filial Norte"}))
	page := must[api.Page[api.SubAccount]](t)(op.ListSubAccounts(ctx(t), api.SubAccountFilter{Name: "norte"}))
	if len(page.Items) != 1 || page.Items[0].SubAccountID != id || page.Items[0].AccountInfo.Name != "Filial Norte" {
		t.Errorf("sub-account by name: %+v", page.Items)
	}
	all := must[api.Page[api.SubAccount]](t)(op.ListSubAccounts(ctx(t), api.SubAccountFilter{}))
	if len(all.Items) != 4 {
		t.Errorf("%d sub-accounts, want 4", len(all.Items))
	}
	// It holds nothing: every token is listed at zero (service.md §8.2).
	for cur, amt := range must[api.Balances](t)(op.Balances(ctx(t), id)) {
		if !amt.IsZero() {
			t.Errorf("a new sub-account holds %s %s", amt, cur)
		}
	}
	_, err := e.as("viewer").CreateSubAccount(ctx(t), api.CreateSubAccountRequest{AccountType: "COMPANY", Name: "Nope"})
	wantCode(t, err, http.StatusForbidden, "FORBIDDEN")
	accesses := must[[]api.Access](t)(op.ListAccesses(ctx(t), api.AccessFilter{}))
	if len(accesses) != len(e.run.Creds.Accesses) {
		t.Errorf("%d accesses, want %d", len(accesses), len(e.run.Creds.Accesses))
	}
	recent := must[[]api.Access](t)(op.ListAccesses(ctx(t), api.AccessFilter{CreatedAfter: e.clock.Now().Add(-135 * 24 * time.Hour)}))
	if len(recent) == 0 || len(recent) >= len(accesses) {
		t.Errorf("createdAfter kept %d of %d accesses", len(recent), len(accesses))
	}
}

func TestPaymentSessionTicket(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	r := e.rawAs(t, "operator")
	got, out := r.send(t, "POST", "/v2/account/payment-session", `{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA"}`, time.Time{}, nil)
	if got != 200 {
		t.Fatalf("payment session: %d %s", got, out)
	}
	sid := strings.Split(strings.Split(string(out), `"id":"`)[1], `"`)[0]
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("99.90")))
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	tk := must[*api.Ticket](t)(anon.CreatePaymentSessionTicket(ctx(t), sid, api.CreateTicketRequest{QuoteToken: q.QuoteToken}))
	if tk.BrCode() == "" || tk.Status != api.TicketUnpaid {
		t.Errorf("payment-session ticket %+v", tk)
	}
	_, err := anon.CreatePaymentSessionTicket(ctx(t), uuid.NewString(), api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
}
