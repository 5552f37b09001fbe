package sandbox

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// recordsClient is the project's api client signed in as a demo access.
func recordsClient(t *testing.T, r *Running, name string) *api.Client {
	t.Helper()
	cred, ok := r.Creds.Access(name)
	if !ok {
		t.Fatalf("no demo access %q", name)
	}
	auth, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c, err := api.New(r.BaseURL, auth, api.WithTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// collect follows the cursors of a list to its end.
func collect[T any](t *testing.T, fetch func(ctx context.Context, cursor string) (api.Page[T], error)) []T {
	t.Helper()
	var out []T
	for v, err := range api.All(testCtx(t), fetch) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func allTrades(t *testing.T, c *api.Client, f api.TradeFilter) []api.Trade {
	t.Helper()
	return collect(t, func(ctx context.Context, cursor string) (api.Page[api.Trade], error) {
		f.Cursor = cursor
		return c.ListTrades(ctx, f)
	})
}

// wantAPIError checks a refusal's status and code, and that its message
// names want.
func wantAPIError(t *testing.T, err error, status int, code, want string) {
	t.Helper()
	var ae *api.Error
	if !errors.As(err, &ae) {
		t.Fatalf("got %v, want a %d %s error", err, status, code)
	}
	if ae.Status != status || ae.Code != code || !strings.Contains(ae.Message, want) {
		t.Fatalf("got %d %s %q, want %d %s naming %q", ae.Status, ae.Code, ae.Message, status, code, want)
	}
}

func tradeIDs(ts []api.Trade) []uuid.UUID {
	ids := make([]uuid.UUID, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids
}

func TestTradesDemoHistory(t *testing.T) {
	r := startTest(t, Config{Seed: 11})
	c := recordsClient(t, r, "operator")
	trades := allTrades(t, c, api.TradeFilter{})
	if len(trades) < 10 || len(trades) > 20 {
		t.Fatalf("%d demo trades on the main account, want a dozen or so", len(trades))
	}
	now := time.Now()
	states := map[api.TradeStatus]int{}
	for i, tr := range trades {
		states[tr.Status]++
		if i > 0 && tr.CreatedAt.After(trades[i-1].CreatedAt.Time) {
			t.Errorf("trade %d is newer than the one before it: the list must be newest first", i)
		}
		if tr.CreatedAt.Before(now.Add(-90*24*time.Hour)) || tr.CreatedAt.After(now) {
			t.Errorf("trade %s created %v, outside the last 90 days", tr.ID, tr.CreatedAt)
		}
		if !tr.SettlementDate.After(tr.CreatedAt.Time) {
			t.Errorf("trade %s settles %v, not after it was agreed (%v)", tr.ID, tr.SettlementDate, tr.CreatedAt)
		}
		if tr.InputAmount.Sign() <= 0 || tr.OutputAmount.Sign() <= 0 || tr.BasePrice.Sign() <= 0 || tr.QuoteTokenID == uuid.Nil {
			t.Errorf("trade %s is incomplete: %+v", tr.ID, tr)
		}
		switch tr.Status {
		case api.TradeSettled:
			if tr.SettlementTicketID == nil || tr.SettledAt.IsZero() {
				t.Fatalf("settled trade %s without settledAt or settlementTicketId", tr.ID)
			}
			if tr.SettledAt.After(tr.SettlementDate.Time) || tr.SettledAt.Before(tr.CreatedAt.Time) {
				t.Errorf("trade %s agreed %v, settled %v, due %v", tr.ID, tr.CreatedAt, tr.SettledAt, tr.SettlementDate)
			}
			// The settlement ticket is a real, paid ticket of the same
			// account, made from the trade's quote.
			tk, err := c.GetTicket(testCtx(t), uuid.Nil, *tr.SettlementTicketID)
			if err != nil {
				t.Fatalf("settlement ticket of %s: %v", tr.ID, err)
			}
			if tk.Status != api.TicketPaid || tk.Quote.ID != tr.QuoteTokenID || !tk.Quote.InputAmount.Equal(tr.InputAmount) || !tk.UpdatedAt.Equal(tr.SettledAt.Time) {
				t.Errorf("trade %s and its settlement ticket disagree: ticket %s %s quote %s input %s paid %v", tr.ID, tk.ID, tk.Status, tk.Quote.ID, tk.Quote.InputAmount, tk.UpdatedAt)
			}
		default:
			if tr.SettlementTicketID != nil || !tr.SettledAt.IsZero() {
				t.Errorf("%s trade %s has settlement details", tr.Status, tr.ID)
			}
		}
	}
	for _, s := range []api.TradeStatus{api.TradePending, api.TradeSettled, api.TradeCancelled} {
		if states[s] == 0 {
			t.Errorf("no %s trade in the demo data (%v)", s, states)
		}
	}

	// Each sub-account has its own trades, none shared with the main.
	seen := map[uuid.UUID]string{}
	for _, tr := range trades {
		seen[tr.ID] = "main"
	}
	for _, sub := range r.Creds.SubAccounts {
		id := uuid.MustParse(sub.ID)
		own := allTrades(t, c, api.TradeFilter{SubAccountID: id})
		if len(own) < 5 {
			t.Errorf("sub-account %s has %d trades", sub.Name, len(own))
		}
		for _, tr := range own {
			if where, ok := seen[tr.ID]; ok {
				t.Errorf("trade %s listed both in %s and in %s", tr.ID, where, sub.Name)
			}
			seen[tr.ID] = sub.Name
			if tr.SettlementTicketID != nil {
				if _, err := c.GetTicket(testCtx(t), id, *tr.SettlementTicketID); err != nil {
					t.Errorf("settlement ticket %s of %s's trade: %v", tr.SettlementTicketID, sub.Name, err)
				}
				if _, err := c.GetTicket(testCtx(t), uuid.Nil, *tr.SettlementTicketID); !errors.Is(err, api.ErrNotFound) {
					t.Errorf("%s's settlement ticket is reachable from the main account: %v", sub.Name, err)
				}
			}
		}
	}
	// A viewer reads trades too.
	if got := allTrades(t, recordsClient(t, r, "viewer"), api.TradeFilter{}); len(got) != len(trades) {
		t.Errorf("viewer sees %d trades, operator %d", len(got), len(trades))
	}
}

func TestSettlementDay(t *testing.T) {
	at := func(s string) time.Time { return time.Date(2026, 11, 0, 0, 0, 0, 0, time.UTC).Add(mustDur(t, s)) }
	for _, tc := range []struct {
		created string // offset from 2026-10-31 00:00 UTC (a Saturday)
		days    int
		want    string
	}{
		{"144h", 0, "2026-11-06T21:00:00Z"},       // Friday morning, T+0: that evening
		{"164h59m59s", 0, "2026-11-06T21:00:00Z"}, // Friday a second before the cut-off
		{"165h", 0, "2026-11-09T21:00:00Z"},       // Friday at the cut-off: Monday
		{"144h", 1, "2026-11-09T21:00:00Z"},       // Friday, T+1: Monday
		{"168h", 0, "2026-11-09T21:00:00Z"},       // Saturday: Monday
		{"192h", 2, "2026-11-11T21:00:00Z"},       // Sunday, T+2: Wednesday
		{"216h30m", 1, "2026-11-10T21:00:00Z"},    // Monday, T+1: Tuesday
		{"140h", 3, "2026-11-10T21:00:00Z"},       // Thursday 20:00, T+3: Friday, Monday, Tuesday
	} {
		got := engine.SettlementDay(at(tc.created), tc.days).Format(time.RFC3339)
		if got != tc.want {
			t.Errorf("agreed %v, T+%d: settles %s, want %s", at(tc.created), tc.days, got, tc.want)
		}
	}
}

func mustDur(t *testing.T, s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestTradesDemoIsDeterministic(t *testing.T) {
	t.Parallel() // several seeded sandboxes; runs beside the other long tests
	fixed := time.Now().UTC().Truncate(time.Second)
	clock := func() time.Time { return fixed }
	a := startTest(t, Config{Seed: 5, Now: clock})
	b := startTest(t, Config{Seed: 5, Now: clock})
	ta := allTrades(t, recordsClient(t, a, "operator"), api.TradeFilter{})
	tb := allTrades(t, recordsClient(t, b, "operator"), api.TradeFilter{})
	if len(ta) == 0 || !slices.Equal(tradeIDs(ta), tradeIDs(tb)) {
		t.Fatalf("the same seed gave different trades: %d vs %d", len(ta), len(tb))
	}
	for i := range ta {
		if ta[i].Status != tb[i].Status || !ta[i].InputAmount.Equal(tb[i].InputAmount) || !ta[i].SettlementDate.Equal(tb[i].SettlementDate.Time) {
			t.Errorf("trade %s differs between two runs of the same seed", ta[i].ID)
		}
	}
	c := startTest(t, Config{Seed: 6, Now: clock})
	if tc := allTrades(t, recordsClient(t, c, "operator"), api.TradeFilter{}); slices.Equal(tradeIDs(ta), tradeIDs(tc)) {
		t.Error("seeds 5 and 6 gave the same trades")
	}
}

// frozenAt is a sandbox clock that does not move, so that no trade
// changes state while a test compares two lists.
func frozenAt(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestTradesFilters(t *testing.T) {
	r := startTest(t, Config{Seed: 12, Now: frozenAt(time.Now())})
	c := recordsClient(t, r, "operator")
	all := allTrades(t, c, api.TradeFilter{})
	count := func(keep func(api.Trade) bool) []uuid.UUID {
		var ids []uuid.UUID
		for _, tr := range all {
			if keep(tr) {
				ids = append(ids, tr.ID)
			}
		}
		return ids
	}

	for _, s := range []api.TradeStatus{api.TradePending, api.TradeSettled, api.TradeCancelled} {
		got := allTrades(t, c, api.TradeFilter{Status: string(s)})
		want := count(func(tr api.Trade) bool { return tr.Status == s })
		if !slices.Equal(tradeIDs(got), want) {
			t.Errorf("status=%s: %d trades, want %d", s, len(got), len(want))
		}
	}

	pick := all[len(all)/2]
	day := pick.SettlementDate.UTC().Format(time.DateOnly)
	got := allTrades(t, c, api.TradeFilter{SettlementDate: day})
	want := count(func(tr api.Trade) bool { return tr.SettlementDate.UTC().Format(time.DateOnly) == day })
	if len(got) == 0 || !slices.Equal(tradeIDs(got), want) {
		t.Errorf("settlementDate=%s: %d trades, want %d", day, len(got), len(want))
	}
	// A full timestamp, in any offset, matches that instant.
	sp := time.FixedZone("BRT", -3*3600)
	stamp := pick.SettlementDate.In(sp).Format(time.RFC3339)
	got = allTrades(t, c, api.TradeFilter{SettlementDate: stamp})
	want = count(func(tr api.Trade) bool { return tr.SettlementDate.Equal(pick.SettlementDate.Time) })
	if !slices.Contains(tradeIDs(got), pick.ID) || !slices.Equal(tradeIDs(got), want) {
		t.Errorf("settlementDate=%s: %d trades, want %d including %s", stamp, len(got), len(want), pick.ID)
	}
	// Filters combine.
	got = allTrades(t, c, api.TradeFilter{SettlementDate: day, Status: string(pick.Status)})
	want = count(func(tr api.Trade) bool {
		return tr.Status == pick.Status && tr.SettlementDate.UTC().Format(time.DateOnly) == day
	})
	if !slices.Equal(tradeIDs(got), want) {
		t.Errorf("status and settlementDate: %d trades, want %d", len(got), len(want))
	}

	// createdAfter is inclusive, createdBefore exclusive, both in Unix
	// seconds.
	from := time.Unix(pick.CreatedAt.Unix(), 0)
	got = allTrades(t, c, api.TradeFilter{CreatedAfter: from})
	want = count(func(tr api.Trade) bool { return !tr.CreatedAt.Before(from) })
	if !slices.Contains(tradeIDs(got), pick.ID) || !slices.Equal(tradeIDs(got), want) {
		t.Errorf("createdAfter=%d: %d trades, want %d including %s", from.Unix(), len(got), len(want), pick.ID)
	}
	got = allTrades(t, c, api.TradeFilter{CreatedBefore: from})
	want = count(func(tr api.Trade) bool { return tr.CreatedAt.Before(from) })
	if slices.Contains(tradeIDs(got), pick.ID) || !slices.Equal(tradeIDs(got), want) {
		t.Errorf("createdBefore=%d: %d trades, want %d without %s", from.Unix(), len(got), len(want), pick.ID)
	}

	// Bad filter values are 400s naming the parameter.
	raw := r.client(t, "operator")
	for _, tc := range []struct{ query, code, names string }{
		{"status=DONE", engine.CodeInvalidField, "status"},
		{"status=settled", engine.CodeInvalidField, "status"},
		{"settlementDate=2026-02-30", engine.CodeInvalidField, "settlementDate"},
		{"settlementDate=21%2F11%2F2026", engine.CodeInvalidField, "settlementDate"},
		{"settlementDate=2026-11-21T25:00:00Z", engine.CodeInvalidField, "settlementDate"},
		{"createdAfter=yesterday", engine.CodeInvalidField, "createdAfter"},
		{"createdBefore=2026-11-21T00:00:00Z", engine.CodeInvalidField, "createdBefore"},
		{"createdAfter=200&createdBefore=100", engine.CodeInvalidField, "createdBefore"},
		{"cursor=not-a-cursor", engine.CodeInvalidCursor, "cursor"},
		{"subAccountId=" + uuid.NewString(), engine.CodeNotFound, "sub-account"},
	} {
		msg := raw.wantError("GET", "/v2/account/eod/trades?"+tc.query, nil, statusOf(tc.code), tc.code)
		if !strings.Contains(msg, tc.names) {
			t.Errorf("%s: message %q does not name %s", tc.query, msg, tc.names)
		}
	}
	_, err := c.ListTrades(testCtx(t), api.TradeFilter{Status: "OPEN"})
	wantAPIError(t, err, http.StatusBadRequest, engine.CodeInvalidField, "status")
}

func statusOf(code string) int {
	if code == engine.CodeNotFound {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

func TestTradesPaginate(t *testing.T) {
	r := startTest(t, Config{Seed: 13, Now: frozenAt(time.Now())})
	c := recordsClient(t, r, "operator")
	demo := allTrades(t, c, api.TradeFilter{})

	// Enough history for several pages: 130 settled and cancelled trades,
	// some of them at the same instant (the cursor must not skip those).
	now := time.Now().UTC()
	main := r.Server.eng.Main()
	r.Server.eng.Edit(func() {
		for i := range 130 {
			at := now.Add(-time.Duration(i/2) * time.Hour)
			tr := &records.Trade{
				ID: uuid.New(), InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", InputAmount: decimal.NewFromInt(int64(1000 + i)),
				OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", OutputAmount: decimal.NewFromInt(int64(180 + i)), BasePrice: decimal.RequireFromString("0.18"),
				AppliedFees: []records.TradeFee{}, QuoteTokenID: uuid.New(), SettlementTerms: "T+0", SettlementDate: records.NewTime(engine.SettlementDay(at, 0)),
				Status: records.TradeCancelled, CreatedAt: records.NewTime(at),
			}
			if i%3 == 0 {
				tr.Status = records.TradeSettled
			}
			r.Server.eng.Trades().Put(main, at, tr.ID, tr)
		}
	})

	first, err := c.ListTrades(testCtx(t), api.TradeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) != engine.PageSize || first.Cursor == "" {
		t.Fatalf("first page: %d trades and cursor %q, want %d and a cursor", len(first.Items), first.Cursor, engine.PageSize)
	}
	all := allTrades(t, c, api.TradeFilter{})
	if len(all) != len(demo)+130 {
		t.Fatalf("walked %d trades, want %d", len(all), len(demo)+130)
	}
	seen := map[uuid.UUID]bool{}
	for i, tr := range all {
		if seen[tr.ID] {
			t.Fatalf("trade %s twice across pages", tr.ID)
		}
		seen[tr.ID] = true
		if i > 0 && tr.CreatedAt.After(all[i-1].CreatedAt.Time) {
			t.Fatalf("page order broken at %d", i)
		}
	}
	// A filter holds across pages.
	settled := allTrades(t, c, api.TradeFilter{Status: string(api.TradeSettled)})
	n := 0
	for _, tr := range all {
		if tr.Status == api.TradeSettled {
			n++
		}
	}
	if len(settled) != n || n < engine.PageSize {
		t.Errorf("status=SETTLED across pages: %d trades, want %d (over one page)", len(settled), n)
	}
	for _, tr := range settled {
		if tr.Status != api.TradeSettled {
			t.Fatalf("status=SETTLED returned a %s trade", tr.Status)
		}
	}
	// The cursor is tied to the list, not to a page size: a window on top
	// of it still holds.
	since := time.Unix(now.Add(-30*time.Hour).Unix(), 0)
	window := allTrades(t, c, api.TradeFilter{CreatedAfter: since, Status: string(api.TradeCancelled)})
	for _, tr := range window {
		if tr.CreatedAt.Before(since) || tr.Status != api.TradeCancelled {
			t.Fatalf("window and status filter broken: %s %s %v", tr.ID, tr.Status, tr.CreatedAt)
		}
	}
	if len(window) < 30 {
		t.Errorf("%d cancelled trades in the last 30 hours, want at least 30", len(window))
	}
}

// A pending trade settles when its settlement ticket is paid: the tickets
// waiting for a large PIX payment are funded, delivered, and their trades
// then point at them. Trades whose ticket is not made yet stay pending.
func TestTradeSettlesWhenItsTicketIsPaid(t *testing.T) {
	r := startTest(t, Config{Seed: 14, Speed: 10})
	c := recordsClient(t, r, "operator")
	pending := allTrades(t, c, api.TradeFilter{Status: string(api.TradePending)})
	tickets := collect(t, func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
		return c.ListTickets(ctx, api.TicketFilter{Cursor: cursor})
	})
	byQuote := map[uuid.UUID]api.Ticket{}
	for _, tk := range tickets {
		byQuote[tk.Quote.ID] = tk
	}
	var linked, open []api.Trade
	for _, tr := range pending {
		if !tr.SettlementDate.After(time.Now()) || tr.SettlementTicketID != nil || !tr.SettledAt.IsZero() {
			t.Errorf("pending trade %s: settles %v, ticket %v, settled %v; want a future date and no settlement yet", tr.ID, tr.SettlementDate, tr.SettlementTicketID, tr.SettledAt)
		}
		if _, ok := byQuote[tr.QuoteTokenID]; ok {
			linked = append(linked, tr)
		} else {
			open = append(open, tr)
		}
	}
	if len(linked) == 0 || len(open) == 0 {
		t.Fatalf("pending trades: %d with a ticket in flight, %d without; want some of each", len(linked), len(open))
	}
	for _, tk := range tickets {
		if tk.Status == api.TicketUnpaid && tk.Quote.InputPaymentMethod == "PIX" {
			if _, err := c.SandboxFundTicket(testCtx(t), uuid.Nil, tk.ID); err != nil {
				t.Fatalf("fund %s: %v", tk.ID, err)
			}
		}
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		still := allTrades(t, c, api.TradeFilter{Status: string(api.TradePending)})
		if len(still) == len(open) {
			if !slices.Equal(tradeIDs(still), tradeIDs(open)) {
				t.Fatalf("the trades still pending are not those without a ticket")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d trades still pending after their tickets were funded, want %d", len(still), len(open))
		}
		time.Sleep(100 * time.Millisecond)
	}
	settled := allTrades(t, c, api.TradeFilter{Status: string(api.TradeSettled)})
	for _, before := range linked {
		i := slices.IndexFunc(settled, func(tr api.Trade) bool { return tr.ID == before.ID })
		if i < 0 {
			t.Fatalf("trade %s is not settled after its ticket was paid", before.ID)
		}
		tr := settled[i]
		if tr.SettlementTicketID == nil || *tr.SettlementTicketID != byQuote[tr.QuoteTokenID].ID {
			t.Fatalf("trade %s settled by %v, want the ticket of its quote %s", tr.ID, tr.SettlementTicketID, byQuote[tr.QuoteTokenID].ID)
		}
		tk, err := c.GetTicket(testCtx(t), uuid.Nil, *tr.SettlementTicketID)
		if err != nil {
			t.Fatal(err)
		}
		if tk.Status != api.TicketPaid || !tk.UpdatedAt.Equal(tr.SettledAt.Time) || !tk.Quote.OutputAmount.Equal(tr.OutputAmount) {
			t.Errorf("trade %s settled by ticket %s (%s, paid %v, output %s), settledAt %v output %s", tr.ID, tk.ID, tk.Status, tk.UpdatedAt, tk.Quote.OutputAmount, tr.SettledAt, tr.OutputAmount)
		}
	}
}

// A pending trade whose settlement date passes without a paid ticket is
// cancelled; the sandbox's own clock is moved a week ahead.
func TestTradeCancelledPastItsSettlementDate(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	r := startTest(t, Config{Seed: 15, Now: clock})
	raw := newRawClient(t, r.BaseURL, mustAccess(t, r, "operator"), clock)
	var page struct{ Trades []api.Trade }
	raw.json("GET", "/v2/account/eod/trades?status=PENDING", nil, http.StatusOK, &page)
	if len(page.Trades) == 0 {
		t.Fatal("no pending trade in the demo data")
	}

	// A trade agreed on a quote no ticket was ever made from.
	now := clock().UTC()
	orphan := &records.Trade{
		ID: uuid.New(), InputCurrency: "USDC", InputPaymentMethod: "INTERNAL", InputAmount: decimal.NewFromInt(500),
		OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", OutputAmount: decimal.NewFromInt(2650), BasePrice: decimal.RequireFromString("5.3"),
		AppliedFees: []records.TradeFee{}, QuoteTokenID: uuid.New(), SettlementTerms: "T+1", SettlementDate: records.NewTime(engine.SettlementDay(now, 1)),
		Status: records.TradePending, CreatedAt: records.NewTime(now),
	}
	main := r.Server.eng.Main()
	r.Server.eng.Edit(func() { r.Server.eng.Trades().Put(main, now, orphan.ID, orphan) })
	raw.json("GET", "/v2/account/eod/trades?status=PENDING", nil, http.StatusOK, &page)
	if !slices.Contains(tradeIDs(page.Trades), orphan.ID) {
		t.Fatal("a trade before its settlement date is not pending")
	}
	pending := page.Trades

	offset.Store(int64(7 * 24 * time.Hour))
	var after struct{ Trades []api.Trade }
	raw.json("GET", "/v2/account/eod/trades?createdAfter="+strconv.FormatInt(pending[len(pending)-1].CreatedAt.Unix(), 10), nil, http.StatusOK, &after)
	byID := map[uuid.UUID]api.Trade{}
	for _, tr := range after.Trades {
		byID[tr.ID] = tr
	}
	for _, before := range pending {
		tr, ok := byID[before.ID]
		if !ok {
			t.Fatalf("trade %s vanished", before.ID)
		}
		switch {
		case tr.Status == api.TradePending:
			t.Errorf("trade %s still pending a week after its settlement date %v", tr.ID, tr.SettlementDate)
		case tr.Status == api.TradeSettled && (tr.SettlementTicketID == nil || tr.SettledAt.After(tr.SettlementDate.Time)):
			t.Errorf("trade %s settled at %v by %v: after its settlement date or without a ticket", tr.ID, tr.SettledAt, tr.SettlementTicketID)
		}
	}
	if got := byID[orphan.ID]; got.Status != api.TradeCancelled || got.SettlementTicketID != nil || !got.SettledAt.IsZero() {
		t.Errorf("a trade without a settlement ticket is %s (ticket %v) after its settlement date, want CANCELLED", got.Status, got.SettlementTicketID)
	}
}

func mustAccess(t *testing.T, r *Running, name string) AccessCredential {
	t.Helper()
	a, ok := r.Creds.Access(name)
	if !ok {
		t.Fatalf("no demo access %q", name)
	}
	return a
}

// BenchmarkListTrades measures one signed page of trades over HTTP,
// pending-trade settlement check included.
func BenchmarkListTrades(b *testing.B) {
	r := startTest(b, Config{Seed: 16})
	c := r.client(b, "operator")
	for b.Loop() {
		if code, out := c.do("GET", "/v2/account/eod/trades?status=SETTLED", nil); code != http.StatusOK {
			b.Fatalf("%d %s", code, out)
		}
	}
}
