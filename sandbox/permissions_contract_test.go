package sandbox_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// outcome is what an action gave: the status and, for refusals, the code.
type outcome struct {
	status int
	code   string
}

func (o outcome) String() string { return fmt.Sprintf("%d %s", o.status, o.code) }

func outcomeOf(err error) outcome {
	if err == nil {
		return outcome{status: 200}
	}
	var ae *api.Error
	if errors.As(err, &ae) {
		return outcome{ae.Status, ae.Code}
	}
	return outcome{-1, err.Error()}
}

var (
	ok       = outcome{200, ""}
	created  = outcome{201, ""}
	parked   = outcome{202, ""}
	noPerm   = outcome{403, "FORBIDDEN"}
	frozen   = outcome{403, "ACCESS_FROZEN"}
	blackout = outcome{403, "ACCOUNT_BLACKLISTED"}
)

func ticketOutcome(res *api.CreateTicketResult, err error) outcome {
	switch {
	case err != nil:
		return outcomeOf(err)
	case res.Parked:
		return parked
	default:
		return created
	}
}

// TestPermissionMatrix runs every gated action as every demo access.
func TestPermissionMatrix(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 6})
	opc := e.as("operator")
	brl := firstBRL(t, opc, uuid.Nil)
	serviceWallet := ""
	{
		q := must[*api.Quote](t)(opc.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", InputAmount: dec("5")}))
		tk := must[*api.CreateTicketResult](t)(opc.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainOutput: api.ToWallet(uuid.Nil)})).Ticket
		serviceWallet = tk.BlockchainReceiverInfo.WalletAddress
	}
	blacklistedSub := e.subs[2]

	actions := []struct {
		name string
		do   func(c *api.Client) outcome
	}{
		{"read", func(c *api.Client) outcome { _, err := c.AccessInfo(ctx(t)); return outcomeOf(err) }},
		{"quote", func(c *api.Client) outcome { _, err := c.Quote(ctx(t), pixQuote("10")); return outcomeOf(err) }},
		{"pay-in ticket", func(c *api.Client) outcome {
			q, err := c.Quote(ctx(t), pixQuote("10"))
			if err != nil {
				return outcomeOf(err)
			}
			return ticketOutcome(c.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken}))
		}},
		{"payout ticket", func(c *api.Client) outcome {
			q, err := c.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("10")})
			if err != nil {
				return outcomeOf(err)
			}
			return ticketOutcome(c.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixOutput: api.PixToBeneficiary(brl.ID, "")}))
		}},
		{"markup ticket", func(c *api.Client) outcome {
			r := pixQuote("100")
			r.MarkupFloatingFee = dec("0.01")
			q, err := c.Quote(ctx(t), r)
			if err != nil {
				return outcomeOf(err)
			}
			return ticketOutcome(c.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketMarkupInput: &api.TicketMarkupInput{MarkupWalletAddress: serviceWallet}}))
		}},
		{"own wallet (unregistered)", func(c *api.Client) outcome {
			q, err := c.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", InputAmount: dec("10")})
			if err != nil {
				return outcomeOf(err)
			}
			return ticketOutcome(c.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainOutput: api.ToWallet(uuid.Nil)}))
		}},
		{"conversion", func(c *api.Client) outcome {
			q, err := c.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("5")})
			if err != nil {
				return outcomeOf(err)
			}
			return ticketOutcome(c.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken}))
		}},
		{"on-chain, own wallet", func(c *api.Client) outcome {
			q, err := c.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", InputAmount: dec("5")})
			if err != nil {
				return outcomeOf(err)
			}
			return ticketOutcome(c.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBlockchainOutput: api.ToWallet(uuid.Nil)}))
		}},
		{"payment session", func(c *api.Client) outcome {
			_, err := c.CreatePaymentSession(ctx(t), uuid.Nil, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{pixInto("BRLA")}, OutputCurrency: "BRLA"})
			return outcomeOf(err)
		}},
		{"beneficiary", func(c *api.Client) outcome {
			_, err := c.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "w-" + uuid.NewString()[:8], WalletAddress: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", WalletChain: "POLYGON"})
			return outcomeOf(err)
		}},
		{"approver inbox", func(c *api.Client) outcome { _, err := c.ListApproverOperations(ctx(t), ""); return outcomeOf(err) }},
		{"blacklisted sub-account", func(c *api.Client) outcome { _, err := c.Balances(ctx(t), blacklistedSub); return outcomeOf(err) }},
		{"ack attempts", func(c *api.Client) outcome {
			p, err := c.ListWebhookAttempts(ctx(t), api.AttemptFilter{})
			if err != nil || len(p.Items) == 0 {
				return outcome{-1, fmt.Sprint("no attempts to acknowledge: ", err)}
			}
			return outcomeOf(c.AcknowledgeWebhookAttempts(ctx(t), []string{p.Items[0].ID}))
		}},
	}
	// Ticket creations need the flags of spec/service.md §7.5: payIn for
	// PIX, convert across currencies, onChain for a chain side (the issue:
	// approver1, only operationApprover, converted directly); a payment
	// session needs payIn. TestTicketFlagsOneByOne removes one flag at a time.
	want := map[string][]outcome{
		//            read quote pay-in   payout   markup   own-wallet conversion on-chain session  beneficiary inbox   blacklisted ack
		"operator":   {ok, ok, created, created, created, created, created, created, ok, ok, noPerm, ok, ok},
		"requester":  {ok, ok, parked, parked, parked, parked, parked, parked, ok, ok, noPerm, ok, ok},
		"approver1":  {ok, ok, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, ok, ok, ok},
		"approver2":  {ok, ok, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, ok, ok, ok},
		"approver3":  {ok, ok, parked, parked, parked, parked, parked, parked, ok, ok, ok, ok, ok},
		"viewer":     {ok, ok, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, noPerm, ok, noPerm},
		"restricted": {ok, ok, noPerm, noPerm, noPerm, noPerm, created, noPerm, noPerm, noPerm, noPerm, blackout, ok},
		"frozen":     {ok, ok, frozen, frozen, frozen, frozen, frozen, frozen, frozen, frozen, noPerm, ok, frozen},
	}
	for name, row := range want {
		c := e.as(name)
		for i, a := range actions {
			if got := a.do(c); got != row[i] {
				t.Errorf("%s / %s: got %v, want %v", name, a.name, got, row[i])
			}
		}
	}
}

// TestScoping: no access ever reaches another account's data.
func TestScoping(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 6})
	op := e.as("operator")
	sub := e.subs[0]
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{SubAccountID: sub, InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", InputAmount: dec("10")}))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), sub, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	must[*api.Ticket](t)(op.GetTicket(ctx(t), sub, tk.ID))
	_, err := op.GetTicket(ctx(t), uuid.Nil, tk.ID)
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = op.GetTicket(ctx(t), e.subs[1], tk.ID)
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
	for _, tt := range must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{})).Items {
		if tt.ID == tk.ID {
			t.Fatal("a sub-account's ticket is listed on the main account")
		}
	}
	// A sub-account of no account of this access.
	_, err = op.Balances(ctx(t), uuid.New())
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
	// Beneficiaries are per account too.
	mainBRL := firstBRL(t, op, uuid.Nil)
	_, err = op.GetBRLAccount(ctx(t), sub, mainBRL.ID)
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
	q = must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{SubAccountID: sub, InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("10")}))
	_, err = op.CreateTicket(ctx(t), sub, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixOutput: api.PixToBeneficiary(mainBRL.ID, "")})
	wantCode(t, err, http.StatusBadRequest, "UNKNOWN_BENEFICIARY")
	// The restricted access does not even see its blacklisted account.
	accts := must[[]api.Account](t)(e.as("restricted").ListAccounts(ctx(t)))
	for _, a := range accts {
		if a.ID == e.subs[2] {
			t.Error("restricted lists the account it is blacklisted from")
		}
	}
	info := must[*api.AccessInfo](t)(e.as("restricted").AccessInfo(ctx(t)))
	if len(info.BlacklistedAccountIDs) != 1 || info.BlacklistedAccountIDs[0] != e.subs[2] {
		t.Errorf("restricted blacklist %v", info.BlacklistedAccountIDs)
	}
	if fz := must[*api.AccessInfo](t)(e.as("frozen").AccessInfo(ctx(t))); !fz.Frozen(e.clock.Now()) {
		t.Error("the frozen demo access is not frozen")
	}
}
