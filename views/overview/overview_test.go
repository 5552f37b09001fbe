package overview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// fake is the service as the Overview sees it.
type fake struct {
	mu        sync.Mutex
	balances  map[uuid.UUID]api.Balances
	tickets   []api.Ticket
	ops       []api.Operation
	asked     []uuid.UUID // accounts whose balances were asked for
	opsCalled int
	info      map[uuid.UUID]*api.AccountDetails
	limits    map[uuid.UUID]*api.AccountLimits
	limitsN   int
	amounts   []string // amounts BR Codes were asked for
	// gone makes every read go unanswered, as when the service stopped.
	gone  error
	rails map[uuid.UUID]*api.AccountMetadata
	// bank is each account's own BRL bank account (bank_test.go).
	bank map[uuid.UUID]*api.OwnBRLAccount
}

func (f *fake) Metadata(_ context.Context, sub uuid.UUID) (*api.AccountMetadata, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m, ok := f.rails[sub]; ok {
		c := *m
		return &c, nil
	}
	return nil, errors.New("no such account")
}

func (f *fake) StaticBrCode(_ context.Context, sub uuid.UUID, amount, label, data string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.amounts = append(f.amounts, amount)
	if amount == "0.01" {
		return "", errors.New("400 INVALID_FIELD: amount below the minimum")
	}
	return amountCode, nil
}

func (f *fake) AccountDetails(_ context.Context, sub uuid.UUID) (*api.AccountDetails, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.info[sub]; ok {
		c := *d
		return &c, nil
	}
	return nil, errors.New("no such account")
}

func (f *fake) Limits(_ context.Context, sub uuid.UUID) (*api.AccountLimits, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limitsN++
	if l, ok := f.limits[sub]; ok {
		c := *l
		c.LimitInfo.Limits = slices.Clone(l.LimitInfo.Limits)
		return &c, nil
	}
	return nil, errors.New("no such account")
}

// setUsedFiatOut makes what the main account used of its BRL fiat-out limit
// amount.
func (f *fake) setUsedFiatOut(amount string) {
	f.mu.Lock()
	f.limits[uuid.Nil].LimitInfo.Limits[0].UsedLimit.UsedFiatOut = dec(amount)
	f.mu.Unlock()
}

// limitsOf is a month of limits: BRL used 500 of 50,000 out by PIX, USDC
// 10 of 1,000 out to chains, USD 1,999.99 of 2,000 out (not held), EURC
// nothing (not held: not shown).
func limitsOf(max string) *api.AccountLimits {
	used := func(fiatOut, chainOut string) api.UsedLimit {
		return api.UsedLimit{Year: 2026, Month: 11, UsedFiatOut: dec(fiatOut), UsedChainOut: dec(chainOut)}
	}
	m := dec(max)
	return &api.AccountLimits{LimitInfo: api.LimitInfo{Limits: []api.Limit{
		{Currency: "BRL", MaxFiatIn: m, MaxFiatOut: m, MaxChainIn: m, MaxChainOut: m, UsedLimit: used("500", "0")},
		{Currency: "USDC", MaxFiatIn: m, MaxFiatOut: m, MaxChainIn: dec("1000"), MaxChainOut: dec("1000"), UsedLimit: used("0", "10")},
		{Currency: "USD", MaxFiatIn: dec("2000"), MaxFiatOut: dec("2000"), MaxChainIn: m, MaxChainOut: m, UsedLimit: used("1999.99", "0")},
		{Currency: "EURC", MaxFiatIn: m, MaxFiatOut: m, MaxChainIn: m, MaxChainOut: m, UsedLimit: used("0", "0")},
	}}}
}

var _ Service = (*fake)(nil)

func (f *fake) Balances(_ context.Context, sub uuid.UUID) (api.Balances, error) {
	if f.gone != nil {
		return nil, f.gone
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, sub)
	return f.balances[sub], nil
}

func (f *fake) ListTickets(_ context.Context, flt api.TicketFilter) (api.Page[api.Ticket], error) {
	if f.gone != nil {
		return api.Page[api.Ticket]{}, f.gone
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []api.Ticket
	for _, t := range f.tickets {
		if t.WorkspaceID == flt.SubAccountID {
			out = append(out, t)
		}
	}
	return api.Page[api.Ticket]{Items: out}, nil
}

func (f *fake) ListApproverOperations(context.Context, string) (api.Page[api.Operation], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opsCalled++
	return api.Page[api.Operation]{Items: f.ops}, nil
}

// setBalance makes the balance of BRL in account acct amount.
func (f *fake) setBalance(acct uuid.UUID, amount string) {
	f.mu.Lock()
	f.balances[acct] = api.Balances{"BRL": dec(amount)}
	f.mu.Unlock()
}

var subID = uuid.MustParse("0b5c2a34-0000-4000-8000-000000000002")

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func newFake() *fake {
	created := time.Date(2026, 11, 20, 14, 30, 0, 0, time.Local)
	return &fake{
		balances: map[uuid.UUID]api.Balances{
			uuid.Nil: {"BRL": dec("1234.5"), "USDC": dec("10.123456"), "BRLA": dec("9457.170326")},
			subID:    {"BRL": dec("77.00")},
		},
		tickets: []api.Ticket{{
			ID: uuid.MustParse("7d1f0000-0000-4000-8000-000000000001"), Status: api.TicketPaid,
			CreatedAt: api.NewTime(created),
			Quote:     api.TicketQuote{InputCurrency: "BRL", InputAmount: dec("500"), OutputCurrency: "USDC", OutputAmount: dec("92.5")},
		}},
		ops: []api.Operation{{Status: api.OperationPending}, {Status: api.OperationPending}, {Status: api.OperationExecuted}},
		info: map[uuid.UUID]*api.AccountDetails{
			uuid.Nil: {PixKey: "pix@acme.example", BrCode: mainCode,
				Wallets: []api.AccountWallet{{Chain: "EVM", WalletAddress: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"}}},
			subID: {PixKey: "+5511988887777", BrCode: "00020126360014BR.GOV.BCB.PIX0114+551198888777752040000530398654040.005802BR5904ACME6009SAO PAULO62070503***6304ABCD",
				Wallets: []api.AccountWallet{{Chain: "POLYGON", WalletAddress: "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"}, {Chain: "TRON", WalletAddress: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE"}}},
		},
		limits: map[uuid.UUID]*api.AccountLimits{uuid.Nil: limitsOf("50000"), subID: limitsOf("5000")},
		bank:   map[uuid.UUID]*api.OwnBRLAccount{uuid.Nil: mainBank(), subID: subBank()},
		rails: map[uuid.UUID]*api.AccountMetadata{
			uuid.Nil: {BrlUnlocked: true, UsdUnlocked: true, EurUnlocked: true, ArsUnlocked: true, CopUnlocked: true},
			subID:    {BrlUnlocked: true, UsdUnlocked: false, EurUnlocked: true, ArsUnlocked: false, CopUnlocked: true},
		},
	}
}

// amountCode is the BR Code the fake makes for an amount.
const amountCode = "00020126380014BR.GOV.BCB.PIX0116pix@acme.example5204000053039865406150.005802BR5904ACME6009SAO PAULO62070503***6304ABCD"

// mainCode is the main account's static BR Code.
const mainCode = "00020126380014BR.GOV.BCB.PIX0116pix@acme.example5204000053039865802BR5904ACME6009SAO PAULO62070503***63041D3A"

func session(acc ui.Account, perms api.Permissions) *ui.Session {
	return &ui.Session{
		Env:     ui.EnvSandbox,
		Account: acc,
		Time:    screentest.NewClock(screentest.Epoch),
		Access:  &api.AccessInfo{Email: "approver1@demo.test", AccountPermissions: perms},
	}
}

// start drives the Overview of s on f at 100×26.
func start(t *testing.T, f *fake, s *ui.Session) *screentest.Driver {
	t.Helper()
	return screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, f) }, 100, 26)
}

var approver = api.Permissions{OperationApprover: true}

func TestOverviewShowsBalancesApprovalsTicketsAndAccess(t *testing.T) {
	v := start(t, newFake(), session(ui.Account{}, approver)).PlainView()
	for _, want := range []string{
		"1,234.50", "9,457.170326", "10.123456", // exact amounts at each currency's precision
		"2 pending", // only PENDING operations count
		"500.00 BRL", "92.500000 USDC", "PAID",
		"approver1@demo.test", "approver",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("overview lacks %q:\n%s", want, v)
		}
	}
	// Catalogue order: BRL before BRLA before USDC.
	if strings.Index(v, "1,234.50") > strings.Index(v, "9,457.170326") || strings.Index(v, "9,457.170326") > strings.Index(v, "10.123456") {
		t.Errorf("balances are not in catalogue order:\n%s", v)
	}
}

func TestOverviewShowsTheOperatedAccountOnly(t *testing.T) {
	f := newFake()
	v := start(t, f, session(ui.Account{ID: subID, Name: "Acme"}, api.Permissions{})).PlainView()
	if !strings.Contains(v, "77.00") || strings.Contains(v, "1,234.50") {
		t.Errorf("balances are not the sub-account's:\n%s", v)
	}
	if len(f.asked) != 1 || f.asked[0] != subID {
		t.Errorf("balances asked for %v", f.asked)
	}
	if !strings.Contains(v, "not an approver") || f.opsCalled != 0 {
		t.Errorf("a non-approver must not read the inbox (calls %d):\n%s", f.opsCalled, v)
	}
}

// TestLateAnswersForAnotherAccountAreDropped delivers the balances,
// tickets, rails and pending count asked by the Overview of the main account, and
// the firing of its refresh, into the Overview rebuilt for a sub-account,
// before and after its own answers: it shows only its own.
func TestLateAnswersForAnotherAccountAreDropped(t *testing.T) {
	fa := newFake()
	fa.ops = append(fa.ops, api.Operation{Status: api.OperationPending}, api.Operation{Status: api.OperationPending})
	sa := session(ui.Account{}, approver)
	sb := sa.WithAccount(ui.Account{ID: subID, Name: "Acme"})
	d := screentest.New(t, sb, New(sb, newFake()))
	d.Screen.SetSize(100, 26)
	staletest.AnotherAccount{FromA: []tea.Cmd{New(sa, fa).Init()}, Timers: true, B: d, Own: d.Screen.Init(),
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "1,234.50") || strings.Contains(v, "4 pending") || !strings.Contains(v, "77.00") || !strings.Contains(v, "2 pending") ||
				strings.Contains(v, "pix@acme.example") || strings.Contains(v, "0x5aAeb") || strings.Contains(v, "49,500.00") ||
				!strings.Contains(v, "+5511988887777") || !strings.Contains(v, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359") || !strings.Contains(v, "4,500.00") ||
				strings.Contains(v, "unlocked BRL USD") || !strings.Contains(v, "locked USD ARS") ||
				strings.Contains(v, "52013-7") || !strings.Contains(v, "11873-4") {
				t.Fatalf("B shows A's figures, or not its own:\n%s", v)
			}
		}}.Check(t)
}

// TestOlderLoadNeverOverwritesTheLatest presses r twice and answers the
// second load first: the first, arriving last, is dropped.
func TestOlderLoadNeverOverwritesTheLatest(t *testing.T) {
	f := newFake()
	f.setBalance(uuid.Nil, "111")
	d := start(t, f, session(ui.Account{}, approver))
	d.Screen.SetSize(120, 40)
	staletest.OlderLoad{D: d, Ask: staletest.Key(d, "r"), Change: func() {
		f.setBalance(uuid.Nil, "222")
		f.setUsedFiatOut("1000")
		f.mu.Lock()
		f.info[uuid.Nil].PixKey = "new-key@acme.example"
		f.bank[uuid.Nil].HolderName = "Acme Nova Ltda"
		f.mu.Unlock()
	},
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "111.00") || !strings.Contains(v, "222.00") ||
				strings.Contains(v, "49,500.00") || !strings.Contains(v, "49,000.00") || !strings.Contains(v, "new-key@acme.example") ||
				!strings.Contains(v, "Acme Nova Ltda") {
				t.Fatalf("the latest load is not shown:\n%s", v)
			}
		}}.Check(t)
}

func TestRefreshesEveryThirtySecondsOnItsOwnClock(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, api.Permissions{}))
	f.setBalance(uuid.Nil, "555")
	d.Advance(refreshEvery - time.Second)
	if v := d.PlainView(); !strings.Contains(v, "1,234.50") || len(f.asked) != 1 {
		t.Fatalf("refreshed early (asked %d):\n%s", len(f.asked), v)
	}
	// The refresh armed by the screen of another session is not this one's.
	other := New(d.Session.WithAccount(ui.Account{ID: subID}), newFake()).(*Screen)
	for _, fired := range staletest.Fired(other.scheduleRefresh()) {
		d.Send(fired)
	}
	if len(f.asked) != 1 {
		t.Fatalf("another screen's refresh reloaded this one (asked %d)", len(f.asked))
	}
	d.Advance(time.Second)
	if v := d.PlainView(); !strings.Contains(v, "555.00") {
		t.Fatalf("not refreshed after %s:\n%s", refreshEvery, v)
	}
	d.Advance(refreshEvery)
	if len(f.asked) != 3 {
		t.Fatalf("balances asked %d times after two periods, want 3", len(f.asked))
	}
}

// Behind another screen the Overview does not reload on its own; shown
// again after a refresh came due, it reloads at once, and every period
// after that.
func TestRefreshWaitsWhileAnotherScreenIsShown(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, api.Permissions{}))
	d.Send(ui.ShownMsg{Screen: "tickets"})
	d.Advance(3 * refreshEvery)
	if len(f.asked) != 1 {
		t.Fatalf("balances asked %d times behind another screen, want the first load only", len(f.asked))
	}
	f.setBalance(uuid.Nil, "555")
	d.Send(ui.ShownMsg{Screen: "overview"})
	if v := d.PlainView(); !strings.Contains(v, "555.00") || len(f.asked) != 2 {
		t.Fatalf("not reloaded when shown again (asked %d):\n%s", len(f.asked), v)
	}
	d.Advance(refreshEvery)
	if len(f.asked) != 3 {
		t.Fatalf("balances asked %d times a period after being shown again, want 3", len(f.asked))
	}
	// Shown again before a refresh came due: nothing to reload yet.
	d.Send(ui.ShownMsg{Screen: "tickets"})
	d.Send(ui.ShownMsg{Screen: "overview"})
	if len(f.asked) != 3 {
		t.Fatalf("reloaded on being shown with fresh figures (asked %d)", len(f.asked))
	}
}

func TestOverviewOpensAndCopiesTheSelectedTicket(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, api.Permissions{}))
	d.Key("enter")
	if len(d.Navs) != 1 || d.Navs[0].Screen != "tickets" || d.Navs[0].ID != f.tickets[0].ID.String() {
		t.Errorf("enter navigated to %+v", d.Navs)
	}
}

func TestOverviewFitsSmallWindows(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, approver))
	sc := d.Screen
	for _, sz := range [][2]int{{40, 7}, {79, 20}, {80, 20}, {20, 3}, {1, 1}, {0, 0}} {
		sc.SetSize(sz[0], sz[1])
		v := ui.Fit(sc.View(), sz[0], sz[1])
		for _, l := range strings.Split(v, "\n") {
			if lipgloss.Width(l) > sz[0] {
				t.Errorf("%dx%d: line too wide: %q", sz[0], sz[1], ansi.Strip(l))
			}
		}
	}
	sc.SetSize(80, 20)
	if v := d.PlainView(); !strings.Contains(v, "Latest tickets") || !strings.Contains(v, "Balances") {
		t.Errorf("two-column layout lost a block:\n%s", v)
	}
}

func TestOverviewNeverCutsTicketAmounts(t *testing.T) {
	f := newFake()
	f.tickets[0].Quote.InputAmount = dec("32229.319218")
	f.tickets[0].Quote.InputCurrency = "USDC"
	f.tickets[0].Quote.OutputAmount = dec("39311.603358")
	d := start(t, f, session(ui.Account{}, approver))
	for _, w := range []int{79, 80, 90, 99, 100, 120} {
		d.Screen.SetSize(w, 30)
		v := d.PlainView()
		for _, want := range []string{"32,229.319218 USDC", "39,311.603358 USDC"} {
			if !strings.Contains(v, want) {
				t.Errorf("%d columns: the latest tickets cut %q:\n%s", w, want, v)
			}
		}
	}
}

// TestOverviewShowsHowTheAccountReceivesAndItsLimits: the static PIX key,
// the deposit wallet with its EIP-55 checksum, and this month's limits of
// the currencies held or used, with what is left.
func TestOverviewShowsHowTheAccountReceivesAndItsLimits(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, approver))
	d.Screen.SetSize(120, 40)
	v := d.PlainView()
	for _, want := range []string{
		"Receive", "PIX key", "pix@acme.example", "p shows the QR",
		"EVM chains", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", // checksummed, as a payer's wallet checks it
		"Limits this month · November 2026",
		"BRL   fiat out", "500.00", "49,500.00",
		"USDC  chain out", "10.000000", "990.000000",
		"USD   fiat out", "1,999.99", "0.01", // not held, but used this month
		"Latest tickets", "500.00 BRL",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("overview lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "EURC") || strings.Contains(v, "BRL   chain") {
		t.Errorf("a limit neither held nor used, or a rail the currency does not use, is shown:\n%s", v)
	}
}

// TestOverviewShowsTheRailsUnlocked: the fiat rails the account may use,
// and the ones locked, from the account's metadata; each account its own.
func TestOverviewShowsTheRailsUnlocked(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, approver))
	d.Screen.SetSize(120, 40)
	if v := d.PlainView(); !strings.Contains(v, "Rails unlocked BRL USD EUR COP ARS") || strings.Contains(v, "locked USD") {
		t.Errorf("main account: every rail unlocked is not shown:\n%s", v)
	}
	d = start(t, newFake(), session(ui.Account{ID: subID, Name: "Filial"}, approver))
	d.Screen.SetSize(120, 40)
	if v := d.PlainView(); !strings.Contains(v, "Rails unlocked BRL EUR COP · locked USD ARS") {
		t.Errorf("sub-account: the locked rails are not shown:\n%s", v)
	}
	f := newFake()
	delete(f.rails, uuid.Nil)
	d = start(t, f, session(ui.Account{}, approver))
	d.Screen.SetSize(120, 40)
	if v := d.PlainView(); !strings.Contains(v, "Rails ✗") {
		t.Errorf("an unanswered metadata is not said:\n%s", v)
	}
}

// TestPShowsTheBRCodeAsAQR: p fills the screen with the static BR Code as
// a QR code, c copies the code, esc comes back; a window too small for a
// scannable code says so instead of drawing one.
func TestPShowsTheBRCodeAsAQR(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, approver))
	d.Screen.SetSize(100, 40)
	if strings.Contains(d.PlainView(), "▀") {
		t.Fatal("a QR code shows before p")
	}
	d.Key("p")
	v := d.PlainView()
	want, err := widget.QRFit(mainCode, 100, 37)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v, "Receive BRL by PIX") || !strings.Contains(v, "pix@acme.example") || !strings.Contains(v, ansi.Strip(strings.Split(want, "\n")[3])) {
		t.Fatalf("p does not show the QR of the static code:\n%s", v)
	}
	d.Key("c")
	if len(d.Out) == 0 {
		t.Error("c copied nothing")
	}
	d.Key("esc")
	if v := d.PlainView(); !strings.Contains(v, "Latest tickets") || strings.Contains(v, "Receive BRL by PIX") {
		t.Fatalf("esc did not close the QR:\n%s", v)
	}
	d.Screen.SetSize(40, 12)
	d.Key("p")
	if v := d.PlainView(); !strings.Contains(v, "too small") {
		t.Fatalf("a window too small for the QR is not said:\n%s", v)
	}
}

// TestAWriteReloadsTheLimitsUsed: a ticket created elsewhere in this
// account reloads what the month used.
func TestAWriteReloadsTheLimitsUsed(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, approver))
	d.Screen.SetSize(120, 40)
	n := f.limitsN
	f.setUsedFiatOut("50000")
	d.Send(ui.ChangedMsg{Account: subID, What: ui.ChangedTickets, By: "quote"})
	if f.limitsN != n {
		t.Fatal("another account's write reloaded the limits")
	}
	d.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets, By: "quote"})
	if v := d.PlainView(); !strings.Contains(v, "50,000.00") || strings.Contains(v, "49,500.00") {
		t.Fatalf("the limits used did not follow the write:\n%s", v)
	}
}

// TestAnAmountGivesTheQROfACodeCarryingIt: in the QR, a asks an amount;
// the service's code for it replaces the static one, a refusal is shown,
// and an empty amount comes back to the static code.
func TestAnAmountGivesTheQROfACodeCarryingIt(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, approver))
	d.Screen.SetSize(100, 40)
	d.Key("p", "a")
	if len(d.Prompts) != 1 {
		t.Fatalf("a asked nothing: %+v", d.Prompts)
	}
	p := d.Prompts[0]
	if p.Validate("0") == nil || p.Validate("abc") == nil || p.Validate("") != nil || p.Validate("150.00") != nil {
		t.Fatal("the amount prompt accepts a non-positive or non-numeric amount, or refuses empty")
	}
	d.Run(p.OnSubmit("150.00"))
	line := func(code string) string {
		qr, err := widget.QRFit(code, 100, 37)
		if err != nil {
			t.Fatal(err)
		}
		return ansi.Strip(strings.Split(qr, "\n")[3])
	}
	v := d.PlainView()
	if !slices.Equal(f.amounts, []string{"150.00"}) || !strings.Contains(v, "150.00 BRL") || !strings.Contains(v, line(amountCode)) || strings.Contains(v, line(mainCode)) {
		t.Fatalf("asked %v; the QR is not the code for 150.00:\n%s", f.amounts, v)
	}
	d.Key("a")
	d.Run(d.Prompts[1].OnSubmit("0.01"))
	if v := d.PlainView(); !strings.Contains(v, "amount below the minimum") {
		t.Fatalf("a refused amount is not said:\n%s", v)
	}
	d.Key("a")
	d.Run(d.Prompts[2].OnSubmit(""))
	if v := d.PlainView(); !strings.Contains(v, line(mainCode)) || !strings.Contains(v, "scan to pay any amount") {
		t.Fatalf("an empty amount did not bring the static code back:\n%s", v)
	}
	// The amount typed on another account's screen changes nothing here.
	_, typed := ui.Answer(d.Session.WithAccount(ui.Account{ID: subID}), typedAmount("9.99"))
	d.Send(typed())
	if len(f.amounts) != 2 {
		t.Fatalf("another screen's amount was asked for: %v", f.amounts)
	}
}

// TestAShortWindowKeepsTheLatestTickets: when the receive and limits
// blocks would leave the latest tickets too little room, the limits give
// way to a line saying where they are.
func TestAShortWindowKeepsTheLatestTickets(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, approver))
	d.Screen.SetSize(100, 18)
	v := d.PlainView()
	if !strings.Contains(v, "a taller window shows them") || !strings.Contains(v, "pix@acme.example") || !strings.Contains(v, "500.00 BRL") || strings.Contains(v, "49,500.00") {
		t.Fatalf("100x18: the tickets lost their room, or the limits are not said to be elsewhere:\n%s", v)
	}
	d.Screen.SetSize(100, 40)
	if v := d.PlainView(); !strings.Contains(v, "49,500.00") || !strings.Contains(v, "500.00 BRL") {
		t.Fatalf("100x40: limits or tickets missing:\n%s", v)
	}
}

// A panel whose refresh got no answer keeps its last good values, dimmed,
// with their time and age, and the layout does not change; each panel
// says as of when its values are.
func TestOverviewKeepsLastGoodValuesWhenTheServiceIsGone(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, approver))
	d.Screen.SetSize(120, 30)
	before := d.PlainView()
	if !strings.Contains(before, "  as of 14:00:00") || !strings.Contains(before, "Latest tickets · as of 14:00:00") || !strings.Contains(before, "Limits this month · November 2026 · as of 14:00:00") {
		t.Fatalf("a panel does not say as of when:\n%s", before)
	}
	f.gone = fmt.Errorf("GET /v2/account/balances: %w: connection refused", api.ErrNoAnswer)
	d.Advance(2 * time.Minute)
	d.Key("r")
	after := d.PlainView()
	for _, want := range []string{"as of 14:00:00, 2m ago, not refreshed", "9,457.17"} {
		if !strings.Contains(after, want) {
			t.Errorf("the last good values are not kept with their age (%q):\n%s", want, after)
		}
	}
	if strings.Contains(after, "✗") {
		t.Errorf("an error line took the place of the values:\n%s", after)
	}
	if len(strings.Split(after, "\n")) != len(strings.Split(before, "\n")) {
		t.Errorf("the layout changed")
	}
}

// A sub-account the access is blacklisted from is named, not shown by id:
// the accounts list leaves it out, and its name comes with the barred ones.
func TestBlacklistedSubAccountIsNamed(t *testing.T) {
	f := newFake()
	s := session(ui.Account{}, approver)
	barred := uuid.MustParse("0b0c5c1e-2a4b-4c8e-9a51-0d5e6f7a8b9c")
	s.Access.BlacklistedAccountIDs = []uuid.UUID{barred}
	s.Barred = []api.Account{{ID: barred, Name: "Filial Bloqueada"}}
	d := start(t, f, s)
	d.Screen.SetSize(120, 30)
	if v := d.PlainView(); !strings.Contains(v, "blacklisted: Filial Bloqueada") || strings.Contains(v, "0b0c5c1e") {
		t.Fatalf("the blacklisted sub-account is not named:\n%s", v)
	}
}
