package trades

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

type fakeService struct {
	api.Service
	mu      sync.Mutex
	trades  []api.Trade
	queries []api.TradeFilter
}

func (f *fakeService) ListTrades(_ context.Context, q api.TradeFilter) (api.Page[api.Trade], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	var match []api.Trade
	for _, t := range f.trades {
		if q.Status != "" && string(t.Status) != q.Status {
			continue
		}
		match = append(match, t)
	}
	start, _ := strconv.Atoi(q.Cursor)
	end := min(start+50, len(match))
	p := api.Page[api.Trade]{Items: match[start:end]}
	if end < len(match) {
		p.Cursor = strconv.Itoa(end)
	}
	return p, nil
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

// mine tells the screen's own messages, which go back to it, from those
// meant for the root.
func mine(msg tea.Msg) bool {
	switch msg.(type) {
	case pageMsg:
		return true
	}
	return false
}

// run executes a command and everything it leads to; it returns the
// messages meant for the root (toasts, navigation, confirmations) in the
// order they came.
func run(t *testing.T, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	return screentest.Settle(t, m, cmd, mine)
}

// press sends keys one by one, running what each one starts.
func press(t *testing.T, m *Model, keys ...string) []tea.Msg {
	t.Helper()
	return screentest.Send(t, m, mine, fakeservice.Keys(keys...)...)
}

// typeText types literal text into whatever has focus.
func typeText(t *testing.T, m *Model, text string) {
	t.Helper()
	screentest.Send(t, m, mine, fakeservice.Text(text)...)
}

func start(t *testing.T, svc *fakeService, w, h int) *Model {
	s := &ui.Session{Client: svc, Time: screentest.NewClock(now)}
	m := New(s).(*Model)
	m.SetSize(w, h)
	run(t, m, m.Init())
	return m
}

func view(m *Model) string { return ansi.Strip(m.View()) }

func TestTradesPagingAndCount(t *testing.T) {
	svc := &fakeService{trades: makeTrades(75)}
	m := start(t, svc, 100, 20)
	if v := view(m); !strings.Contains(v, "50 loaded · more available") {
		t.Fatalf("count missing:\n%s", v)
	}
	press(t, m, "G")
	if v := view(m); !strings.Contains(v, "all 75 loaded") {
		t.Fatalf("end not reached:\n%s", v)
	}
	if svc.queries[1].Cursor != "50" {
		t.Fatalf("second page asked with cursor %q", svc.queries[1].Cursor)
	}
}

func TestTradesFilterQueryAndStaleDrop(t *testing.T) {
	svc := &fakeService{trades: makeTrades(30)}
	m := New(&ui.Session{Client: svc, Time: screentest.NewClock(now)}).(*Model)
	m.SetSize(100, 20)
	first := m.Init()
	press(t, m, "f")
	typeText(t, m, "settled")
	press(t, m, "tab")
	typeText(t, m, "2026-08-21")
	press(t, m, "tab")
	typeText(t, m, "2026-08-01")
	press(t, m, "tab")
	typeText(t, m, "2026-08-20")
	press(t, m, "enter")
	q := svc.queries[len(svc.queries)-1]
	run(t, m, first) // the unfiltered request runs late; its answer is dropped
	want := api.TradeFilter{Status: "SETTLED", SettlementDate: "2026-08-21",
		CreatedAfter: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC), CreatedBefore: time.Date(2026, 8, 21, 0, 0, 0, 0, time.UTC)}
	if q != want {
		t.Fatalf("query\n got %+v\nwant %+v", q, want)
	}
	if len(m.trades) != 10 {
		t.Fatalf("%d trades listed, want the 10 settled ones only", len(m.trades))
	}
	for _, tr := range m.trades {
		if tr.Status != api.TradeSettled {
			t.Fatalf("a %s trade from the stale answer is listed", tr.Status)
		}
	}
	// A bad status is refused in the form.
	press(t, m, "f")
	typeText(t, m, "X")
	press(t, m, "enter")
	if !m.Capturing() || !strings.Contains(view(m), "not a trade state") {
		t.Fatalf("bad status accepted:\n%s", view(m))
	}
}

func TestTradeDetailAndJumpToTicket(t *testing.T) {
	svc := &fakeService{trades: makeTrades(6)}
	m := start(t, svc, 100, 40)
	press(t, m, "enter")
	tr := svc.trades[0]
	v := view(m)
	for _, want := range []string{"Trade " + tr.ID.String(), "✓ SETTLED", "T+1", "5,000.000000 USDC via INTERNAL", "27,000.00 BRL via PIX",
		"Conversion Fee", "10.000000 USDC", tr.SettlementTicketID.String(), tr.QuoteTokenID.String()} {
		if !strings.Contains(v, want) {
			t.Fatalf("detail lacks %q:\n%s", want, v)
		}
	}
	msgs := press(t, m, "t")
	if len(msgs) != 1 || msgs[0] != (ui.NavigateMsg{Screen: "tickets", ID: tr.SettlementTicketID.String()}) {
		t.Fatalf("t gave %v, want navigation to the settlement ticket", msgs)
	}
	press(t, m, "esc", "j") // a PENDING trade: no settlement ticket
	if msgs := press(t, m, "t"); len(msgs) != 0 {
		t.Fatalf("t on a trade without settlement ticket gave %v", msgs)
	}
	for _, b := range m.KeyMap() {
		if b.Help().Desc == "settlement ticket" && b.Enabled() {
			t.Fatal("settlement ticket offered for a pending trade")
		}
	}
}

func TestTradesSmallSizes(t *testing.T) {
	svc := &fakeService{trades: makeTrades(20)}
	m := start(t, svc, 40, 12)
	for _, sz := range [][2]int{{40, 12}, {5, 2}, {0, 0}, {120, 50}} {
		m.SetSize(sz[0], sz[1])
		for _, keys := range [][]string{nil, {"enter"}, {"esc", "f"}, {"esc"}} {
			press(t, m, keys...)
			v := m.View()
			if sz[1] > 0 && strings.Count(v, "\n")+1 != sz[1] {
				t.Fatalf("%v: %d lines", sz, strings.Count(v, "\n")+1)
			}
			for _, l := range strings.Split(v, "\n") {
				if ansi.StringWidth(l) > sz[0] {
					t.Fatalf("%v: line too wide %q", sz, l)
				}
			}
		}
	}
}
