package quote

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/livetest"
)

// sandboxClient is the demo operator's client of a fresh sandbox served
// over real HTTP.
func sandboxClient(t *testing.T) *api.Client {
	t.Helper()
	c, _ := sandboxWithSubs(t)
	return c
}

// sandboxHarness drives the screen of the demo operator against the
// sandbox client c, operating account (the main one when zero), on the
// wall clock: quotes are priced and expire as the sandbox says.
func sandboxHarness(t *testing.T, c Service, account ui.Account) *harness {
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &ui.Session{Env: ui.EnvSandbox, Profile: "demo", Journal: j, Time: screentest.NewClock(time.Now()), Account: account,
		Access: &api.AccessInfo{Email: "operator@demo.test", AccountPermissions: operatorPerms()}}
	return drive(t, s, c, nil)
}

// sandboxWithSubs is sandboxClient with the demo sub-accounts.
func sandboxWithSubs(t *testing.T) (*api.Client, []sandbox.SubAccountCredential) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	creds := livetest.Serve(t, sb)
	return livetest.Client(t, creds, "operator", 10*time.Second), creds.SubAccounts
}

// pays picks the beneficiary option found by typing who, then types then
// into the entry that follows (none when then is empty).
func pays(who, then string) func(h *harness) {
	return func(h *harness) {
		h.typeText(who)
		h.keys("enter")
		if then != "" {
			h.typeText(then)
		}
	}
}

// Every kind of output the screen builds is a ticket the sandbox creates:
// the blocks are the live shapes the service takes, not only the fake's.
func TestEveryOutputKindIsCreatedBySandbox(t *testing.T) {
	c := sandboxClient(t)
	ctx := t.Context()
	if _, err := c.CreateUSDAccount(ctx, uuid.Nil, livetest.USDAccount("Zeta Corp", "Zeta Corp")); err != nil {
		t.Fatalf("register USD: %v", err)
	}
	if _, err := c.CreateEURAccount(ctx, uuid.Nil, api.CreateEURAccountRequest{Alias: "Zeta GmbH", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Country: "DEU", BankBeneficiaryName: "Zeta GmbH"}); err != nil {
		t.Fatalf("register EUR: %v", err)
	}
	if _, err := c.CreateARSAccount(ctx, uuid.Nil, api.CreateARSAccountRequest{Alias: "Zeta SA", CVU: "0000003100010000000009"}); err != nil {
		t.Fatalf("register ARS: %v", err)
	}
	code, err := brcode.Encode(brcode.Payload{Key: "+5511987654321", Amount: decimal.RequireFromString("42.10"), MerchantName: "PADARIA CENTRAL", MerchantCity: "RECIFE", TxID: "PEDIDO7"})
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name                      string
		inCur, inM, outCur, outM  string
		amount, brCode, markupPct string
		details                   func(h *harness)
		block                     func(r api.CreateTicketRequest) bool
	}{
		{name: "inline wallet", inCur: "BRL", inM: "PIX", outCur: "BRLA", outM: "POLYGON", amount: "100",
			details: pays("another", "0x52908400098527886e0f7030069857d2e4169ee7"),
			block: func(r api.CreateTicketRequest) bool {
				return r.TicketBlockchainOutput != nil && r.TicketBlockchainOutput.WalletAddress == "0x52908400098527886E0F7030069857D2E4169EE7"
			}},
		{name: "PIX key", inCur: "BRLA", inM: "INTERNAL", outCur: "BRL", outM: "PIX", amount: "50",
			details: pays("another", "+5511912345678"),
			block: func(r api.CreateTicketRequest) bool {
				return r.TicketBrlPixOutput != nil && r.TicketBrlPixOutput.PixKey == "+5511912345678"
			}},
		{name: "BR Code", inCur: "BRLA", inM: "INTERNAL", outCur: "BRL", outM: "PIX", brCode: code,
			block: func(r api.CreateTicketRequest) bool {
				return r.TicketBrlPixOutput != nil && r.TicketBrlPixOutput.BrCode == code
			}},
		{name: "USD ACH", inCur: "USDC", inM: "INTERNAL", outCur: "USD", outM: "ACH", amount: "100",
			details: pays("zeta", "INV-1"),
			block: func(r api.CreateTicketRequest) bool {
				return r.TicketUsdOutput != nil && r.TicketUsdOutput.AchReference == "INV-1"
			}},
		{name: "USD WIRE", inCur: "USDC", inM: "INTERNAL", outCur: "USD", outM: "WIRE", amount: "100",
			details: pays("zeta", "INV-2"),
			block: func(r api.CreateTicketRequest) bool {
				return r.TicketUsdWireOutput != nil && r.TicketUsdWireOutput.WireMessage == "INV-2"
			}},
		{name: "EUR SEPA", inCur: "EURC", inM: "INTERNAL", outCur: "EUR", outM: "SEPA", amount: "100",
			details: pays("zeta", "RE-3"),
			block: func(r api.CreateTicketRequest) bool {
				return r.TicketEurSepaOutput != nil && r.TicketEurSepaOutput.SepaReference == "RE-3"
			}},
		{name: "ARS CVU", inCur: "USDC", inM: "INTERNAL", outCur: "ARS", outM: "CVU", amount: "100",
			details: pays("zeta", ""),
			block:   func(r api.CreateTicketRequest) bool { return r.TicketArsOutput != nil }},
		{name: "markup", inCur: "BRL", inM: "PIX", outCur: "BRLA", outM: "INTERNAL", amount: "200", markupPct: "1",
			details: func(h *harness) {
				for !h.m.details.onPicker() {
					h.keys("tab")
				}
				h.keys("enter")
			},
			block: func(r api.CreateTicketRequest) bool { return r.TicketMarkupInput != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := sandboxHarness(t, c, ui.Account{})
			m := h.m
			h.pair(tc.inCur, tc.inM, tc.outCur, tc.outM, tc.amount)
			if tc.brCode != "" {
				m.entry.form.SetValue(fBrCode, tc.brCode)
			}
			if tc.markupPct != "" {
				h.markup(tc.markupPct)
			}
			h.toDetailsOf()
			if tc.details != nil {
				tc.details(h)
			}
			if m.stage == stageDetails {
				h.keys("ctrl+s") // enter on the last entry has reviewed already
			}
			if m.stage != stageConfirm {
				t.Fatalf("stage %v, want the confirmation:\n%s", m.stage, h.screen())
			}
			if req := h.ticketReq(); !tc.block(req) {
				t.Fatalf("the body lacks the block: %+v", req)
			}
			h.keys("y")
			if m.stage != stageResult || m.res == nil || m.res.ticket == nil {
				t.Fatalf("no ticket created (stage %v):\n%s", m.stage, h.screen())
			}
			if !strings.Contains(h.screen(), m.res.ticket.ID.String()[:8]) {
				t.Errorf("the created ticket is not shown:\n%s", h.screen())
			}
		})
	}
}

// Operating a sub-account, the markup may go to the main account's wallet:
// the picker offers both, and the service takes the one picked.
func TestSubAccountMarkupToTheMainWalletIsCreatedBySandbox(t *testing.T) {
	c, subs := sandboxWithSubs(t)
	if len(subs) == 0 {
		t.Fatal("no demo sub-account")
	}
	subID := uuid.MustParse(subs[0].ID)
	main, err := c.AccountDetails(t.Context(), uuid.Nil)
	if err != nil || len(main.Wallets) == 0 {
		t.Fatalf("main account-info: %v", err)
	}
	h := sandboxHarness(t, c, ui.Account{ID: subID, Name: subs[0].Name})
	m := h.m
	h.pair("BRL", "PIX", "BRLA", "INTERNAL", "200")
	h.markup("0.5")
	h.keys("enter")
	h.keys("c")
	if m.stage != stageDetails {
		t.Fatalf("stage %v, want the details:\n%s", m.stage, h.screen())
	}
	for !m.details.onPicker() {
		h.keys("tab")
	}
	h.want("this account · "+subs[0].Name, "main account")
	h.typeText("main account")
	h.keys("enter")
	if m.stage != stageConfirm {
		t.Fatalf("stage %v, want the confirmation:\n%s", m.stage, h.screen())
	}
	if got := h.ticketReq().TicketMarkupInput; got == nil || !strings.EqualFold(got.MarkupWalletAddress, main.Wallets[0].WalletAddress) {
		t.Fatalf("markup block %+v, want the main wallet %s", got, main.Wallets[0].WalletAddress)
	}
	h.keys("y")
	if m.stage != stageResult || m.res == nil || m.res.ticket == nil {
		t.Fatalf("no ticket created (stage %v):\n%s", m.stage, h.screen())
	}
}

// A payment made elsewhere (a script, through the payment core) under an
// external id; then the screen is given that id for another payment: the
// sandbox holds one ticket under it, the one made first, and the screen
// says whose it is.
func TestReusedExternalIDIsRefusedBySandbox(t *testing.T) {
	c := sandboxClient(t)
	ctx := t.Context()
	first := payment.Intent{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "INTERNAL",
		Amount: decimal.RequireFromString("100"), Fixed: payment.FixInput, ExternalID: "erp-reused-1"}
	q, err := c.Quote(ctx, first.QuoteRequest())
	if err != nil {
		t.Fatal(err)
	}
	made, err := payment.Send(ctx, c, nil, first, q)
	if err != nil || made.Status != payment.Created {
		t.Fatalf("the first payment: %+v %v", made, err)
	}

	h := sandboxHarness(t, c, ui.Account{})
	h.pair("BRL", "PIX", "BRLA", "INTERNAL", "250")
	h.toDetailsOf()
	h.keys("ctrl+e", "ctrl+u")
	h.typeText("erp-reused-1")
	h.keys("ctrl+s", "y")
	h.want("already names ticket "+made.Ticket.ID.String(), "nothing was created")
	if h.m.stage != stageConfirm || h.m.res != nil {
		t.Fatalf("stage %v: want the confirmation refusing:\n%s", h.m.stage, h.screen())
	}
	p, err := c.ListTickets(ctx, api.TicketFilter{ExternalID: "erp-reused-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || p.Items[0].ID != made.Ticket.ID {
		t.Fatalf("%d tickets under the reused id, want only the first payment's", len(p.Items))
	}
}
