package quote

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// fake is the service as the quote builder sees it.
type fake struct {
	mu      sync.Mutex
	quotes  []api.QuoteRequest
	creates []createCall
	// createErrs are returned, in order, by the first creations.
	createErrs []error
	parked     bool
	brCode     string
	ticket     *api.Ticket
	wallets    []api.Wallet
	brl        []api.BRLAccount
	funded     int
	// held are the tickets created, by external id.
	held map[string]*api.Ticket
	// more holds what the confirmation and the parked result read
	// (confirm_test.go).
	more moreFake
}

type createCall struct {
	account uuid.UUID
	req     api.CreateTicketRequest
}

func (f *fake) Quote(_ context.Context, r api.QuoteRequest) (*api.Quote, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.quotes = append(f.quotes, r)
	n := len(f.quotes)
	in := r.InputAmount.Decimal
	// Each re-quote drifts a little so that old and new differ.
	price := decimal.RequireFromString("1").Sub(decimal.New(int64(n-1), -3))
	fee := decimal.RequireFromString("2.50")
	out := in.Sub(fee).Mul(price).Truncate(6)
	return &api.Quote{
		QuoteToken:    fmt.Sprintf("token-%d", n),
		InputCurrency: r.InputCurrency, InputPaymentMethod: r.InputPaymentMethod, InputAmount: in,
		OutputCurrency: r.OutputCurrency, OutputPaymentMethod: r.OutputPaymentMethod, OutputAmount: out,
		BasePrice: price, PairName: r.InputCurrency + r.OutputCurrency,
		AppliedFees:          []api.Fee{{Type: "In Fee", Amount: decimal.RequireFromString("1.00"), Currency: r.InputCurrency}, {Type: "Conversion Fee", Amount: decimal.RequireFromString("1.50"), Currency: r.InputCurrency}},
		BlockchainSendMethod: r.BlockchainSendMethod,
	}, nil
}

func (f *fake) CreateTicket(_ context.Context, account uuid.UUID, r api.CreateTicketRequest) (*api.CreateTicketResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.creates = append(f.creates, createCall{account, r})
	if len(f.createErrs) > 0 {
		err := f.createErrs[0]
		f.createErrs = f.createErrs[1:]
		return nil, err
	}
	if f.parked {
		return &api.CreateTicketResult{Parked: true, Operation: &api.Operation{ID: uuid.MustParse("0b6a4e2e-6d5e-4c3f-9a1b-2c3d4e5f6a7b"), Status: api.OperationPending, MinApprovals: 2}}, nil
	}
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	f.ticket = &api.Ticket{
		ID: uuid.MustParse("7c9e6679-7425-40de-944b-e07fc1f90ae7"), ExternalID: r.ExternalID, Status: api.TicketUnpaid,
		CreatedAt: api.NewTime(now), ExpiresAt: api.NewTime(now.Add(5 * time.Minute)),
		Quote:                   api.TicketQuote{InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.RequireFromString("500"), OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", OutputAmount: decimal.RequireFromString("497.5")},
		BrazilianFiatSenderInfo: &api.BrazilianFiatSenderInfo{BrCode: f.brCode},
	}
	t := *f.ticket
	if f.held == nil {
		f.held = map[string]*api.Ticket{}
	}
	f.held[r.ExternalID] = &t
	return &api.CreateTicketResult{Ticket: &t}, nil
}

func (f *fake) FindTicketByExternalID(_ context.Context, _ uuid.UUID, id string) (*api.Ticket, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.held[id]
	return t, ok, nil
}

func (f *fake) GetTicket(_ context.Context, _, id uuid.UUID) (*api.Ticket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := *f.ticket
	return &t, nil
}

func (f *fake) SandboxFundTicket(_ context.Context, _, id uuid.UUID) (*api.Ticket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.funded++
	f.ticket.Status = api.TicketProcessing
	t := *f.ticket
	return &t, nil
}

func (f *fake) ListWallets(_ context.Context, w api.WalletFilter) (api.Page[api.Wallet], error) {
	return api.Page[api.Wallet]{Items: f.wallets}, nil
}

func (f *fake) ListBRLAccounts(_ context.Context, _ api.BeneficiaryFilter) (api.Page[api.BRLAccount], error) {
	return api.Page[api.BRLAccount]{Items: f.brl}, nil
}

func (f *fake) ListUSDAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.USDAccount], error) {
	return api.Page[api.USDAccount]{}, nil
}

func (f *fake) ListCOPAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.COPAccount], error) {
	return api.Page[api.COPAccount]{}, nil
}

// harness drives the screen as the root would (screentest.Driver), on a
// fake clock that moves only when a test advances it.
type harness struct {
	t *testing.T
	m *Screen
	f *fake
	d *screentest.Driver
	s *ui.Session
}

var sub = ui.Account{ID: uuid.MustParse("5f0c1a7e-3b2d-4c8e-9f1a-6b7c8d9e0f12"), Name: "Filial Recife"}

func operatorPerms() api.Permissions {
	return api.Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true, Beneficiary: true}
}

func newHarness(t *testing.T, perms api.Permissions) *harness {
	t.Helper()
	bc, err := brcode.Encode(brcode.Payload{Key: "0b6a4e2e-6d5e-4c3f-9a1b-2c3d4e5f6a7b", Amount: decimal.RequireFromString("500.00"), MerchantName: "TESOURO SANDBOX", MerchantCity: "SAO PAULO", TxID: "TX1"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{
		brCode: bc,
		wallets: []api.Wallet{
			{ID: uuid.MustParse("11111111-1111-4111-8111-111111111111"), Alias: "Treasury cold", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"},
			{ID: uuid.MustParse("22222222-2222-4222-8222-222222222222"), Alias: "Market maker", WalletAddress: "0x8617E340B3D01FA5F11F306F4090FD50E238070D", WalletChain: "POLYGON"},
		},
		brl: []api.BRLAccount{{ID: uuid.MustParse("33333333-3333-4333-8333-333333333333"), Alias: "Fornecedor", UserName: "Maria Silva", PixKey: "maria@example.com", PixKeyType: "EMAIL"}},
	}
	clk := screentest.NewClock(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC))
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Who acts is the journal's to stamp, as the root sets it.
	j.SetActor(journal.Actor{Profile: "demo", Env: string(ui.EnvSandbox)})
	s := &ui.Session{
		Env: ui.EnvSandbox, Profile: "demo", SandboxFunding: true, Account: sub,
		Access: &api.AccessInfo{Email: "op@example.com", AccountPermissions: perms}, Journal: j, Time: clk,
	}
	return drive(t, s, f, f)
}

// drive builds the screen for s asking svc; f is the fake behind svc, if
// one is (nil against the sandbox).
func drive(t *testing.T, s *ui.Session, svc Service, f *fake) *harness {
	t.Helper()
	m := New(s, svc).(*Screen)
	m.SetSize(100, 40)
	d := screentest.New(t, s, m)
	d.Run(m.Init())
	return &harness{t: t, m: m, f: f, d: d, s: s}
}

// switchTo is the quote screen built anew for account a, as an account
// switch builds it, on a service of its own.
func (h *harness) switchTo(a ui.Account) *harness {
	f := &fake{brCode: h.f.brCode, wallets: h.f.wallets, brl: h.f.brl}
	return drive(h.t, h.s.WithAccount(a), f, f)
}

// send gives the screen msg as it is, past the root's check of whose
// answer it is: the screen's own checks are what a test of it sees.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	h.d.Send(msg)
}

func (h *harness) keys(ks ...string) {
	h.t.Helper()
	h.d.Key(ks...)
}

func (h *harness) typeText(s string) {
	h.t.Helper()
	h.d.Type(s)
}

// advance moves the clock, firing the countdowns and polls that fall due.
func (h *harness) advance(by time.Duration) {
	h.t.Helper()
	h.d.Advance(by)
}

func (h *harness) screen() string { return ansi.Strip(h.m.View()) }

func (h *harness) want(texts ...string) {
	h.t.Helper()
	sc := h.screen()
	for _, s := range texts {
		if !strings.Contains(sc, s) {
			h.t.Fatalf("screen lacks %q:\n%s", s, sc)
		}
	}
}

// quote fills the form by keys: BRL/PIX → BRLA/POLYGON, amount, enter.
func (h *harness) quote(amount string) {
	h.t.Helper()
	h.fill(amount)
	h.keys("enter")
}

// fill fills the form by keys: BRL/PIX → BRLA/POLYGON, amount.
func (h *harness) fill(amount string) {
	h.t.Helper()
	h.keys("e")
	h.focusField(fOutMethod)
	h.keys("right") // INTERNAL → POLYGON
	h.focusField(fAmount)
	h.typeText(amount)
}

// focusField moves the focus down the form to the field id.
func (h *harness) focusField(id string) {
	h.t.Helper()
	f := h.m.entry.form
	at := func(id string) int { return slices.Index(f.Keys(), id) }
	if at(id) < 0 {
		h.t.Fatalf("field %s is not shown", id)
	}
	for f.FocusedKey() != id {
		key := "down"
		if at(id) < at(f.FocusedKey()) {
			key = "up" // the form does not wrap
		}
		h.keys(key)
	}
}

// onPicker reports whether a picker of the details has focus.
func (d *details) onPicker() bool { return d.form.Picker(d.form.FocusedKey()) != nil }

// toPicker tabs through the details form to its first picker.
func (h *harness) toPicker() {
	h.t.Helper()
	for range 40 {
		if h.m.details.onPicker() {
			return
		}
		h.keys("tab")
	}
	h.t.Fatalf("no picker in the details:\n%s", h.screen())
}

// ticketReq is the creation request of the intent under the
// confirmation, as payment.Send builds it.
func (h *harness) ticketReq() api.CreateTicketRequest {
	h.t.Helper()
	if h.m.confirm == nil {
		h.t.Fatalf("no confirmation:\n%s", h.screen())
	}
	req, err := h.m.confirm.in.TicketRequest(h.m.quote)
	if err != nil {
		h.t.Fatal(err)
	}
	return req
}

// ask presses k and returns the command the screen answers with, without
// running it: the request it makes is still in flight.
func (h *harness) ask(k string) tea.Cmd {
	h.t.Helper()
	_, cmd := h.m.Update(screentest.KeyPress(k))
	if cmd == nil {
		h.t.Fatalf("%q asked nothing:\n%s", k, h.screen())
	}
	return cmd
}

// toConfirmation runs the flow for amount up to the confirmation.
func (h *harness) toConfirmation(amount string) {
	h.t.Helper()
	h.quote(amount)
	h.keys("c")
	h.toPicker()
	h.keys("enter") // the own service wallet, then the confirmation
	if h.m.stage != stageConfirm {
		h.t.Fatalf("stage %v, want the confirmation:\n%s", h.m.stage, h.screen())
	}
}

func (h *harness) createCount() int {
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	return len(h.f.creates)
}

func TestQuoteToTicketJourney(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("500")
	if len(h.f.quotes) != 1 {
		t.Fatalf("%d quote requests, want 1", len(h.f.quotes))
	}
	qr := h.f.quotes[0]
	if qr.SubAccountID != sub.ID {
		t.Errorf("quote bound to %v, want the operated account %v", qr.SubAccountID, sub.ID)
	}
	if !qr.InputAmount.Valid || qr.InputAmount.Decimal.String() != "500" || qr.OutputAmount.Valid {
		t.Errorf("quote amounts in=%v out=%v, want inputAmount 500 only", qr.InputAmount, qr.OutputAmount)
	}
	if qr.OutputPaymentMethod != "POLYGON" || qr.InputPaymentMethod != "PIX" {
		t.Errorf("methods %s → %s", qr.InputPaymentMethod, qr.OutputPaymentMethod)
	}
	h.want("You send", "500.00 BRL", "They receive", "497.500000 BRLA", "In Fee", "1.00 BRL", "Conversion Fee", "Price", "1 BRL = ", "After fees", "1 BRL → 0.995000 BRLA", "15s")

	h.advance(3 * time.Second)
	h.want("12s")

	h.keys("c")
	if h.m.stage != stageDetails {
		t.Fatalf("stage %v after c, want the details", h.m.stage)
	}
	if !h.m.Busy() || !h.m.Capturing() {
		t.Error("the details stage must be busy and capturing")
	}
	ext := h.m.externalID
	if _, err := uuid.Parse(ext); err != nil {
		t.Fatalf("externalId %q is not a UUID", ext)
	}
	h.want("External id", ext, "To wallet")
	// The wallet picker comes after the externalId and the PIX remitter.
	h.toPicker()
	h.want("Own service wallet", "Treasury cold", "Market maker")
	h.typeText("market")
	h.want("Market maker")
	if strings.Contains(h.screen(), "Treasury cold") {
		t.Fatal("filter did not hide the non-matching wallet")
	}
	h.keys("enter") // choose; last entry → confirmation
	if h.m.stage != stageConfirm {
		t.Fatalf("stage %v, want the confirmation:\n%s", h.m.stage, h.screen())
	}
	h.want("Confirm the ticket", "SANDBOX", "Filial Recife", sub.ID.String(), "500.00 BRL", "497.500000 BRLA",
		"Market maker", "0x8617E340B3D01FA5F11F306F4090FD50E238070D", "Seconds left", "12s", ext)

	// Anything but y goes back, sends nothing.
	h.keys("x")
	if h.m.stage != stageDetails || h.createCount() != 0 {
		t.Fatalf("a key other than y must go back without sending (stage %v, %d creations)", h.m.stage, h.createCount())
	}
	h.keys("enter", "y")
	if h.createCount() != 1 {
		t.Fatalf("%d creations, want 1", h.createCount())
	}
	c := h.f.creates[0]
	if c.account != sub.ID {
		t.Errorf("ticket sent for %v, want %v", c.account, sub.ID)
	}
	if c.req.QuoteToken != "token-1" || c.req.ExternalID != ext {
		t.Errorf("ticket body token=%q externalId=%q", c.req.QuoteToken, c.req.ExternalID)
	}
	if c.req.TicketBrlPixInput == nil || c.req.TicketBlockchainOutput == nil || c.req.TicketBlockchainOutput.BeneficiaryWalletID.String() != "22222222-2222-4222-8222-222222222222" {
		t.Errorf("ticket blocks: %+v", c.req)
	}
	if c.req.TicketBrlPixOutput != nil || c.req.TicketBlockchainInput != nil || c.req.TicketMarkupInput != nil {
		t.Errorf("blocks the quote does not need were sent: %+v", c.req)
	}
	// Unpaid, the ticket still needs watching: quitting asks first.
	if h.m.stage != stageResult || !h.m.Busy() {
		t.Fatalf("stage %v busy %v after creating an unpaid ticket", h.m.stage, h.m.Busy())
	}
	h.want("Ticket created", "UNPAID", "Expires", "4m 57s", "PIX BR Code", h.f.brCode[:30], "▀")

	// y copies the verified code through OSC 52.
	h.d.Out = nil
	h.keys("y")
	if len(h.d.Out) == 0 {
		t.Fatal("y did not copy the BR Code")
	}

	// The journal has the creation, with its ids and amounts.
	entries, err := journal.ReadFile(h.s.Journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("%d journal entries, want 1", len(entries))
	}
	e := entries[0]
	if e.Outcome != "created" || e.IDs["externalId"] != ext || e.IDs["ticketId"] == "" || e.Account != sub.ID.String() || e.Profile != "demo" ||
		e.Amounts["input"] != "500.00 BRL PIX" || e.IDs["beneficiaryWalletId"] != "22222222-2222-4222-8222-222222222222" {
		t.Errorf("journal entry %+v", e)
	}
	if strings.Contains(fmt.Sprint(e), "token-1") {
		t.Error("the journal holds the quote token")
	}

	// Status followed: the next poll reads PAID with its tx hash.
	h.f.mu.Lock()
	h.f.ticket.Status = api.TicketPaid
	h.f.ticket.BlockchainReceiverInfo = &api.BlockchainReceiverInfo{TxHash: "0xabc123", WalletChain: "POLYGON"}
	h.f.mu.Unlock()
	h.advance(pollEvery)
	h.want("PAID", "0xabc123")

	// A new quote is a new intent.
	h.keys("n")
	h.m.quote = nil
	h.quote("500")
	h.keys("c")
	if h.m.externalID == ext {
		t.Error("a new conversion re-used the externalId of a created ticket")
	}
}

func TestExpiredQuoteIsNeverSent(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.toConfirmation("500")
	ext := h.m.externalID

	// 14.5 s later less than the safety margin is left: y must not send,
	// and without auto re-quote nothing renews it by itself.
	h.advance(14500 * time.Millisecond)
	h.keys("y")
	if h.createCount() != 0 {
		t.Fatal("a quote with less than the safety margin left was sent")
	}
	h.advance(time.Second)
	h.want("The quote expired: it cannot be confirmed", "r re-quote")
	if len(h.f.quotes) != 1 || h.m.stage != stageConfirm {
		t.Fatalf("%d quote requests, stage %v: want none renewed without auto re-quote, still confirming", len(h.f.quotes), h.m.stage)
	}
	h.keys("r")
	if len(h.f.quotes) != 2 {
		t.Fatalf("%d quote requests, want the re-quote r asked for", len(h.f.quotes))
	}
	h.want("The quote was renewed", "Before", "Now", "497.500000 BRLA", "497.002500 BRLA", "0.999")

	// Left to expire again while confirming with auto re-quote on: renewed
	// by the ticker.
	h.m.auto = true
	h.advance(16 * time.Second)
	if len(h.f.quotes) != 3 {
		t.Fatalf("%d quote requests, want a re-quote on expiry", len(h.f.quotes))
	}
	h.advance(armDelay)
	h.keys("y")
	if h.createCount() != 1 {
		t.Fatalf("%d creations after confirming the renewed quote, want 1", h.createCount())
	}
	c := h.f.creates[0]
	if c.req.QuoteToken != "token-3" || c.req.ExternalID != ext {
		t.Errorf("sent token %q externalId %q, want the renewed token and the same externalId %q", c.req.QuoteToken, c.req.ExternalID, ext)
	}
}

func TestExpiredQuoteCannotContinue(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("500")
	h.advance(15 * time.Second)
	h.want("expired")
	h.keys("c")
	if h.m.stage != stageForm {
		t.Fatal("an expired quote went on to the ticket details")
	}
	h.want("cannot become a ticket")
	// Auto re-quote renews it.
	h.keys("a")
	if len(h.f.quotes) != 2 {
		t.Fatalf("%d quote requests after turning auto re-quote on, want 2", len(h.f.quotes))
	}
	h.advance(15 * time.Second)
	if len(h.f.quotes) != 3 {
		t.Fatalf("%d quote requests after expiry with auto re-quote, want 3", len(h.f.quotes))
	}
}

func TestCheckLive(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := widget.Countdown{ID: "q", Deadline: start.Add(QuoteLife), Total: QuoteLife}
	for _, tc := range []struct {
		at   time.Duration
		live bool
	}{{0, true}, {13 * time.Second, true}, {14 * time.Second, true}, {14*time.Second + time.Millisecond, false}, {15 * time.Second, false}, {time.Hour, false}} {
		err := CheckLive(c, start.Add(tc.at))
		if (err == nil) != tc.live {
			t.Errorf("at +%v: live=%v, want %v", tc.at, err == nil, tc.live)
		}
	}
	if CheckLive(widget.Countdown{}, start) == nil {
		t.Error("a countdown without a deadline passed the guard")
	}
}

func TestServiceQuoteExpiredRequotesWithSameExternalID(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.f.createErrs = []error{&api.Error{Status: 400, Code: "QUOTE_EXPIRED", Message: "quote expired"}}
	h.created()
	if h.createCount() != 1 || len(h.f.quotes) != 1 {
		t.Fatalf("creations %d quotes %d: without auto re-quote the refusal must not re-quote by itself", h.createCount(), len(h.f.quotes))
	}
	h.want("nothing was created", "r for a new quote")
	h.keys("r")
	if len(h.f.quotes) != 2 {
		t.Fatalf("%d quotes after r, want 2", len(h.f.quotes))
	}
	h.want("The quote was renewed")
	h.advance(armDelay)
	h.keys("y")
	if h.createCount() != 2 || h.f.creates[1].req.ExternalID != h.f.creates[0].req.ExternalID || h.f.creates[1].req.QuoteToken != "token-2" {
		t.Fatalf("retry: %+v", h.f.creates)
	}
}

func TestFailedCreationRetriesWithSameExternalID(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.f.createErrs = []error{&api.Error{Status: 503, Code: "UNAVAILABLE", Message: "try later"}}
	h.created()
	h.want("The ticket was not created", "try later")
	h.keys("y")
	if h.createCount() != 2 || h.f.creates[0].req.ExternalID != h.f.creates[1].req.ExternalID {
		t.Fatalf("the retry of the same intent must re-use the externalId: %+v", h.f.creates)
	}
	entries, _ := journal.ReadFile(h.s.Journal.Path())
	if len(entries) != 2 || !strings.HasPrefix(entries[0].Outcome, "error:") || entries[1].Outcome != "created" {
		t.Fatalf("journal %+v", entries)
	}
}

func TestParkedTicketShowsSentForApproval(t *testing.T) {
	perms := operatorPerms()
	perms.OperationRequester = true
	perms.OperationApprover = true // o opens Approvals, where an approver sees it
	h := newHarness(t, perms)
	h.f.parked = true
	h.created()
	h.want("Sent for approval", "0b6a4e2e-6d5e-4c3f-9a1b-2c3d4e5f6a7b", "0/2")
	h.d.Out = nil
	h.keys("o")
	var nav *ui.NavigateMsg
	for _, m := range h.d.Out {
		if n, ok := m.(ui.NavigateMsg); ok {
			nav = &n
		}
	}
	if nav == nil || nav.Screen != "approvals" || nav.ID != "0b6a4e2e-6d5e-4c3f-9a1b-2c3d4e5f6a7b" {
		t.Fatalf("o navigated to %+v, want the approvals screen on the operation", nav)
	}
	entries, _ := journal.ReadFile(h.s.Journal.Path())
	if len(entries) != 1 || entries[0].Outcome != "parked" || entries[0].IDs["operationId"] == "" {
		t.Fatalf("journal %+v", entries)
	}
}

func TestRestrictedCannotReachAPIXPayout(t *testing.T) {
	h := newHarness(t, api.Permissions{Convert: true, EnforceAllowedBeneficiaries: true})
	h.keys("e")
	h.m.entry.form.SetValue(fInCurrency, "BRLA")
	h.m.entry.form.SetValue(fOutCurrency, "BRL")
	h.m.entry.form.SetValue(fAmount, "100")
	h.keys("enter")
	if len(h.f.quotes) != 1 {
		t.Fatal("no quote asked")
	}
	h.want("Cannot continue", "payOut")
	h.keys("c")
	if h.m.stage != stageForm {
		t.Fatal("an access without payOut reached the details of a PIX payout")
	}
	for _, b := range h.m.KeyMap() {
		if b.Help().Key == "c" && b.Enabled() {
			t.Error("continue offered in the key map without payOut")
		}
	}
	// Markup is not offered either.
	h.want("markup permission")
}

func TestAmountIsValidatedLocally(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	h.focusField(fAmount)
	h.typeText("1,234")
	h.keys("enter")
	if len(h.f.quotes) != 0 {
		t.Fatal("an amount that reads two ways was sent")
	}
	h.want("if 1,234", "means thousands, type 1234")
	for range 5 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.typeText("12,5")
	h.want("understood: 12.50 BRL you send")
	h.typeText("55")
	h.want("at most 2 decimals")
	// They receive: precision of the output currency (a token: 6).
	h.m.entry.form.SetValue(fMode, modeReceive)
	// "12,555" would be twelve thousand in Brazil: a token's six decimals
	// do not make it 12.555.
	h.want("if 12,555 means", "thousands, type 12555")
	h.typeText("0")
	h.want("understood: 12.555000 BRLA they receive")
	h.keys("enter")
	if len(h.f.quotes) != 1 || !h.f.quotes[0].OutputAmount.Valid || h.f.quotes[0].InputAmount.Valid {
		t.Fatalf("quotes %+v: want outputAmount only", h.f.quotes)
	}
}

func TestMarkupIsSentAsAFraction(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	h.m.entry.form.SetValue(fMarkup, "add")
	h.m.entry.form.SetValue(fAmount, "100")
	h.keys("enter")
	if len(h.f.quotes) != 0 {
		t.Fatal("a markup without any fee was sent")
	}
	h.want("a markup needs a percentage or a fixed fee")
	h.m.entry.form.SetValue(fMarkupPct, "0.5")
	h.keys("enter")
	if len(h.f.quotes) != 1 {
		t.Fatal("no quote asked")
	}
	q := h.f.quotes[0]
	if !q.MarkupFloatingFee.Valid || !q.MarkupFloatingFee.Decimal.Equal(decimal.RequireFromString("0.005")) || q.MarkupCurrency != "BRL" {
		t.Fatalf("markup sent as %v %q, want 0.005 BRL", q.MarkupFloatingFee, q.MarkupCurrency)
	}
}

func TestChainInputAsksForThePermit(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	h.m.entry.form.SetValue(fInCurrency, "BRLA")
	h.m.entry.form.SetValue(fInMethod, "POLYGON")
	h.m.entry.form.SetValue(fOutCurrency, "BRL")
	h.m.entry.form.SetValue(fAmount, "100")
	h.want("Send method")
	h.keys("enter")
	if h.f.quotes[0].BlockchainSendMethod != "PERMIT" {
		t.Fatalf("send method %q, want PERMIT", h.f.quotes[0].BlockchainSendMethod)
	}
	h.keys("c")
	h.want("Sending wallet", "Signature", "Permit r", "PIX beneficiary")
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if h.m.stage != stageDetails {
		t.Fatal("details without a wallet were accepted")
	}
	h.want("✗")
	f := h.m.details.form
	f.SetValue(dWallet, "0x52908400098527886E0F7030069857D2E4169EE7")
	f.SetValue(dPermitR, "0x"+strings.Repeat("ab", 32))
	f.SetValue(dPermitS, "0x"+strings.Repeat("cd", 32))
	f.SetValue(dPermitV, "27")
	f.SetValue(dPermitNonce, "0")
	f.SetValue(dPermitDeadline, fmt.Sprint(h.s.Now().Add(-time.Minute).Unix()))
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	h.want("has passed")
	f.SetValue(dPermitDeadline, fmt.Sprint(h.s.Now().Add(time.Hour).Unix()))
	f.SetValue(dBeneficiary, h.m.details.picker().All[0].ID.String())
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if h.m.stage != stageConfirm {
		t.Fatalf("stage %v:\n%s", h.m.stage, h.screen())
	}
	req := h.ticketReq()
	in := req.TicketBlockchainInput
	if in == nil || in.Permit == nil || in.Personal != nil || in.Permit.V != 27 || req.TicketBrlPixOutput == nil {
		t.Fatalf("ticket body %+v", req)
	}
	h.want("Maria Silva", "maria@example.com")
}

func TestBadBRCodeIsNeverShown(t *testing.T) {
	h := newHarness(t, operatorPerms())
	good := h.f.brCode
	h.f.brCode = good[:len(good)-4] + "0000" // wrong CRC
	if good[len(good)-4:] == "0000" {
		h.f.brCode = good[:len(good)-4] + "FFFF"
	}
	h.created()
	h.want("failed its check", "Do not pay")
	if strings.Contains(h.screen(), h.f.brCode[:30]) || strings.Contains(h.screen(), "▀") {
		t.Fatal("a BR Code with a bad CRC was displayed")
	}
	h.d.Out = nil
	h.keys("y")
	for _, m := range h.d.Out {
		if fmt.Sprint(m) == fmt.Sprint(tea.SetClipboard(h.f.brCode)()) {
			t.Fatal("a BR Code with a bad CRC was copied")
		}
	}
}

func TestSandboxFunding(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("5000")
	h.keys("c")
	h.toPicker()
	h.keys("enter", "y", "f")
	if h.f.funded != 1 {
		t.Fatalf("funded %d times, want 1", h.f.funded)
	}
	h.want("PROCESSING")
	entries, _ := journal.ReadFile(h.s.Journal.Path())
	if len(entries) != 2 || entries[1].Action != "sandbox-fund-ticket" {
		t.Fatalf("journal %+v", entries)
	}
	h.keys("f")
	if h.f.funded != 1 {
		t.Fatal("a ticket no longer pending was funded again")
	}
}

func TestEveryStageFitsSmallTerminals(t *testing.T) {
	h := newHarness(t, operatorPerms())
	check := func(stage string) {
		for _, sz := range [][2]int{{40, 12}, {100, 32}, {20, 5}, {1, 1}, {0, 0}, {60, 3}} {
			h.m.SetSize(sz[0], sz[1])
			out := h.m.View()
			if sz[0] == 0 || sz[1] == 0 {
				if out != "" {
					t.Errorf("%s at %v: want nothing drawn", stage, sz)
				}
				continue
			}
			lines := strings.Split(out, "\n")
			if len(lines) != sz[1] {
				t.Errorf("%s at %v: %d lines", stage, sz, len(lines))
			}
			for _, l := range lines {
				if w := widthOf(l); w > sz[0] {
					t.Errorf("%s at %v: line %d cells wide: %q", stage, sz, w, ansi.Strip(l))
				}
			}
		}
		h.m.SetSize(40, 12)
	}
	check("empty form")
	h.m.SetSize(40, 12)
	h.quote("500")
	check("quote")
	h.keys("c")
	check("details")
	h.toPicker()
	check("picker")
	h.keys("enter")
	check("confirm")
	h.readConfirmation()
	h.keys("y")
	check("result")
	h.m.SetSize(40, 12)
	if !strings.Contains(ansi.Strip(h.m.View()), "Ticket created") {
		t.Errorf("result at 40×12 does not start with the outcome:\n%s", ansi.Strip(h.m.View()))
	}
}

func TestCapturingOnlyWhileTyping(t *testing.T) {
	h := newHarness(t, operatorPerms())
	if h.m.Capturing() || h.m.Busy() {
		t.Fatal("the idle form must neither capture keys nor be busy")
	}
	h.keys("e")
	if !h.m.Capturing() {
		t.Fatal("editing the form must capture keys")
	}
	h.typeText("q")
	if h.m.entry.form.Value(h.m.entry.form.FocusedKey()) == "BRL" {
		t.Fatal("typed text did not reach the field")
	}
	h.keys("esc")
	if h.m.Capturing() {
		t.Fatal("esc must leave the form")
	}
}

func TestEditingTheFormDropsTheQuote(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("500")
	if h.m.quote == nil {
		t.Fatal("no quote")
	}
	h.keys("e")
	h.focusField(fAmount)
	h.typeText("0")
	if h.m.quote != nil {
		t.Fatal("the quote of 500 stayed on screen after the amount became 5000")
	}
	h.keys("esc", "c")
	if h.m.stage != stageForm {
		t.Fatal("continued without a quote for the form as it stands")
	}
	h.keys("enter")
	if got := h.f.quotes[len(h.f.quotes)-1].InputAmount.Decimal.String(); got != "5000" {
		t.Fatalf("re-quoted %s, want 5000", got)
	}
}

func TestFocusedChoiceStaysOnItsLine(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e") // the first field, the input currency, is a choice
	for _, sz := range [][2]int{{100, 30}, {80, 24}, {140, 30}, {40, 12}} {
		h.m.SetSize(sz[0], sz[1])
		var line string
		for _, l := range strings.Split(ansi.Strip(h.m.View()), "\n") {
			if strings.Contains(l, "Input currency") {
				line = l
			}
			if strings.HasPrefix(strings.TrimSpace(l), "▸") {
				t.Errorf("%v: the choice arrow wrapped onto its own line:\n%s", sz, ansi.Strip(h.m.View()))
			}
		}
		if !strings.Contains(line, "◂ BRL") || !strings.Contains(line, "▸") || strings.Contains(line, "…") {
			t.Errorf("%v: the focused choice is not whole on its line: %q", sz, line)
		}
	}
}

func TestConfirmationNamesTheServiceWithoutAProfile(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.s.Profile, h.s.Label = "", "sandbox (creds.json)"
	h.toConfirmation("500")
	h.want("SANDBOX · sandbox (creds.json)")
	if strings.Contains(h.screen(), "profile —") {
		t.Errorf("the confirmation shows an empty profile instead of the service:\n%s", h.screen())
	}
}

func TestDetailsHintNamesTheKeyThatReviews(t *testing.T) {
	h := newHarness(t, operatorPerms())
	// BRL PIX → BRLA INTERNAL: every detail is optional, so review may
	// start from the first field.
	h.keys("e")
	h.focusField(fAmount)
	h.typeText("500")
	h.keys("enter", "c")
	if h.m.stage != stageDetails {
		t.Fatalf("stage %v, want the details:\n%s", h.m.stage, h.screen())
	}
	var review key.Binding
	for _, b := range h.m.KeyMap() {
		if b.Enabled() && b.Help().Desc == "review and confirm" {
			review = b
		}
	}
	if review.Help().Key != "ctrl+s" {
		t.Fatalf("the review hint names %q; enter on the first field only moves on", review.Help().Key)
	}
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if h.m.stage != stageConfirm {
		t.Fatalf("the hinted key did not review: stage %v", h.m.stage)
	}
}

func TestLongFieldTextContinuesUnderItself(t *testing.T) {
	perms := operatorPerms()
	perms.Markup = false // the markup field then says why, at length
	h := newHarness(t, perms)
	h.keys("e")
	h.m.SetSize(100, 30)
	lines := strings.Split(ansi.Strip(h.m.View()), "\n")
	for i, l := range lines {
		if i == 0 || strings.TrimSpace(l) == "" {
			continue
		}
		// Every line of the form column starts with the focus marker or
		// an indent: nothing wraps back to the left edge.
		if !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "›") && !strings.HasPrefix(l, "↑") && !strings.HasPrefix(l, "Quote builder") {
			t.Errorf("line %d wrapped to the left edge: %q\\n%s", i, l, strings.Join(lines, "\\n"))
		}
	}
}

// A picker whose list did not load says why and how to ask again; the next
// list clears that. A list answering after the details closed is dropped.
func TestPickerSaysWhyItsListDidNotLoad(t *testing.T) {
	if fillPicker(nil, "the beneficiaries", nil, nil) {
		t.Fatal("a list for no picker was taken")
	}
	var closed *details
	if closed.picker() != nil || closed.markupPicker() != nil {
		t.Fatal("closed details offer a picker")
	}
	p := form.NewPicker(dBeneficiary, "Beneficiary")
	if !fillPicker(p, "the beneficiaries", fmt.Errorf("list beneficiaries: %w", api.ErrForbidden), nil) {
		t.Fatal("the picker did not take its answer")
	}
	if !strings.HasPrefix(p.LoadErr, "could not load the beneficiaries: ") || !strings.HasSuffix(p.LoadErr, " (esc and continue again to retry)") || p.Loading {
		t.Fatalf("LoadErr %q, loading %v", p.LoadErr, p.Loading)
	}
	opts := []form.Option{{ID: uuid.New(), Title: "Treasury cold"}}
	fillPicker(p, "the beneficiaries", nil, opts)
	if p.LoadErr != "" || len(p.All) != 1 || p.All[0].Title != "Treasury cold" {
		t.Fatalf("after a list came: LoadErr %q, options %+v", p.LoadErr, p.All)
	}
}

// TestALockedRailIsMarkedBeforeAnyPrice: a fiat rail the account may not
// use (its metadata, service.md §8.7) is marked on the currency that takes
// it, and no quote is asked for; another rail quotes as before.
func TestALockedRailIsMarkedBeforeAnyPrice(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.f.more.rails = &api.AccountMetadata{BrlUnlocked: true, UsdUnlocked: false, EurUnlocked: true, ArsUnlocked: true, CopUnlocked: true}
	h.d.Run(h.m.Init())
	h.keys("e")
	h.m.entry.form.SetValue(fInCurrency, "USDC")
	h.m.entry.form.SetValue(fOutCurrency, "USD")
	h.m.entry.form.SetValue(fAmount, "100")
	h.keys("enter")
	if len(h.f.quotes) != 0 {
		t.Fatalf("a quote on the locked USD rail was asked for: %+v", h.f.quotes)
	}
	h.want("the USD rail is locked for this account")
	h.m.entry.form.SetValue(fOutCurrency, "BRL")
	h.keys("enter")
	if len(h.f.quotes) != 1 || h.f.quotes[0].OutputCurrency != "BRL" {
		t.Fatalf("quotes %+v: want the BRL one", h.f.quotes)
	}
	if strings.Contains(h.screen(), "rail is locked") {
		t.Errorf("the mark stayed on an open rail:\n%s", h.screen())
	}
}

// TestAnotherAccountsRailsAreNotTaken: the rails read for another account
// (a screen replaced by an account switch) never mark this account's form.
func TestAnotherAccountsRailsAreNotTaken(t *testing.T) {
	a := newHarness(t, operatorPerms())
	a.f.more.rails = &api.AccountMetadata{BrlUnlocked: true} // every other rail locked
	b := a.switchTo(ui.Account{Name: "Main"})                // its own service: every rail open
	staletest.AnotherAccount{FromA: []tea.Cmd{a.m.Init()}, B: b.d, Own: b.m.Init(),
		Held: func() string { return fmt.Sprintf("%+v", b.m.rails) },
		Then: func(t *testing.T, _ *screentest.Driver) {
			b.keys("e")
			b.m.entry.form.SetValue(fInCurrency, "USDC")
			b.m.entry.form.SetValue(fOutCurrency, "USD")
			b.m.entry.form.SetValue(fAmount, "100")
			b.keys("enter")
			if len(b.f.quotes) != 1 || strings.Contains(b.screen(), "rail is locked") {
				t.Fatalf("B's open USD rail was marked by A's answer (quotes %d):\n%s", len(b.f.quotes), b.screen())
			}
		}}.Check(t)
}
