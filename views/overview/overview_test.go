package overview

import (
	"context"
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
}

var _ Service = (*fake)(nil)

func (f *fake) Balances(_ context.Context, sub uuid.UUID) (api.Balances, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, sub)
	return f.balances[sub], nil
}

func (f *fake) ListTickets(_ context.Context, flt api.TicketFilter) (api.Page[api.Ticket], error) {
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
	}
}

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
// tickets and pending count asked by the Overview of the main account into
// the Overview rebuilt for a sub-account, before and after its own
// answers: it shows only its own.
func TestLateAnswersForAnotherAccountAreDropped(t *testing.T) {
	fa := newFake()
	fa.ops = append(fa.ops, api.Operation{Status: api.OperationPending}, api.Operation{Status: api.OperationPending})
	sa := session(ui.Account{}, approver)
	sb := sa.WithAccount(ui.Account{ID: subID, Name: "Acme"})
	d := screentest.New(t, sb, New(sb, newFake()))
	d.Screen.SetSize(100, 26)
	staletest.AnotherAccount{FromA: []tea.Cmd{New(sa, fa).Init()}, B: d, Own: d.Screen.Init(),
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "1,234.50") || strings.Contains(v, "4 pending") || !strings.Contains(v, "77.00") || !strings.Contains(v, "2 pending") {
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
	staletest.OlderLoad{D: d, Ask: staletest.Key(d, "r"), Change: func() { f.setBalance(uuid.Nil, "222") },
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "111.00") || !strings.Contains(v, "222.00") {
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
	d.Send(refreshMsg{s: d.Session.WithAccount(ui.Account{ID: subID})})
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
