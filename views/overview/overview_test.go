package overview

import (
	"context"
	"strings"
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
)

// fake is the service for these tests: api.Service embedded (nil), with the
// methods the Overview calls overridden.
type fake struct {
	api.Service
	balances  map[uuid.UUID]api.Balances
	tickets   []api.Ticket
	ops       []api.Operation
	asked     []uuid.UUID // accounts whose balances were asked for
	opsCalled int
}

func (f *fake) Balances(ctx context.Context, sub uuid.UUID) (api.Balances, error) {
	f.asked = append(f.asked, sub)
	return f.balances[sub], nil
}

func (f *fake) ListTickets(ctx context.Context, flt api.TicketFilter) (api.Page[api.Ticket], error) {
	var out []api.Ticket
	for _, t := range f.tickets {
		if t.WorkspaceID == flt.SubAccountID {
			out = append(out, t)
		}
	}
	return api.Page[api.Ticket]{Items: out}, nil
}

func (f *fake) ListApproverOperations(ctx context.Context, cursor string) (api.Page[api.Operation], error) {
	f.opsCalled++
	return api.Page[api.Operation]{Items: f.ops}, nil
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

func session(f *fake, acc ui.Account, perms api.Permissions) *ui.Session {
	return &ui.Session{
		Client:  f,
		Env:     ui.EnvSandbox,
		Account: acc,
		Access:  &api.AccessInfo{Email: "approver1@demo.test", AccountPermissions: perms},
	}
}

func TestOverviewShowsBalancesApprovalsTicketsAndAccess(t *testing.T) {
	f := newFake()
	sc := New(session(f, ui.Account{}, api.Permissions{OperationApprover: true}))
	sc.SetSize(100, 26)
	sc, _ = screentest.Run(t, sc, sc.Init())
	v := ansi.Strip(sc.View())
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
	sc := New(session(f, ui.Account{ID: subID, Name: "Acme"}, api.Permissions{}))
	sc.SetSize(100, 26)
	sc, _ = screentest.Run(t, sc, sc.Init())
	v := ansi.Strip(sc.View())
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

func TestOverviewDropsStaleAndForeignResults(t *testing.T) {
	f := newFake()
	m := New(session(f, ui.Account{}, api.Permissions{})).(*Screen)
	m.SetSize(100, 26)
	m.load()
	m.load() // a refresh: the first load is now stale
	m.Update(balancesMsg{inst: m.inst, seq: m.seq - 1, balances: api.Balances{"BRL": dec("1")}})
	if m.balLoaded {
		t.Fatal("a stale response was taken")
	}
	m.Update(balancesMsg{inst: m.inst + 1000, seq: m.seq, balances: api.Balances{"BRL": dec("1")}})
	if m.balLoaded {
		t.Fatal("another screen's response was taken")
	}
	m.Update(balancesMsg{inst: m.inst, seq: m.seq, balances: api.Balances{"BRL": dec("2")}})
	if !m.balLoaded || !m.balances["BRL"].Equal(dec("2")) {
		t.Fatal("the latest response was not taken")
	}
}

func TestOverviewOpensAndCopiesTheSelectedTicket(t *testing.T) {
	f := newFake()
	sc := New(session(f, ui.Account{}, api.Permissions{}))
	sc.SetSize(100, 26)
	sc, _ = screentest.Run(t, sc, sc.Init())
	_, msgs := screentest.Run(t, sc, func() tea.Msg { return tea.KeyPressMsg{Code: tea.KeyEnter} })
	var nav ui.NavigateMsg
	for _, m := range msgs {
		if n, ok := m.(ui.NavigateMsg); ok {
			nav = n
		}
	}
	if nav.Screen != "tickets" || nav.ID != f.tickets[0].ID.String() {
		t.Errorf("enter navigated to %+v", nav)
	}
}

func TestOverviewFitsSmallWindows(t *testing.T) {
	f := newFake()
	sc := New(session(f, ui.Account{}, api.Permissions{OperationApprover: true}))
	sc, _ = screentest.Run(t, sc, sc.Init())
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
	if v := ansi.Strip(sc.View()); !strings.Contains(v, "Latest tickets") || !strings.Contains(v, "Balances") {
		t.Errorf("two-column layout lost a block:\n%s", v)
	}
}

func TestOverviewNeverCutsTicketAmounts(t *testing.T) {
	f := newFake()
	f.tickets[0].Quote.InputAmount = dec("32229.319218")
	f.tickets[0].Quote.InputCurrency = "USDC"
	f.tickets[0].Quote.OutputAmount = dec("39311.603358")
	sc := New(session(f, ui.Account{}, api.Permissions{OperationApprover: true}))
	sc, _ = screentest.Run(t, sc, sc.Init())
	for _, w := range []int{79, 80, 90, 99, 100, 120} {
		sc.SetSize(w, 30)
		v := ansi.Strip(sc.View())
		for _, want := range []string{"32,229.319218 USDC", "39,311.603358 USDC"} {
			if !strings.Contains(v, want) {
				t.Errorf("%d columns: the latest tickets cut %q:\n%s", w, want, v)
			}
		}
	}
}
