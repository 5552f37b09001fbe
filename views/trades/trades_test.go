package trades

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

type fakeService struct {
	mu      sync.Mutex
	trades  []api.Trade
	queries []api.TradeFilter
}

func (f *fakeService) ListTrades(_ context.Context, q api.TradeFilter) (api.Page[api.Trade], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	return fakeservice.Page(f.trades, func(t api.Trade) bool { return q.Status == "" || string(t.Status) == q.Status }, q.Cursor, 0), nil
}

var now = time.Date(2026, 8, 20, 15, 0, 0, 0, time.UTC)

func makeTrades(n int) []api.Trade {
	out := make([]api.Trade, n)
	for i := range out {
		st := []api.TradeStatus{api.TradeSettled, api.TradePending, api.TradeCancelled}[i%3]
		t := api.Trade{
			ID: uuid.New(), Status: st,
			InputCurrency: "USDC", InputPaymentMethod: "INTERNAL", InputAmount: decimal.New(int64(500000+i), -2),
			OutputCurrency: "BRL", OutputPaymentMethod: "PIX", OutputAmount: decimal.New(int64(2700000+i), -2),
			BasePrice:       decimal.RequireFromString("5.4"),
			AppliedFees:     []api.TradeFee{{Type: "Conversion Fee", Description: "0.2%", Amount: decimal.RequireFromString("10.00"), Currency: "USDC"}},
			QuoteTokenID:    uuid.New(),
			SettlementTerms: "T+1",
			SettlementDate:  api.NewTime(now.Add(24 * time.Hour)),
			CreatedAt:       api.NewTime(now.Add(-time.Duration(i) * time.Hour)),
		}
		if st == api.TradeSettled {
			id := uuid.New()
			t.SettlementTicketID = &id
			t.SettledAt = api.NewTime(now)
		}
		out[i] = t
	}
	return out
}

// start drives the trades screen of a session of account "Main" in w×h
// cells, its first page loaded.
func start(t *testing.T, svc *fakeService, w, h int) (*Model, *screentest.Driver) {
	return startAs(t, session(), svc, w, h)
}

func session() *ui.Session {
	return &ui.Session{Time: screentest.NewClock(now), Account: ui.Account{ID: uuid.New(), Name: "Main"}}
}

func startAs(t *testing.T, s *ui.Session, svc *fakeService, w, h int) (*Model, *screentest.Driver) {
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, svc) }, w, h)
	return d.Screen.(*Model), d
}

func TestTradesPagingAndCount(t *testing.T) {
	svc := &fakeService{trades: makeTrades(75)}
	_, d := start(t, svc, 100, 20)
	if v := d.PlainView(); !strings.Contains(v, "50 loaded · more available") {
		t.Fatalf("count missing:\n%s", v)
	}
	d.Key("G")
	if v := d.PlainView(); !strings.Contains(v, "all 75 loaded") {
		t.Fatalf("end not reached:\n%s", v)
	}
	if svc.queries[1].Cursor != "50" {
		t.Fatalf("second page asked with cursor %q", svc.queries[1].Cursor)
	}
}

func TestTradesFilterQueryAndStaleDrop(t *testing.T) {
	svc := &fakeService{trades: makeTrades(30)}
	s := session()
	m := New(s, svc).(*Model)
	d := screentest.New(t, s, m)
	m.SetSize(100, 20)
	first := m.Init()
	d.Key("f")
	d.Type("settled")
	d.Key("tab")
	d.Type("2026-08-21")
	d.Key("tab")
	d.Type("2026-08-01")
	d.Key("tab")
	d.Type("2026-08-20")
	d.Key("enter")
	q := svc.queries[len(svc.queries)-1]
	d.Send(first()) // the unfiltered request answers late: dropped
	want := api.TradeFilter{Status: "SETTLED", SettlementDate: "2026-08-21",
		SubAccountID: s.Account.ID, CreatedAfter: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC), CreatedBefore: time.Date(2026, 8, 21, 0, 0, 0, 0, time.UTC)}
	if q != want {
		t.Fatalf("query\n got %+v\nwant %+v", q, want)
	}
	if got := m.list.Items(); len(got) != 10 {
		t.Fatalf("%d trades listed, want the 10 settled ones only", len(got))
	}
	for _, tr := range m.list.Items() {
		if tr.Status != api.TradeSettled {
			t.Fatalf("a %s trade from the stale answer is listed", tr.Status)
		}
	}
	// A bad status is refused in the form.
	d.Key("f")
	d.Type("X")
	d.Key("enter")
	if !m.Capturing() || !strings.Contains(d.PlainView(), "not a trade state") {
		t.Fatalf("bad status accepted:\n%s", d.PlainView())
	}
}

func TestTradeDetailAndJumpToTicket(t *testing.T) {
	svc := &fakeService{trades: makeTrades(6)}
	m, d := start(t, svc, 100, 40)
	d.Key("enter")
	tr := svc.trades[0]
	v := d.PlainView()
	for _, want := range []string{"Trade " + tr.ID.String(), "✓ SETTLED", "T+1", "5,000.000000 USDC via INTERNAL", "27,000.00 BRL via PIX",
		"Conversion Fee", "10.000000 USDC", tr.SettlementTicketID.String(), tr.QuoteTokenID.String()} {
		if !strings.Contains(v, want) {
			t.Fatalf("detail lacks %q:\n%s", want, v)
		}
	}
	d.Key("t")
	if len(d.Navs) != 1 || d.Navs[0] != (ui.NavigateMsg{Screen: "tickets", ID: tr.SettlementTicketID.String()}) {
		t.Fatalf("t gave %v, want navigation to the settlement ticket", d.Navs)
	}
	d.Key("esc", "j") // a PENDING trade: no settlement ticket
	if d.Key("t"); len(d.Navs) != 1 {
		t.Fatalf("t on a trade without settlement ticket gave %v", d.Navs)
	}
	for _, b := range m.KeyMap() {
		if b.Help().Desc == "settlement ticket" && b.Enabled() {
			t.Fatal("settlement ticket offered for a pending trade")
		}
	}
}

func TestTradesSmallSizes(t *testing.T) {
	svc := &fakeService{trades: makeTrades(20)}
	m, d := start(t, svc, 40, 12)
	for _, sz := range [][2]int{{40, 12}, {5, 2}, {0, 0}, {120, 50}} {
		m.SetSize(sz[0], sz[1])
		for _, keys := range [][]string{nil, {"enter"}, {"esc", "f"}, {"esc"}} {
			d.Key(keys...)
			screentest.CheckSize(t, m.View(), sz[0], sz[1])
		}
	}
}

// TestTradesDropAnotherAccountsPage: the screen of account A asks for its
// first page; the root rebuilds the screen for account B, which asks for
// its own; A's page answering late must not fill B's list, and B's own
// page still lands.
func TestTradesDropAnotherAccountsPage(t *testing.T) {
	svcA := &fakeService{trades: makeTrades(3)}
	a := session()
	ma := New(a, svcA).(*Model)
	ma.SetSize(100, 20)
	fromA := ma.Init() // captured, not run

	svcB := &fakeService{trades: makeTrades(2)}
	b := a.WithAccount(ui.Account{ID: uuid.New(), Name: "Other"})
	mb := New(b, svcB).(*Model)
	d := screentest.New(t, b, mb)
	mb.SetSize(100, 20)
	fromB := mb.Init()
	before := d.PlainView()
	d.Send(fromA()) // straight to the screen: its own check is tested
	if got := d.PlainView(); got != before || mb.list.Len() != 0 {
		t.Fatalf("B's screen took A's page:\n%s", got)
	}
	d.Run(fromB)
	if mb.list.Len() != 2 || !strings.Contains(d.PlainView(), svcB.trades[0].ID.String()[:8]) {
		t.Fatalf("B's own page did not land:\n%s", d.PlainView())
	}
	if len(svcB.queries) != 1 || svcB.queries[0].SubAccountID != b.Account.ID {
		t.Fatalf("B asked %+v", svcB.queries)
	}
}

func view(m *Model) string { return ansi.Strip(m.View()) }
