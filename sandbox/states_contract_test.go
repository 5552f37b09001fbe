package sandbox_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// The lifecycle of spec/service.md §7.2, one test per state a ticket can
// reach from the caller's side.

func ticketNow(t *testing.T, c *api.Client, id uuid.UUID) *api.Ticket {
	t.Helper()
	return must[*api.Ticket](t)(c.GetTicket(ctx(t), uuid.Nil, id))
}

func wantStatus(t *testing.T, tk *api.Ticket, want api.TicketStatus, when string) {
	t.Helper()
	if tk.Status != want {
		t.Fatalf("%s: ticket is %s (%q), want %s", when, tk.Status, tk.Reason, want)
	}
}

func TestCancelAnUnpaidTicket(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("5000")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	wantStatus(t, tk, api.TicketUnpaid, "created")
	got := must[*api.Ticket](t)(op.CancelTicket(ctx(t), uuid.Nil, tk.ID))
	wantStatus(t, got, api.TicketCanceled, "canceled")
	if !got.Status.Final() || got.Reason == "" {
		t.Errorf("canceled ticket: final %v, reason %q", got.Status.Final(), got.Reason)
	}
	wantStatus(t, ticketNow(t, op, tk.ID), api.TicketCanceled, "read back")
	wantCode(t, errOf(op.CancelTicket(ctx(t), uuid.Nil, tk.ID)), http.StatusConflict, "NOT_CANCELABLE")
	wantCode(t, errOf(op.SandboxFundTicket(ctx(t), uuid.Nil, tk.ID)), http.StatusConflict, "NOT_FUNDABLE")
	// Past its expiry nothing changes it any more.
	e.clock.Add(10 * time.Minute)
	if got := ticketNow(t, op, tk.ID); got.Status != api.TicketCanceled || got.Reason != tk.Reason && got.Reason == "" {
		t.Errorf("after expiry: %s %q", got.Status, got.Reason)
	}
	// A ticket on its way cannot be canceled.
	q = must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("10")}))
	moving := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	wantStatus(t, moving, api.TicketProcessing, "INTERNAL input")
	wantCode(t, errOf(op.CancelTicket(ctx(t), uuid.Nil, moving.ID)), http.StatusConflict, "NOT_CANCELABLE")
}

func TestUnfundedTicketIsCanceledAtExpiry(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("5000")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	e.clock.Add(tk.ExpiresAt.Sub(tk.CreatedAt.Time) - time.Second)
	wantStatus(t, ticketNow(t, op, tk.ID), api.TicketUnpaid, "a second before expiry")
	e.clock.Add(time.Second)
	got := ticketNow(t, op, tk.ID)
	wantStatus(t, got, api.TicketCanceled, "at expiry")
	if got.Reason == "" {
		t.Error("expired ticket without a reason")
	}
	// Listed by its live name, and never as EXPIRED.
	p := must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{Status: "CANCELED"}))
	found := false
	for _, x := range p.Items {
		found = found || x.ID == tk.ID
	}
	if !found {
		t.Error("status=CANCELED does not list the expired ticket")
	}
	wantCode(t, errOf(op.ListTickets(ctx(t), api.TicketFilter{Status: "EXPIRED"})), http.StatusBadRequest, "INVALID_FIELD")
}

func TestTicketAboveTheLimitIsHeldUntilReleased(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	op := e.as("operator")
	e.clock.Add(5 * time.Second)
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("150000")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	wantStatus(t, tk, api.TicketUnpaid, "created above the limit")
	tk = must[*api.Ticket](t)(op.SandboxFundTicket(ctx(t), uuid.Nil, tk.ID))
	wantStatus(t, tk, api.TicketOnHold, "funded above the limit")
	if tk.Status.Final() || tk.Reason == "" {
		t.Errorf("ON-HOLD: final %v, reason %q", tk.Status.Final(), tk.Reason)
	}
	e.clock.Add(time.Hour)
	wantStatus(t, ticketNow(t, op, tk.ID), api.TicketOnHold, "an hour later")
	wantCode(t, errOf(op.CancelTicket(ctx(t), uuid.Nil, tk.ID)), http.StatusConflict, "NOT_CANCELABLE")
	got := must[*api.Ticket](t)(op.SandboxReleaseTicket(ctx(t), uuid.Nil, tk.ID))
	wantStatus(t, got, api.TicketProcessing, "released")
	wantCode(t, errOf(op.SandboxReleaseTicket(ctx(t), uuid.Nil, tk.ID)), http.StatusConflict, "NOT_ON_HOLD")
	e.clock.Add(3 * time.Second)
	wantStatus(t, ticketNow(t, op, tk.ID), api.TicketPaid, "after delivery")
	// Below the limit nothing is held.
	q = must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("100000")))
	tk = must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	tk = must[*api.Ticket](t)(op.SandboxFundTicket(ctx(t), uuid.Nil, tk.ID))
	wantStatus(t, tk, api.TicketProcessing, "funded at the limit")
}

func TestFiatPayoutFundedOnAWeekendIsPendingUntilMonday(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	op := e.as("operator")
	// Move the clock to the coming Saturday, 10:00 UTC.
	now := e.clock.Now()
	days := (int(time.Saturday) - int(now.Weekday()) + 7) % 7
	sat := time.Date(now.Year(), now.Month(), now.Day()+days, 10, 0, 0, 0, time.UTC)
	if sat.Before(now) {
		sat = sat.AddDate(0, 0, 7)
	}
	e.clock.Add(sat.Sub(now))
	usd := must[api.Page[api.USDAccount]](t)(op.ListUSDAccounts(ctx(t), api.BeneficiaryFilter{})).Items[0]
	for _, rail := range []string{"ACH", "WIRE"} {
		q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "USDC", InputPaymentMethod: "INTERNAL", OutputCurrency: "USD", OutputPaymentMethod: rail, InputAmount: dec("100")}))
		req := api.CreateTicketRequest{QuoteToken: q.QuoteToken}
		req.SetUSDOutput(rail, usd.ID, "")
		tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, req)).Ticket
		wantStatus(t, tk, api.TicketPending, rail+" funded on Saturday")
		if tk.Status.Final() || tk.Reason == "" {
			t.Errorf("PENDING: final %v, reason %q", tk.Status.Final(), tk.Reason)
		}
	}
	// A PIX payout does not rest.
	pix := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, payoutRequest(t, op, uuid.Nil, "50"))).Ticket
	wantStatus(t, pix, api.TicketProcessing, "PIX payout on Saturday")

	e.clock.Add(38*time.Hour - time.Second) // Sunday 23:59:59
	p := must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{Status: "PENDING", OutputCurrency: "USD", CreatedAfter: sat.Add(-time.Minute)}))
	if len(p.Items) != 2 {
		t.Fatalf("Sunday night: %d USD tickets PENDING, want 2", len(p.Items))
	}
	e.clock.Add(time.Second)
	for _, tk := range p.Items {
		wantStatus(t, ticketNow(t, op, tk.ID), api.TicketProcessing, "Monday 00:00")
	}
	e.clock.Add(3 * time.Second)
	for _, tk := range p.Items {
		wantStatus(t, ticketNow(t, op, tk.ID), api.TicketPaid, "Monday after delivery")
	}
}

// The demo data holds a ticket in every state, each listed by its filter,
// and the final ones are final.
func TestDemoHoldsEveryLiveState(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	op := e.as("operator")
	for _, st := range api.TicketStatuses {
		p := must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{Status: string(st)}))
		if len(p.Items) == 0 {
			t.Errorf("no demo ticket is %s", st)
			continue
		}
		for _, tk := range p.Items {
			if tk.Status != st {
				t.Fatalf("status=%s listed a %s ticket", st, tk.Status)
			}
		}
		tk := p.Items[0]
		switch st {
		case api.TicketPartialFailed, api.TicketFailed:
			if tk.FailureReason == "" {
				t.Errorf("%s demo ticket without failureReason", st)
			}
		case api.TicketCanceled, api.TicketOnHold, api.TicketPending:
			if tk.Reason == "" {
				t.Errorf("%s demo ticket without reason", st)
			}
		}
	}
}

// The ticket list takes its time filters as RFC 3339 or as integer Unix
// seconds, and both select the same tickets.
func TestTicketTimeFiltersInBothForms(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	r := e.rawAs(t, "operator")
	from, to := e.clock.Now().Add(-20*24*time.Hour), e.clock.Now().Add(-10*24*time.Hour)
	rfc := "/v2/account/tickets/?createdAfter=" + from.Format(time.RFC3339) + "&createdBefore=" + to.Format(time.RFC3339)
	unix := "/v2/account/tickets/?createdAfter=" + strconv.FormatInt(from.Unix(), 10) + "&createdBefore=" + strconv.FormatInt(to.Unix(), 10)
	s1, b1 := r.send(t, http.MethodGet, rfc, "", time.Time{}, nil)
	s2, b2 := r.send(t, http.MethodGet, unix, "", time.Time{}, nil)
	if s1 != 200 || s2 != 200 {
		t.Fatalf("HTTP %d / %d: %s %s", s1, s2, b1, b2)
	}
	if string(b1) != string(b2) || len(b1) < 100 {
		t.Errorf("the two forms answer differently (%d and %d bytes)", len(b1), len(b2))
	}
	r.wantError(t, http.MethodGet, "/v2/account/tickets/?createdAfter=yesterday", "", http.StatusBadRequest, "INVALID_FIELD")
}

// Live ticket records carry blockchainInputInfo for a signed input,
// RefundableParameter for a refund, and id/ticketId on every info block.
func TestTicketRecordsCarryTheLiveInfoFields(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 21})
	op := e.as("operator")
	e.clock.Add(5 * time.Second)
	refund := uuid.NewString()
	q := must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{InputCurrency: "USDC", InputPaymentMethod: "POLYGON", OutputCurrency: "BRL", OutputPaymentMethod: "PIX",
		InputAmount: dec("50"), BlockchainSendMethod: api.SendPermit, TicketRefundID: refund}))
	r64 := "0x" + strings.Repeat("ab", 32)
	deadline := e.clock.Now().Add(time.Hour).Unix()
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{
		QuoteToken:            q.QuoteToken,
		TicketBlockchainInput: &api.TicketBlockchainInput{WalletAddress: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", Permit: &api.Permit{R: r64, S: r64, V: 27, Nonce: 3, Deadline: deadline}},
		TicketBrlPixOutput:    &api.TicketBrlPixOutput{PixKey: "a@example.com"},
	})).Ticket
	in := tk.BlockchainInputInfo
	if in == nil || in.R != r64 || in.V != 27 || in.Nonce != 3 || in.Deadline != deadline || in.TicketID != tk.ID.String() || in.ID == "" {
		t.Errorf("blockchainInputInfo = %+v", in)
	}
	if !strings.Contains(string(tk.RefundableParameter), refund) {
		t.Errorf("RefundableParameter = %s, want it to name %s", tk.RefundableParameter, refund)
	}
	e.clock.Add(10 * time.Second)
	got := ticketNow(t, op, tk.ID)
	wantStatus(t, got, api.TicketPaid, "after funding and delivery")
	for name, ids := range map[string][2]string{
		"blockchainSenderInfo":      {got.BlockchainSenderInfo.ID, got.BlockchainSenderInfo.TicketID},
		"brazilianFiatReceiverInfo": {got.BrazilianFiatReceiverInfo.ID, got.BrazilianFiatReceiverInfo.TicketID},
		"blockchainInputInfo":       {got.BlockchainInputInfo.ID, got.BlockchainInputInfo.TicketID},
	} {
		if ids[0] == "" || ids[1] != tk.ID.String() {
			t.Errorf("%s: id %q ticketId %q", name, ids[0], ids[1])
		}
	}
}
