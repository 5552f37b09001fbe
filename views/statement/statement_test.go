package statement

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// perPage is the fake's page size: small, so that a few entries make
// several pages.
const perPage = 4

// fake is the service as the Statement sees it: a ledger per account,
// newest first, paged by index.
type fake struct {
	mu       sync.Mutex
	ledger   map[uuid.UUID][]api.StatementLog
	balances map[uuid.UUID]api.Balances
	asked    []api.StatementFilter
	failAt   string // the cursor whose page fails once
}

var _ Service = (*fake)(nil)

func (f *fake) Statement(_ context.Context, q api.StatementFilter) (api.Page[api.StatementLog], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, q)
	if q.Cursor != "" && q.Cursor == f.failAt {
		f.failAt = ""
		return api.Page[api.StatementLog]{}, errors.New("503 Service Unavailable")
	}
	var in []api.StatementLog
	for _, l := range f.ledger[q.SubAccountID] {
		if (q.CreatedAfter.IsZero() || !l.CreatedAt.Before(q.CreatedAfter)) && (q.CreatedBefore.IsZero() || l.CreatedAt.Before(q.CreatedBefore)) {
			in = append(in, l)
		}
	}
	from := 0
	if q.Cursor != "" {
		from, _ = strconv.Atoi(q.Cursor)
	}
	to := min(from+perPage, len(in))
	p := api.Page[api.StatementLog]{Items: slices.Clone(in[from:to])}
	if to < len(in) {
		p.Cursor = strconv.Itoa(to)
	}
	return p, nil
}

func (f *fake) Balances(_ context.Context, sub uuid.UUID) (api.Balances, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.balances[sub], nil
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var subID = uuid.MustParse("0b5c2a34-0000-4000-8000-000000000002")

// day0 is the first entry's time; entries are an hour apart.
var day0 = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// ledgerOf builds a consistent ledger from changes (token, amount), oldest
// first, and returns it newest first with the balances it leaves.
func ledgerOf(changes ...[2]string) ([]api.StatementLog, api.Balances) {
	bal := api.Balances{}
	var out []api.StatementLog
	for i, c := range changes {
		tok, amt := c[0], dec(c[1])
		bal[tok] = bal[tok].Add(amt)
		side := "[CREDIT] ticket output credited"
		if amt.IsNegative() {
			side = "[DEBIT] ticket input debited"
		}
		out = append(out, api.StatementLog{ID: fmt.Sprint(100 + i), Token: tok, BalanceChange: amt, FinalBalance: bal[tok],
			Description: side, TicketID: fmt.Sprintf("7d1f0000-0000-4000-8000-%012d", i), CreatedAt: api.NewTime(day0.Add(time.Duration(i) * time.Hour))})
	}
	slices.Reverse(out)
	return out, bal
}

// filler are 30 older entries: BRL +1 and USDC +0.1 in turn.
func filler() [][2]string {
	var out [][2]string
	for i := range 30 {
		if i%2 == 0 {
			out = append(out, [2]string{"BRL", "1"})
		} else {
			out = append(out, [2]string{"USDC", "0.1"})
		}
	}
	return out
}

// newFake holds 42 entries in the main account (BRL ends at 1,120.00,
// USDC at 71.734567) and one in the sub-account.
func newFake() *fake {
	main, mb := ledgerOf(append(filler(),
		[2]string{"BRL", "1000"}, [2]string{"USDC", "50.5"}, [2]string{"BRL", "-120.25"}, [2]string{"BRL", "300"},
		[2]string{"USDC", "-0.5"}, [2]string{"BRL", "-79.75"}, [2]string{"USDC", "10"}, [2]string{"USDC", "1.234567"},
		[2]string{"USDC", "2"}, [2]string{"USDC", "3"}, [2]string{"USDC", "4"}, [2]string{"BRL", "5"},
	)...)
	sub, sb := ledgerOf([2]string{"BRL", "77"})
	return &fake{
		ledger:   map[uuid.UUID][]api.StatementLog{uuid.Nil: main, subID: sub},
		balances: map[uuid.UUID]api.Balances{uuid.Nil: mb, subID: sb},
	}
}

func session(acc ui.Account, dir string) *ui.Session {
	return &ui.Session{
		Env:      ui.EnvSandbox,
		Account:  acc,
		StateDir: dir,
		Time:     screentest.NewClock(screentest.Epoch),
		Accounts: []api.Account{{ID: uuid.MustParse("a0000000-0000-4000-8000-000000000001"), Name: "Açaí Comércio"}, {ID: subID, Name: "Filial Sul", MainAccountID: "a0000000-0000-4000-8000-000000000001"}},
	}
}

func start(t *testing.T, f *fake, s *ui.Session) *screentest.Driver {
	t.Helper()
	return screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, f) }, 120, 30)
}

func TestShowsTheLedgerWithEveryTokenFirst(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, t.TempDir()))
	v := d.PlainView()
	for _, want := range []string{
		"[All]", "BRL", "USDC", // tabs: the account's currencies, catalogue order
		"+5.00", "1,120.00", // the newest entry: its change and the balance it left
		"+4.000000", "71.734567", "[CREDIT] ticket output credited",
		"2026-11-02 20:00",           // its time, in the session's zone (UTC here)
		"12 loaded · more available", // pages ahead of the cursor, not to the end

	} {
		if !strings.Contains(v, want) {
			t.Errorf("the statement lacks %q:\n%s", want, v)
		}
	}
	if strings.Index(v, " BRL ") > strings.Index(v, " USDC ") {
		t.Errorf("tabs not in catalogue order:\n%s", v)
	}
}

// TestTokenTabAddsUpAndMatchesTheBalance: → shows BRL alone; loaded to the
// end, its changes add up to closing − opening and the closing balance is
// the account's balance now.
func TestTokenTabAddsUpAndMatchesTheBalance(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	d.Key("right")
	v := d.PlainView()
	if !strings.Contains(v, "[BRL]") || strings.Contains(v, "USDC ") && strings.Contains(v, "+4.000000") {
		t.Fatalf("the BRL tab shows other tokens:\n%s", v)
	}
	if !strings.Contains(v, "BRL loaded so far") {
		t.Fatalf("a partly loaded range is not said to be partial:\n%s", v)
	}
	d.Key("G")
	v = d.PlainView()
	for _, want := range []string{"all 20 loaded", "BRL all · opening 0.00 · changes +1,120.00 · closing 1,120.00 ✓ adds up",
		"balance now 1,120.00 BRL ✓ equals the closing balance"} {
		if !strings.Contains(v, want) {
			t.Errorf("lacks %q:\n%s", want, v)
		}
	}
	// → again: USDC, whose pages hold no BRL.
	d.Key("right", "G")
	if v := d.PlainView(); !strings.Contains(v, "USDC all · opening 0.000000 · changes +71.734567 · closing 71.734567 ✓ adds up") {
		t.Errorf("USDC does not add up:\n%s", v)
	}
	// ← twice comes back to every token.
	d.Key("left", "left")
	if v := d.PlainView(); !strings.Contains(v, "[All]") || !strings.Contains(v, "+4.000000") {
		t.Errorf("← did not come back to every token:\n%s", v)
	}
}

// TestALedgerThatDoesNotAddUpIsSaid: an entry missing between two others
// (the balance jumps) is reported, not hidden by the sum.
func TestALedgerThatDoesNotAddUpIsSaid(t *testing.T) {
	f := newFake()
	l := f.ledger[uuid.Nil]
	f.ledger[uuid.Nil] = slices.DeleteFunc(l, func(x api.StatementLog) bool { return x.ID == "132" }) // BRL -120.25
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	d.Key("right", "G")
	if v := d.PlainView(); !strings.Contains(v, "✗ does not add up: the balances moved +1,120.00") || !strings.Contains(v, "changes +1,240.25") {
		t.Fatalf("a gap in the ledger is not reported:\n%s", v)
	}
}

func TestPagingToTheEndAsksEveryPageOnce(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	if v := d.PlainView(); strings.Contains(v, "2026-11-01 09:00") {
		t.Fatalf("loaded to the end before G was pressed:\n%s", v)
	}
	d.Key("G")
	v := d.PlainView()
	if !strings.Contains(v, "all 42 loaded") {
		t.Fatalf("not loaded to the end:\n%s", v)
	}
	var cursors []string
	for _, q := range f.asked {
		cursors = append(cursors, q.Cursor)
	}
	if !slices.Equal(cursors, []string{"", "4", "8", "12", "16", "20", "24", "28", "32", "36", "40"}) {
		t.Errorf("pages asked: %q, want each once", cursors)
	}
	d.Key("end")
	if v := d.PlainView(); !strings.Contains(v, "2026-11-01 09:00") || !strings.Contains(v, "+1.00 ") {
		t.Errorf("the oldest entry is not listed:\n%s", v)
	}
}

func TestDateFiltersAreSentAsTheServiceBounds(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	d.Key("f")
	d.Type("2026-11-01")
	d.Key("tab")
	d.Type("2026-11-01")
	n := len(f.asked)
	d.Key("enter")
	last := f.asked[n]
	if !last.CreatedAfter.Equal(day0.Add(-9*time.Hour)) || !last.CreatedBefore.Equal(day0.Add(15*time.Hour)) || last.Cursor != "" {
		t.Fatalf("asked %+v, want the whole of 2026-11-01", last)
	}
	v := d.PlainView()
	if !strings.Contains(v, "2026-11-01") || !strings.Contains(v, "loaded") {
		t.Fatalf("the filtered list is not shown:\n%s", v)
	}
	// Until a past day, the closing balance is not compared with today's.
	d.Key("right", "G")
	if v := d.PlainView(); strings.Contains(v, "balance now") || !strings.Contains(v, "✓ adds up") {
		t.Errorf("a closed range compared with the balance now:\n%s", v)
	}
	d.Key("x")
	if last := f.asked[len(f.asked)-1]; !last.CreatedAfter.IsZero() || !last.CreatedBefore.IsZero() {
		t.Errorf("x did not clear the dates: %+v", last)
	}
}

// TestExportWritesEveryEntryOfTheTokenNamedAfterTheAccount: the export
// reads the service to the end (not only the rows loaded), keeps the
// token on screen, and names the file after the operated account.
func TestExportWritesEveryEntryOfTheTokenNamedAfterTheAccount(t *testing.T) {
	f := newFake()
	dir := t.TempDir()
	exportsTo(t, filepath.Join(dir, "exports"))
	d := start(t, f, session(ui.Account{}, dir))
	d.Key("right")
	if v := d.PlainView(); !strings.Contains(v, "[BRL]") || !strings.Contains(v, "more available") {
		t.Fatalf("not on a partly loaded BRL tab:\n%s", v)
	}
	d.Key("e")
	if len(d.Toasts) == 0 || !strings.Contains(d.Toasts[len(d.Toasts)-1].Text, "Exported 20 entries") {
		t.Fatalf("toasts %+v", d.Toasts)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "exports", "*.csv"))
	if len(files) != 1 || filepath.Base(files[0]) != "tesouro-statement-BRL-acai-comercio-"+screentest.Epoch.Format("20060102-150405")+".csv" {
		t.Fatalf("files %v", files)
	}
	if st, _ := os.Stat(files[0]); st.Mode().Perm() != 0o600 {
		t.Errorf("export mode %v, want owner-only", st.Mode().Perm())
	}
	fh, _ := os.Open(files[0])
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], export.StatementColumns) || len(recs) != 21 {
		t.Fatalf("%d records, header %v", len(recs), recs[0])
	}
	col := func(n string) int { return slices.Index(export.StatementColumns, n) }
	sum := decimal.Zero
	for _, r := range recs[1:] {
		if r[col("token")] != "BRL" || r[col("sub_account_id")] != "" || r[col("account_name")] != "Açaí Comércio" {
			t.Errorf("row %v", r)
		}
		sum = sum.Add(dec(r[col("balance_change")]))
	}
	if !sum.Equal(dec("1120")) || recs[1][col("final_balance")] != "1120.00" {
		t.Errorf("exported changes sum to %s, newest balance %s; want 1120", sum, recs[1][col("final_balance")])
	}
	if v := d.PlainView(); !strings.Contains(v, "exported 20 to ") {
		t.Errorf("the count line does not say where the export went:\n%s", v)
	}
}

func TestEntryDetailOpensItsTicket(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, t.TempDir()))
	d.Key("down", "enter")
	v := d.PlainView()
	for _, want := range []string{"Ledger entry", "Balance before", "67.734567 USDC", "Balance after", "71.734567 USDC", "[CREDIT]"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	d.Key("t")
	if len(d.Navs) != 1 || d.Navs[0].Screen != "tickets" || d.Navs[0].ID != "7d1f0000-0000-4000-8000-000000000040" {
		t.Errorf("t navigated to %+v", d.Navs)
	}
	// Scrolling keys stay in the entry; esc goes back to the list.
	d.Key("down")
	if v := d.PlainView(); !strings.Contains(v, "Entry ") {
		t.Fatalf("down left the entry:\n%s", v)
	}
	d.Key("esc")
	if v := d.PlainView(); !strings.Contains(v, "loaded") || strings.Contains(v, "Balance before") {
		t.Fatalf("esc did not go back to the list:\n%s", v)
	}
}

// TestLateAnswersForAnotherAccountAreDropped: the ledger and balances the
// main account's Statement asked for never reach the one rebuilt for the
// sub-account.
func TestLateAnswersForAnotherAccountAreDropped(t *testing.T) {
	sa := session(ui.Account{}, t.TempDir())
	sb := sa.WithAccount(ui.Account{ID: subID, Name: "Filial Sul"})
	d := screentest.New(t, sb, New(sb, newFake()))
	d.Screen.SetSize(120, 30)
	staletest.AnotherAccount{FromA: []tea.Cmd{New(sa, newFake()).Init()}, B: d, Own: d.Screen.Init(),
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "1,120.00") || strings.Contains(v, "USDC") || !strings.Contains(v, "+77.00") {
				t.Fatalf("B shows A's ledger, or not its own:\n%s", v)
			}
		}}.Check(t)
}

// TestOlderLoadNeverOverwritesTheLatest presses r twice and answers the
// second load first.
func TestOlderLoadNeverOverwritesTheLatest(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	staletest.OlderLoad{D: d, Ask: staletest.Key(d, "r"), Change: func() {
		f.mu.Lock()
		f.ledger[uuid.Nil], f.balances[uuid.Nil] = ledgerOf([2]string{"BRL", "42"})
		f.mu.Unlock()
	}, Then: func(t *testing.T, d *screentest.Driver) {
		if v := d.PlainView(); strings.Contains(v, "1,120.00") || !strings.Contains(v, "+42.00") {
			t.Fatalf("the latest load is not shown:\n%s", v)
		}
	}}.Check(t)
}

func TestAWriteElsewhereRefreshesTheLedger(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	f.mu.Lock()
	f.ledger[uuid.Nil], f.balances[uuid.Nil] = ledgerOf([2]string{"BRL", "1000"}, [2]string{"BRL", "-1"})
	f.mu.Unlock()
	d.Send(ui.ChangedMsg{Account: subID, What: ui.ChangedBalances, By: "quote"})
	if v := d.PlainView(); !strings.Contains(v, "1,120.00") {
		t.Fatalf("another account's write refreshed this one:\n%s", v)
	}
	d.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedBalances, By: "quote"})
	if v := d.PlainView(); !strings.Contains(v, "-1.00") || strings.Contains(v, "1,120.00") {
		t.Fatalf("the write is not shown:\n%s", v)
	}
}

func TestFitsEverySize(t *testing.T) {
	f := newFake()
	f.ledger[uuid.Nil], f.balances[uuid.Nil] = ledgerOf([2]string{"USDC", "1000000000"}, [2]string{"USDC", "-999999999.999999"})
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	for _, sz := range [][2]int{{120, 40}, {96, 20}, {80, 24}, {60, 10}, {40, 12}, {20, 3}, {1, 1}, {0, 0}} {
		d.Screen.SetSize(sz[0], sz[1])
		v := d.Screen.View()
		for _, l := range strings.Split(v, "\n") {
			if lipgloss.Width(l) > sz[0] {
				t.Errorf("%dx%d: line too wide: %q", sz[0], sz[1], ansi.Strip(l))
			}
		}
		if sz[0] >= 60 && (!strings.Contains(ansi.Strip(v), "-999,999,999.999999") || !strings.Contains(ansi.Strip(v), "1,000,000,000.000000")) {
			t.Errorf("%dx%d: an amount is cut:\n%s", sz[0], sz[1], ansi.Strip(v))
		}
	}
	// At 40 columns, amounts of tens of thousands stay whole.
	f.ledger[uuid.Nil], f.balances[uuid.Nil] = ledgerOf([2]string{"USDC", "111111.111111"}, [2]string{"USDC", "-12345.678901"})
	d.Screen.SetSize(40, 12)
	d.Key("r")
	if v := d.PlainView(); !strings.Contains(v, "-12,345.678901 USDC") || !strings.Contains(v, "98,765.432210") {
		t.Errorf("40 columns cut an amount:\n%s", v)
	}
}

// TestLoadingToTheEndStopsOnAFailedPageAndGRetries: a page that fails
// stops the loading with the error shown; G again goes on from it.
func TestLoadingToTheEndStopsOnAFailedPageAndGRetries(t *testing.T) {
	f := newFake()
	f.failAt = "20"
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	d.Key("G")
	v := d.PlainView()
	if !strings.Contains(v, "503 Service Unavailable") || !strings.Contains(v, "20 loaded · more available") {
		t.Fatalf("the failed page is not shown where the loading stopped:\n%s", v)
	}
	d.Key("G")
	if v := d.PlainView(); !strings.Contains(v, "all 42 loaded") || strings.Contains(v, "503") {
		t.Fatalf("G did not go on from the failed page:\n%s", v)
	}
}

// exportsTo points export_dir at dir through a config file of the test's
// own, as a user's config.toml would.
func exportsTo(t *testing.T, dir string) {
	t.Helper()
	cfg := t.TempDir()
	t.Setenv("TESOURO_CONFIG_DIR", cfg)
	if err := os.WriteFile(filepath.Join(cfg, "config.toml"), []byte("export_dir = \""+dir+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestGLoadsToTheEndAsOnEveryList: the Statement loads to the end with G
// (or end), offered as on every list, and a does nothing there.
func TestGLoadsToTheEndAsOnEveryList(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, t.TempDir()))
	offered := false
	for _, b := range d.Screen.KeyMap() {
		if slices.Contains(b.Keys(), "a") {
			t.Errorf("a is bound on the Statement: %q %q", b.Keys(), b.Help().Desc)
		}
		offered = offered || b.Enabled() && slices.Contains(b.Keys(), "G") && strings.Contains(b.Help().Desc, "loads to the end")
	}
	if !offered {
		t.Error("G is not offered to load to the end")
	}
	n := len(f.asked)
	d.Key("a")
	if len(f.asked) != n {
		t.Fatalf("a asked for %d pages", len(f.asked)-n)
	}
	d.Key("end")
	if v := d.PlainView(); !strings.Contains(v, "all 42 loaded") {
		t.Fatalf("end did not load to the end:\n%s", v)
	}
}
