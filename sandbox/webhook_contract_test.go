package sandbox_test

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

type received struct {
	body []byte
	sig  string
}

func TestWebhookDeliveriesAreSignedAndRecorded(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 8})
	op := e.as("operator")
	var mu sync.Mutex
	var got []received
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{b, r.Header.Get("signature")})
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer hook.Close()
	// Webhooks are the main account's (no subAccountId, as in the live
	// catalogue) and hear its sub-accounts: a ticket of a sub-account
	// without webhooks of its own is delivered to them.
	sub := e.subs[1] // a demo account without webhooks
	e.clock.Add(5 * time.Second)
	must[api.Balances](t)(op.Balances(ctx(t), sub)) // the demo's live tickets settle first
	must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	demo := len(must[[]api.Webhook](t)(op.ListWebhooks(ctx(t))))
	id := must[string](t)(op.RegisterWebhook(ctx(t), api.RegisterWebhookRequest{WebhookURL: hook.URL + "/hooks", Subscriptions: []string{"TICKET"}}))
	hooks := must[[]api.Webhook](t)(op.ListWebhooks(ctx(t)))
	if len(hooks) != demo+1 || hooks[len(hooks)-1].ID != id {
		t.Fatalf("webhooks %+v", hooks)
	}
	for i := demo + 1; i < 3; i++ {
		must[string](t)(op.RegisterWebhook(ctx(t), api.RegisterWebhookRequest{WebhookURL: "https://hooks.example.com/" + uuid.NewString(), Subscriptions: []string{"KYC"}}))
	}
	_, err := op.RegisterWebhook(ctx(t), api.RegisterWebhookRequest{WebhookURL: "https://hooks.example.com/4", Subscriptions: []string{"*"}})
	wantCode(t, err, http.StatusConflict, "LIMIT_REACHED")
	mine := func(f api.AttemptFilter) []api.WebhookAttempt {
		var out []api.WebhookAttempt
		for _, a := range must[api.Page[api.WebhookAttempt]](t)(op.ListWebhookAttempts(ctx(t), f)).Items {
			if a.WebhookURL == hook.URL+"/hooks" {
				out = append(out, a)
			}
		}
		return out
	}

	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{SubAccountID: sub, InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("42")}))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), sub, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	e.clock.Add(6 * time.Second)
	must[*api.Ticket](t)(op.GetTicket(ctx(t), sub, tk.ID))

	// Three transitions (created, funded, paid): three attempts, each with
	// the receiver's status once delivered.
	var attempts []api.WebhookAttempt
	deadline := time.Now().Add(5 * time.Second)
	for {
		attempts = mine(api.AttemptFilter{})
		done := len(attempts) == 3
		for _, a := range attempts {
			done = done && a.ResponseStatus == http.StatusAccepted
		}
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(attempts) != 3 {
		t.Fatalf("%d attempts, want 3 (one per transition): %+v", len(attempts), attempts)
	}
	for _, a := range attempts {
		if a.ResponseStatus != http.StatusAccepted || a.WebhookURL != hook.URL+"/hooks" || a.Acknowledged {
			t.Errorf("attempt %+v", a)
		}
	}

	// Every delivery verifies with the public key (RSA-PSS, SHA-256).
	pk := must[string](t)(op.PublicKey(ctx(t)))
	blk, _ := pem.Decode([]byte(pk))
	if blk == nil || blk.Type != "RSA PUBLIC KEY" {
		t.Fatalf("public key is not a PKCS#1 RSA PEM: %q", pk)
	}
	pub, err := x509.ParsePKCS1PublicKey(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	deliveries := append([]received(nil), got...)
	mu.Unlock()
	if len(deliveries) != 3 {
		t.Fatalf("%d deliveries, want 3", len(deliveries))
	}
	statuses := map[string]bool{}
	for _, d := range deliveries {
		sig, err := base64.StdEncoding.DecodeString(d.sig)
		h := sha256.Sum256(d.body)
		if err != nil || rsa.VerifyPSS(pub, crypto.SHA256, h[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) != nil {
			t.Errorf("delivery signature does not verify: %q", d.sig)
		}
		// The body is wrapped as the live service sends it (§8.6): one
		// key, event, holding exactly id, subscription, subAccountId,
		// createdAt and data {type, ticket}.
		var raw map[string]map[string]json.RawMessage
		if err := json.Unmarshal(d.body, &raw); err != nil || len(raw) != 1 || raw["event"] == nil {
			t.Fatalf("delivery body is not {event: {…}}: %s", d.body)
		}
		if keys := slices.Sorted(maps.Keys(raw["event"])); !slices.Equal(keys, []string{"createdAt", "data", "id", "subAccountId", "subscription"}) {
			t.Errorf("event keys %v", keys)
		}
		var data map[string]json.RawMessage
		if err := json.Unmarshal(raw["event"]["data"], &data); err != nil || len(data) != 2 || data["type"] == nil || data["ticket"] == nil {
			t.Errorf("event data %s, want {type, ticket}", raw["event"]["data"])
		}
		ev, err := api.ReadDelivery(d.body)
		if err != nil || ev.Subscription != "TICKET" || ev.Subject() != tk.ID.String() || ev.SubAccountID != sub.String() || ev.CreatedAt.IsZero() {
			t.Errorf("delivery body %s: %v", d.body, err)
		}
		statuses[ev.Type()] = true
		// GET events/{id} answers the same event (no subAccountId).
		got := must[*api.WebhookEvent](t)(op.GetWebhookEvent(ctx(t), ev.ID))
		if got.ID != ev.ID || got.Type() != ev.Type() || got.Subject() != tk.ID.String() || got.SubAccountID != sub.String() {
			t.Errorf("event %s reads back as %+v", ev.ID, got)
		}
	}
	for _, s := range []string{"TICKET-CREATED", "DEPOSIT-SUCCESS", "TICKET-COMPLETE"} {
		if !statuses[s] {
			t.Errorf("no %s delivery (got %v)", s, statuses)
		}
	}

	// Acknowledge one; unackedOnly no longer lists it; it reads back acknowledged.
	if err := op.AcknowledgeWebhookAttempts(ctx(t), []string{attempts[0].ID}); err != nil {
		t.Fatal(err)
	}
	if un := mine(api.AttemptFilter{UnackedOnly: true}); len(un) != 2 {
		t.Errorf("%d unacknowledged, want 2", len(un))
	}
	if a := must[*api.WebhookAttempt](t)(op.GetWebhookAttempt(ctx(t), attempts[0].ID)); !a.Acknowledged {
		t.Error("acknowledged attempt reads back unacknowledged")
	}
	byEvent := must[api.Page[api.WebhookAttempt]](t)(op.ListWebhookAttempts(ctx(t), api.AttemptFilter{WebhookEventID: attempts[1].WebhookEventID}))
	for _, a := range byEvent.Items {
		if a.WebhookEventID != attempts[1].WebhookEventID {
			t.Errorf("webhookEventId filter let through %+v", a)
		}
	}
	if n := len(mine(api.AttemptFilter{WebhookEventID: attempts[1].WebhookEventID})); n != 1 {
		t.Errorf("webhookEventId filter: %d of mine", n)
	}
	if err := op.DeleteWebhook(ctx(t), id); err != nil {
		t.Fatal(err)
	}
	if hooks := must[[]api.Webhook](t)(op.ListWebhooks(ctx(t))); len(hooks) != 2 {
		t.Errorf("%d webhooks after a delete, want 2", len(hooks))
	}
	_, err = op.GetWebhookAttempt(ctx(t), uuid.NewString())
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
}

// The demo's own webhooks point at the sandbox's receiver, which verifies
// the signature: demo deliveries succeed without any network.
func TestDemoWebhooksDeliverToTheSandboxReceiver(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 8})
	op := e.as("operator")
	hooks := must[[]api.Webhook](t)(op.ListWebhooks(ctx(t)))
	if len(hooks) == 0 || hooks[0].URL != e.run.BaseURL+"/v2/sandbox/webhook-receiver" {
		t.Fatalf("demo webhooks %+v", hooks)
	}
	// The demo's past attempts name the same receiver, not a default port.
	past := must[api.Page[api.WebhookAttempt]](t)(op.ListWebhookAttempts(ctx(t), api.AttemptFilter{}))
	if len(past.Items) == 0 {
		t.Fatal("no demo delivery attempts")
	}
	for _, a := range past.Items {
		if a.WebhookURL != hooks[0].URL {
			t.Fatalf("demo attempt %s was delivered to %s, but the webhook is %s", a.ID, a.WebhookURL, hooks[0].URL)
		}
	}
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("12")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := must[api.Page[api.WebhookAttempt]](t)(op.ListWebhookAttempts(ctx(t), api.AttemptFilter{}))
		a := p.Items[0]
		if a.ResponseStatus == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("newest attempt for ticket %s never answered 200: %+v", tk.ID, a)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
