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
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// A payment session for real (§7.4): opened with its settings validated,
// read and quoted by the payer without credentials, one ticket that only
// brings money in to the owner.
func TestPaymentSessionLifecycle(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 51})
	r := e.rawAs(t, "operator")
	for body, code := range map[string]string{
		`{}`: "MISSING_FIELD",
		`{"paymentOptions":[{"inputCurrency":"USD","inputPaymentMethod":"ACH","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA"}`:                                         "INVALID_FIELD",
		`{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRL","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRL"}`:                                           "INVALID_FIELD",
		`{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA","onCompleteRedirectionUrl":"http://x.y"}`: "INVALID_FIELD",
		`{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA","expirationInMinutes":-5}`:                "INVALID_FIELD",
		`{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA","metadata":[1]}`:                          "INVALID_FIELD",
	} {
		r.wantError(t, http.MethodPost, "/v2/account/payment-session", body, http.StatusBadRequest, code)
	}
	st, out := r.send(t, http.MethodPost, "/v2/account/payment-session?subAccountId="+e.subs[0].String(),
		`{"externalId":"order-77","metadata":{"cart":"7"},"onCompleteRedirectionUrl":"https://shop.example/done","paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"USDC","outputPaymentMethod":"INTERNAL"},{"inputCurrency":"USDC","inputPaymentMethod":"POLYGON","outputCurrency":"USDC","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"USDC","expirationInMinutes":30}`, time.Time{}, nil)
	if st != 200 {
		t.Fatalf("open: %d %s", st, out)
	}
	var opened struct{ ID string }
	_ = json.Unmarshal(out, &opened)

	public := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, e.run.BaseURL+path, nil)
		if body != "" {
			req, _ = http.NewRequest(method, e.run.BaseURL+path, strings.NewReader(body))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		return resp.StatusCode, m
	}
	base := "/v2/payment-session/" + opened.ID
	st, got := public(http.MethodGet, base, "")
	ps, _ := got["paymentSession"].(map[string]any)
	if st != 200 || ps["status"] != "OPEN" || ps["outputCurrency"] != "USDC" || ps["externalId"] != "order-77" || ps["subAccountId"] != e.subs[0].String() {
		t.Fatalf("session read: %d %v", st, got)
	}
	quote := func(method string) (int, map[string]any) {
		return public(http.MethodGet, base+"/fixed-quote?"+url.Values{"inputCurrency": {"BRL"}, "inputPaymentMethod": {method}, "inputAmount": {"250.00"}}.Encode(), "")
	}
	if st, got := quote("CELO"); st != 400 {
		t.Errorf("a quote outside the session's options: %d %v", st, got)
	}
	st, q := quote("PIX")
	if st != 200 || q["outputCurrency"] != "USDC" || q["outputPaymentMethod"] != "INTERNAL" {
		t.Fatalf("session quote: %d %v", st, q)
	}
	token, _ := q["quoteToken"].(string)
	// A payout block, or a quote of the owner's own, is refused.
	if st, got := public(http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+token+`","ticketBrlPixOutput":{"pixKey":"a@b.co"}}`); st != 400 {
		t.Errorf("payout block: %d %v", st, got)
	}
	own := must[*api.Quote](t)(e.as("operator").Quote(ctx(t), api.QuoteRequest{SubAccountID: e.subs[0], InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("5")}))
	if st, got := public(http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+own.QuoteToken+`"}`); st != 400 {
		t.Errorf("a payout quote: %d %v", st, got)
	}
	if st, got := public(http.MethodGet, base+"/get-ticket", ""); st != 404 {
		t.Errorf("ticket before creation: %d %v", st, got)
	}
	st, created := public(http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+token+`"}`)
	if st != 200 || created["id"] == nil || created["brCode"] == nil {
		t.Fatalf("session ticket: %d %v", st, created)
	}
	tk, _ := created["ticket"].(map[string]any)
	if tk["status"] != "UNPAID" || tk["externalId"] != "order-77" {
		t.Errorf("session ticket = %v", tk)
	}
	if st, got := public(http.MethodPost, base+"/create-ticket", `{"quoteToken":"`+token+`"}`); st != 409 {
		t.Errorf("a second ticket: %d %v", st, got)
	}
	st, read := public(http.MethodGet, base+"/get-ticket", "")
	if rt, _ := read["ticket"].(map[string]any); st != 200 || rt["id"] != created["id"] {
		t.Errorf("get-ticket: %d %v", st, read)
	}
	// The owner lists it, now with its ticket.
	st, out = r.send(t, http.MethodGet, "/v2/account/payment-session?subAccountId="+e.subs[0].String(), "", time.Time{}, nil)
	var list struct{ PaymentSessions []map[string]any }
	_ = json.Unmarshal(out, &list)
	if st != 200 || len(list.PaymentSessions) != 1 || list.PaymentSessions[0]["status"] != "TICKET-CREATED" {
		t.Errorf("owner's list: %d %s", st, out)
	}
	// Expired sessions take no quote.
	st, out = r.send(t, http.MethodPost, "/v2/account/payment-session", `{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA","expirationInMinutes":1}`, time.Time{}, nil)
	if st != 200 {
		t.Fatalf("open: %d %s", st, out)
	}
	_ = json.Unmarshal(out, &opened)
	e.clock.Add(2 * time.Minute)
	base = "/v2/payment-session/" + opened.ID
	if st, got := quote("PIX"); st != 409 {
		t.Errorf("quote on an expired session: %d %v", st, got)
	}
	if st, _ := public(http.MethodGet, "/v2/payment-session/"+uuid.NewString(), ""); st != 404 {
		t.Errorf("unknown session: %d", st)
	}
}

// The typed client drives a session end to end: the owner opens it, the
// payer (no credentials) quotes, creates and reads its ticket.
func TestPaymentSessionThroughTheClient(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 51})
	op := e.as("operator")
	sid := must[string](t)(op.CreatePaymentSession(ctx(t), uuid.Nil, api.CreatePaymentSessionRequest{ExternalID: "cart-9", PaymentOptions: []api.PaymentOption{pixInto("BRLA")}, OutputCurrency: "BRLA"}))
	payer := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	ps := must[*api.PaymentSession](t)(payer.GetPaymentSession(ctx(t), sid))
	if ps.Status != "OPEN" || ps.ExpirationInMinutes != 60 {
		t.Fatalf("session = %+v", ps)
	}
	q := must[*api.Quote](t)(payer.PaymentSessionQuote(ctx(t), sid, "BRL", "PIX", decimal.RequireFromString("80")))
	tk := must[*api.Ticket](t)(payer.CreatePaymentSessionTicket(ctx(t), sid, api.CreateTicketRequest{QuoteToken: q.QuoteToken}))
	if got := must[*api.Ticket](t)(payer.GetPaymentSessionTicket(ctx(t), sid)); got.ID != tk.ID || got.Quote.OutputCurrency != "BRLA" {
		t.Errorf("session ticket %+v, created %s", got, tk.ID)
	}
	if ps := must[*api.PaymentSession](t)(payer.GetPaymentSession(ctx(t), sid)); ps.Status != "TICKET-CREATED" || ps.TicketID != tk.ID.String() {
		t.Errorf("after the ticket: %+v", ps)
	}
}
