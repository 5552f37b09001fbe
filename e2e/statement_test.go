package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export/exporttest"
	"github.com/tesouro-treasury/tesouro/money"
)

// ledgerSpan is what a token's entries over a range say: how many, the
// balance before the oldest, the sum of the changes and the balance after
// the newest.
type ledgerSpan struct {
	n                     int
	opening, sum, closing decimal.Decimal
}

// span reads the statement of the main account from the sandbox to the
// last page (newest first) and sums the entries of token.
func span(t *testing.T, c *api.Client, token string, after, before time.Time) ledgerSpan {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var s ledgerSpan
	var oldest api.StatementLog
	for l, err := range api.All(ctx, func(ctx context.Context, cursor string) (api.Page[api.StatementLog], error) {
		return c.Statement(ctx, api.StatementFilter{CreatedAfter: after, CreatedBefore: before, Cursor: cursor})
	}) {
		if err != nil {
			t.Fatalf("read the statement: %v", err)
		}
		if l.Token != token {
			continue
		}
		if s.n == 0 {
			s.closing = l.FinalBalance
		}
		s.n++
		s.sum = s.sum.Add(l.BalanceChange)
		oldest = l
	}
	s.opening = oldest.FinalBalance.Sub(oldest.BalanceChange)
	return s
}

// signedAmount is an amount as the Statement shows a change.
func signedAmount(d decimal.Decimal, cur string) string {
	if d.IsPositive() {
		return "+" + money.Format(d, cur)
	}
	return money.Format(d, cur)
}

var summaryRe = regexp.MustCompile(`(\S+) all · opening (\S+) · changes (\S+) · closing (\S+) ✓ adds up`)

// TestE2EStatementPagedToTheEndMatchesTheBalances: the operator reads the
// BRLA ledger on the Statement screen to its last page; the changes shown
// add up to closing − opening, the closing balance is the one the Overview
// and the service report, the count is the service's, and the CSV export
// holds the same entries. A date range adds up the same way.
func TestE2EStatementPagedToTheEndMatchesTheBalances(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	bal, err := c.Balances(ctx, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	const token = "BRLA"
	now := money.Format(bal[token], token)

	exports := filepath.Join(t.TempDir(), "exports")
	tm := startTUIExporting(t, exports, creds, "operator", 140, 40)
	balRe := regexp.MustCompile(`BRLA\s+` + regexp.QuoteMeta(now))
	tm.WaitUntil("the service's "+token+" balance "+now+" on the Overview", 10*time.Second, func(s string) bool { return balRe.MatchString(s) })

	// Accesses, Batch, Statement.
	tm.Send("0", "Tab", "Tab")
	tm.WaitFor("[All]", 10*time.Second)
	tm.WaitFor("loaded", 10*time.Second)
	for range 8 {
		if strings.Contains(tm.Synced(), "["+token+"]") {
			break
		}
		tm.Send("Right")
	}
	tm.WaitFor("["+token+"]", 5*time.Second)
	tm.WaitFor(token+" loaded so far", 10*time.Second)
	tm.Send("G")
	want := span(t, c, token, time.Time{}, time.Time{})
	screen := tm.WaitFor(fmt.Sprintf("all %d loaded", want.n), 30*time.Second)
	m := summaryRe.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no complete summary that adds up:\n%s", screen)
	}
	if m[1] != token || m[2] != money.Format(want.opening, token) || m[3] != signedAmount(want.sum, token) || m[4] != now {
		t.Fatalf("summary %q; the service's ledger: opening %s, changes %s, closing %s; balance %s",
			m[0], want.opening, want.sum, want.closing, now)
	}
	if !want.closing.Sub(want.opening).Equal(want.sum) || !want.closing.Equal(bal[token]) {
		t.Fatalf("the service's own ledger does not add up: %+v, balance %s", want, bal[token])
	}
	if !strings.Contains(screen, "balance now "+now+" "+token+" ✓ equals the closing balance") {
		t.Fatalf("the closing balance is not checked against the balance now:\n%s", screen)
	}

	// The CSV holds the same entries.
	tm.Send("e")
	tm.WaitFor(fmt.Sprintf("exported %d to ", want.n), 30*time.Second)
	files, _ := filepath.Glob(filepath.Join(exports, "tesouro-statement-"+token+"-*.csv"))
	if len(files) != 1 {
		t.Fatalf("export files: %v", files)
	}
	checkExport(t, files[0], want)

	// Two days ending yesterday: the summary is the service's entries of
	// that range, not compared with today's balance, and its verdict is
	// whether those entries chain (each balance the one before plus the
	// change). The demo history is not written in time order (its
	// tickets are seeded at random past times), so a range of it may not
	// chain: the screen must say so, not hide it.
	today := time.Now().In(time.Local)
	from, to := today.AddDate(0, 0, -2).Format(time.DateOnly), today.AddDate(0, 0, -1).Format(time.DateOnly)
	tm.Send("f")
	tm.Type(from)
	tm.Send("Tab")
	tm.Type(to)
	tm.Send("Enter")
	tm.WaitFor("to="+to, 10*time.Second)
	tm.WaitFor("loaded", 10*time.Second)
	tm.Send("G")
	y, mo, d := today.Date()
	midnight := time.Date(y, mo, d, 0, 0, 0, 0, time.Local)
	ranged := span(t, c, token, midnight.AddDate(0, 0, -2), midnight)
	if ranged.n == 0 {
		t.Skipf("the demo ledger has no %s entry between %s and %s", token, from, to)
	}
	screen = tm.WaitFor(fmt.Sprintf("all %d loaded", ranged.n), 30*time.Second)
	m = rangeRe.FindStringSubmatch(screen)
	if m == nil || m[1] != money.Format(ranged.opening, token) || m[2] != signedAmount(ranged.sum, token) || m[3] != money.Format(ranged.closing, token) {
		t.Fatalf("the range's summary %q; the service's: opening %s, changes %s, closing %s:\n%s", m, ranged.opening, ranged.sum, ranged.closing, screen)
	}
	if chains := ranged.closing.Sub(ranged.opening).Equal(ranged.sum); chains != (m[4] == "✓ adds up") {
		t.Fatalf("the range's entries chain: %v; the screen says %q", chains, m[4])
	}
	if strings.Contains(screen, "balance now") {
		t.Fatalf("a range ending yesterday is compared with today's balance:\n%s", screen)
	}
}

var rangeRe = regexp.MustCompile(`BRLA all · opening (\S+) · changes (\S+) · closing (\S+) (✓ adds up|✗ does not add up)`)

// checkExport reads an exported statement: one row per entry, whose
// changes add up to the span.
func checkExport(t *testing.T, path string, want ledgerSpan) {
	t.Helper()
	recs := exporttest.Read(t, path)
	if len(recs) != want.n+1 || recs[0][7] != "balance_change" {
		t.Fatalf("%s: %d records, header %v; want %d entries", path, len(recs), recs[0], want.n)
	}
	sum := decimal.Zero
	for _, r := range recs[1:] {
		sum = sum.Add(decimal.RequireFromString(r[7]))
	}
	if !sum.Equal(want.sum) || !decimal.RequireFromString(recs[1][8]).Equal(want.closing) {
		t.Fatalf("%s: changes sum to %s, newest balance %s; want %s and %s", path, sum, recs[1][8], want.sum, want.closing)
	}
}
