package sandbox_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// TestSweeperAdvancesWithoutRequests: on the real clock at speed 50, a
// small PIX ticket is funded and paid, and its webhooks delivered, while
// nobody asks anything.
func TestSweeperAdvancesWithoutRequests(t *testing.T) {
	run, err := sandbox.Start(sandbox.Config{Seed: 30, Speed: 50}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	cred, _ := run.Creds.Access("operator")
	key, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	op, err := api.New(run.BaseURL, key)
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer hook.Close()
	sub := uuid.MustParse(run.Creds.SubAccounts[2].ID)
	time.Sleep(200 * time.Millisecond) // the demo's live tickets settle
	if _, err := op.RegisterWebhook(ctx(t), api.RegisterWebhookRequest{WebhookURL: hook.URL, Subscriptions: []string{"*"}}); err != nil {
		t.Fatal(err)
	}
	q, err := op.Quote(ctx(t), api.QuoteRequest{SubAccountID: sub, InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("25")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := op.CreateTicket(ctx(t), sub, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for hits.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := hits.Load(); n != 3 {
		t.Fatalf("%d deliveries without any request, want 3 (created, funded, paid)", n)
	}
	tk, err := op.GetTicket(ctx(t), sub, res.Ticket.ID)
	if err != nil || tk.Status != api.TicketPaid {
		t.Fatalf("ticket %v %v", tk, err)
	}
}

func TestCustomDuration(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 31})
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("10")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, CustomDuration: 450})).Ticket
	if got := tk.ExpiresAt.Sub(tk.CreatedAt.Time); got != 450*time.Second {
		t.Errorf("customDuration 450 gave %v", got)
	}
	_, err := op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, CustomDuration: 601})
	wantCode(t, err, http.StatusBadRequest, "INVALID_FIELD")
	same := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", InputAmount: dec("10")}))
	tk = must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: same.QuoteToken, CustomDuration: 259200, TicketBlockchainOutput: api.ToWallet(uuid.Nil)})).Ticket
	if got := tk.ExpiresAt.Sub(tk.CreatedAt.Time); got != 72*time.Hour {
		t.Errorf("customDuration 259200 gave %v", got)
	}
}
