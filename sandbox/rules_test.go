package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// The permission flags of a ticket creation (spec/service.md §7.5), one
// flag at a time: an access that lacks only that flag is refused, with
// 403 naming it, every ticket that needs the flag, and still creates the
// tickets that do not. The demo accesses hold all flags or none, so the
// test takes the operator's access and removes one.
func TestTicketFlagsOneByOne(t *testing.T) {
	type ticket struct {
		name, quote, body string
		needs             []string
	}
	const q = "/v2/account/quote/fixed-rate?inputThirdParty=false&outputThirdParty=false&"
	tickets := []ticket{
		{"PIX pay-in", q + "inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=50", ``, []string{"payIn", "convert"}},
		{"conversion in the account", q + "inputCurrency=BRLA&inputPaymentMethod=INTERNAL&blockchainSendMethod=PERMIT&outputCurrency=USDC&outputPaymentMethod=INTERNAL&inputAmount=50", ``, []string{"convert"}},
		{"to the own wallet on chain", q + "inputCurrency=BRLA&inputPaymentMethod=INTERNAL&blockchainSendMethod=PERMIT&outputCurrency=BRLA&outputPaymentMethod=POLYGON&inputAmount=5", `,"ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}`, []string{"onChain"}},
		{"PIX payout", q + "inputCurrency=BRLA&inputPaymentMethod=INTERNAL&blockchainSendMethod=PERMIT&outputCurrency=BRL&outputPaymentMethod=PIX&inputAmount=5", `,"ticketBrlPixOutput":{"pixKey":"maria@example.com"}`, []string{"convert", "payOut"}},
		{"markup", q + "inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=100&markupFloatingFee=0.01", `,"ticketMarkupInput":{"markupWalletAddress":"WALLET"}`, []string{"payIn", "convert", "markup"}},
	}
	for _, flag := range []string{"payIn", "convert", "onChain", "payOut", "markup"} {
		t.Run("without "+flag, func(t *testing.T) {
			r := startTest(t, Config{Seed: 33})
			c := r.client(t, "operator")
			op := r.Server.access("operator")
			r.Server.eng.Edit(func() { without(&op.Perms, flag) })
			wallet := r.Server.eng.Main().Wallet

			for _, tk := range tickets {
				var qt struct{ QuoteToken string }
				c.json(http.MethodGet, tk.quote, nil, 200, &qt)
				body := `{"quoteToken":"` + qt.QuoteToken + `"` + strings.ReplaceAll(tk.body, "WALLET", wallet) + `}`
				st, out := c.do(http.MethodPost, "/v2/account/tickets/", body)
				needs := false
				for _, n := range tk.needs {
					needs = needs || n == flag
				}
				if !needs {
					if st != 201 {
						t.Errorf("%s (needs %v) without %s: %d %s, want 201", tk.name, tk.needs, flag, st, out)
					}
					continue
				}
				var e struct {
					Error struct{ Code, Message string }
				}
				_ = json.Unmarshal(out, &e)
				if st != 403 || !strings.Contains(e.Error.Message, "missing permission "+flag) {
					t.Errorf("%s without %s: %d %s, want 403 naming %s", tk.name, flag, st, out, flag)
				}
			}
		})
	}
}

func without(p *records.Permissions, flag string) {
	switch flag {
	case "payIn":
		p.PayIn = false
	case "convert":
		p.Convert = false
	case "onChain":
		p.OnChain = false
	case "payOut":
		p.PayOut = false
	case "markup":
		p.Markup = false
	}
}

// A payment session's ticket is created with the access that opened the
// session as that access is when the payer creates it: frozen, made
// view-only, stripped of payIn or blacklisted from the account after the
// session was opened, it creates nothing, with the refusal the access gets
// when it writes itself. Once the change is undone the same session and
// quote make the ticket, so each refusal is the change's doing.
func TestSessionTicketChecksTheOpenerAtCreation(t *testing.T) {
	r := startTest(t, Config{Seed: 34})
	sub := r.Server.eng.SubAccounts()[0]
	changes := map[string]func(a *engine.Access) (undo func()){
		"frozen": func(a *engine.Access) func() {
			a.FrozenUntil = r.Server.now().Add(time.Hour)
			return func() { a.FrozenUntil = time.Time{} }
		},
		"viewOnly": func(a *engine.Access) func() {
			a.Perms.ViewOnly = true
			return func() { a.Perms.ViewOnly = false }
		},
		"without payIn": func(a *engine.Access) func() {
			a.Perms.PayIn = false
			return func() { a.Perms.PayIn = true }
		},
		"blacklisted": func(a *engine.Access) func() {
			a.Blacklisted[sub.ID] = true
			return func() { delete(a.Blacklisted, sub.ID) }
		},
	}
	op := recordsClient(t, r, "operator")
	payer, err := api.New(r.BaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	operator := r.Server.access("operator")
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			sid, err := op.CreatePaymentSession(testCtx(t), sub.ID, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}}, OutputCurrency: "BRLA"})
			if err != nil {
				t.Fatal(err)
			}
			q, err := payer.PaymentSessionQuote(testCtx(t), sid, "BRL", "PIX", decimal.RequireFromString("80"))
			if err != nil {
				t.Fatal(err)
			}
			var undo func()
			r.Server.eng.Edit(func() { undo = sync.OnceFunc(change(operator)) })
			t.Cleanup(func() { r.Server.eng.Edit(undo) })

			// The refusal the access gets elsewhere: opening another session.
			_, own := op.CreatePaymentSession(testCtx(t), sub.ID, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}}, OutputCurrency: "BRLA"})
			var want *api.Error
			if !errors.As(own, &want) || want.Status != http.StatusForbidden {
				t.Fatalf("the operator %s opened a session: %v", name, own)
			}
			_, err = payer.CreatePaymentSessionTicket(testCtx(t), sid, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
			wantAPIError(t, err, want.Status, want.Code, want.Message)
			if ps, err := payer.GetPaymentSession(testCtx(t), sid); err != nil || ps.Status != "OPEN" {
				t.Errorf("after the refusal the session is %+v (%v), want still OPEN", ps, err)
			}

			r.Server.eng.Edit(undo)
			tk, err := payer.CreatePaymentSessionTicket(testCtx(t), sid, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
			if err != nil || tk.Quote.OutputCurrency != "BRLA" {
				t.Fatalf("once undone: %+v %v", tk, err)
			}
		})
	}
}
