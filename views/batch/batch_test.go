package batch

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/livetest"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// shared is one sandbox for the package's tests (its demo data takes a
// while to build under the race detector); each test pays its own file.
var shared struct {
	once  sync.Once
	creds sandbox.Credentials
	err   error
}

// operator is the api client of the demo operator of a sandbox served over
// real HTTP.
func operator(t *testing.T) *api.Client {
	t.Helper()
	shared.once.Do(func() {
		sb, err := sandbox.New(sandbox.Config{Seed: 2})
		if err != nil {
			shared.err = err
			return
		}
		srv := httptest.NewServer(sb.Handler())
		shared.creds = sb.Credentials(srv.URL)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return livetest.Client(t, shared.creds, "operator", 10*time.Second)
}

var batchSeq atomic.Int64

// payoutFile writes n valid rows to a demo beneficiary, then extra lines.
func payoutFile(t *testing.T, c *api.Client, n int, extra string) string {
	t.Helper()
	p, err := c.ListBRLAccounts(t.Context(), api.BeneficiaryFilter{})
	if err != nil || len(p.Items) == 0 {
		t.Fatal("no beneficiary", err)
	}
	var sb strings.Builder
	sb.WriteString("beneficiary,amount,currency\n")
	for i := range n {
		fmt.Fprintf(&sb, "%s,%d.25,BRL\n", p.Items[0].ID, 10+i)
	}
	sb.WriteString(extra)
	// Each test pays a batch of its own: the rows of the shared sandbox's
	// batches are found by their name and content.
	path := filepath.Join(t.TempDir(), fmt.Sprintf("friday%d.csv", batchSeq.Add(1)))
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func session(t *testing.T, env ui.Environment) *ui.Session {
	dir := t.TempDir()
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &ui.Session{Env: env, StateDir: dir, Journal: j, Time: screentest.NewClock(screentest.Epoch),
		Access: &api.AccessInfo{Email: "operator@demo.test", AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true}}}
}

func open(d *screentest.Driver, path string) {
	d.Key("o")
	d.Type(path)
	d.Key("enter")
}

func TestReviewRefusesInvalidRowsThenPaysOnConfirmation(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 3, "Nobody,5.00,BRL\n")
	s := session(t, ui.EnvSandbox)
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 24)
	open(d, path)
	v := d.PlainView()
	for _, want := range []string{"File: " + path, "10.25 BRL", "12.25 BRL", "INVALID: \"Nobody\" is no r", "Rows: 3 to pay, 0 already created, 0 parked earlier, 1 invalid, of 4", "1 row is invalid: nothing is paid", "Environment: SANDBOX", "Account:"} {
		if !strings.Contains(v, want) {
			t.Errorf("review lacks %q:\n%s", want, v)
		}
	}
	screentest.CheckSize(t, d.Screen.View(), 120, 24)
	d.Key("c")
	if len(d.Asks) != 0 {
		t.Fatal("a batch with an invalid row asked to be confirmed")
	}
	// Dropping the invalid row is a choice, then one confirmation.
	d.Key("v")
	if v := d.PlainView(); !strings.Contains(v, "Rows: 3 to pay, 0 already created, 0 parked earlier, 0 invalid, of 3") || !strings.Contains(v, "They receive: 33.75 BRL") {
		t.Fatalf("after v:\n%s", v)
	}
	d.Key("c")
	if len(d.Asks) != 1 || !strings.Contains(d.Asks[0].Body, "They receive: 33.75 BRL") || !strings.Contains(d.Asks[0].Body, "SANDBOX") {
		t.Fatalf("confirmation %+v", d.Asks)
	}
	d.Run(d.Asks[0].OnYes)
	v = d.PlainView()
	if !strings.Contains(v, "created 3 · already created 0 · parked for approval 0 · failed 0 · not sent 0 · remaining 0") || !strings.Contains(v, "Every row went through") {
		t.Fatalf("after the run:\n%s", v)
	}
	if len(d.Toasts) == 0 || d.Toasts[len(d.Toasts)-1].Level != ui.ToastSuccess {
		t.Errorf("toasts %+v", d.Toasts)
	}
	res, err := os.ReadFile(strings.TrimSuffix(path, ".csv") + ".results.csv")
	if err != nil || strings.Count(string(res), ",created,") != 3 {
		t.Errorf("results: %v\n%s", err, res)
	}
	entries, _ := journal.ReadFile(s.Journal.Path())
	if len(entries) != 3 || entries[0].Action != "batch-payout" || entries[0].IDs["ticketId"] == "" {
		t.Errorf("journal %+v", entries)
	}

	// The same file again (o keeps the last path): every row is found,
	// none is paid twice.
	d.Key("o", "enter", "v", "c")
	d.Run(d.Asks[len(d.Asks)-1].OnYes)
	res, _ = os.ReadFile(strings.TrimSuffix(path, ".csv") + ".results.csv")
	if strings.Count(string(res), ",existing,") != 3 {
		t.Errorf("second run:\n%s", res)
	}
}

func TestProductionConfirmationRequiresTypingTheTotal(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 2, "")
	d := screentest.Drive(t, session(t, ui.EnvProduction), func(s *ui.Session) ui.Screen { return New(s, c) }, 100, 20)
	open(d, path)
	d.Key("c")
	if len(d.Asks) != 0 || len(d.Prompts) != 1 {
		t.Fatalf("asks %d prompts %d: production must ask for the total", len(d.Asks), len(d.Prompts))
	}
	p := d.Prompts[0]
	if !strings.Contains(p.Title, "PRODUCTION") || !strings.Contains(p.Title, "21.50 BRL") {
		t.Errorf("prompt %q", p.Title)
	}
	for _, wrong := range []string{"", "y", "21.5 0", "21.49", "1.234,56"} {
		if p.Validate(wrong) == nil {
			t.Errorf("%q accepted as the total", wrong)
		}
	}
	if err := p.Validate("21.50"); err != nil {
		t.Fatalf("the right total refused: %v", err)
	}
	d.Run(p.OnSubmit("21.50"))
	if v := d.PlainView(); !strings.Contains(v, "created 2") {
		t.Fatalf("after typing the total:\n%s", v)
	}
}

func TestABadFileIsShownAndNothingIsAsked(t *testing.T) {
	c := operator(t)
	path := filepath.Join(t.TempDir(), "latin1.csv")
	os.WriteFile(path, []byte("beneficiary,amount,currency\nJo\xe3o,1,BRL\n"), 0o600)
	d := screentest.Drive(t, session(t, ui.EnvSandbox), func(s *ui.Session) ui.Screen { return New(s, c) }, 80, 12)
	if d.Screen.Capturing() {
		t.Fatal("the screen captures keys before o")
	}
	d.Key("o")
	if !d.Screen.Capturing() {
		t.Fatal("typing a path does not capture keys")
	}
	d.Type(path)
	d.Key("enter")
	if v := d.PlainView(); !strings.Contains(v, "line 2 is not UTF-8") {
		t.Fatalf("view:\n%s", v)
	}
	d.Key("c")
	if len(d.Asks)+len(d.Prompts) != 0 {
		t.Fatal("a confirmation without a plan")
	}
	screentest.CheckSize(t, d.Screen.View(), 80, 12)
	screentest.CheckSize(t, d.Screen.View(), 80, 12)
}

func TestAReadOnlySessionReviewsButCannotPay(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 1, "")
	s := session(t, ui.EnvSandbox)
	s.ReadOnly = true
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, c) }, 100, 20)
	open(d, path)
	if v := d.PlainView(); !strings.Contains(v, "Rows: 1 to pay, 0 already created, 0 parked earlier, 0 invalid, of 1") {
		t.Fatalf("review:\n%s", v)
	}
	d.Key("c")
	if len(d.Asks)+len(d.Prompts) != 0 {
		t.Fatal("a read-only session was asked to confirm a payment")
	}
	for _, b := range d.Screen.KeyMap() {
		if b.Help().Desc == "confirm and pay" && b.Enabled() {
			t.Error("the confirm key is offered in read-only mode")
		}
	}
}

// A file paying several currencies shows each row's destination (the bank
// account, IBAN or CVU masked, USD's rail) and the totals per currency.
func TestReviewShowsFiatDestinationsAndTotalsPerCurrency(t *testing.T) {
	c := operator(t)
	ctx := t.Context()
	if _, err := c.CreateUSDAccount(ctx, uuid.Nil, livetest.USDAccount("Review Acme", "Acme Inc")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateEURAccount(ctx, uuid.Nil, api.CreateEURAccountRequest{Alias: "Review Zeta", IBAN: "DE89370400440532013000", Country: "DEU", BankBeneficiaryName: "Zeta GmbH"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateARSAccount(ctx, uuid.Nil, api.CreateARSAccountRequest{Alias: "Review Sur", CVU: "0000003100010000000009"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mixed.csv")
	os.WriteFile(path, []byte("beneficiary,amount,currency,rail,source,reference\n"+
		"Review Acme,100.00,USD,WIRE,USDC,inv 1\n"+
		"Review Zeta,50.00,EUR,,EURC,Rechnung 2\n"+
		"Review Sur,1000.00,ARS,,USDC,\n"+
		"Review Acme,10.00,BRL,,,\n"), 0o600)
	d := screentest.Drive(t, session(t, ui.EnvSandbox), func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 24)
	open(d, path)
	v := d.PlainView()
	for _, want := range []string{"Destination", "WIRE Chase ••••6789", "IBAN DE89 ••••3000", "CVU ••••0009",
		"Review Acme (Acme Inc)", "INVALID: Review Acme is a USD bank account (ACH or WIRE): the currency must be USD", "Rows: 3 to pay, 0 already created, 0 parked earlier, 1 invalid, of 4",
		"They receive: 1,000.00 ARS, 50.00 EUR, 100.00 USD", "Prices: 1 USDC = 1.00 USD, 1 EURC = 1.00 EUR, 1 USDC = "} {
		if !strings.Contains(v, want) {
			t.Errorf("review lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "000123456789") || strings.Contains(v, "370400440532") {
		t.Errorf("a whole account number is on the screen:\n%s", v)
	}
	screentest.CheckSize(t, d.Screen.View(), 120, 24)
}

// The review fits 80x24 and 40x12 as it fits 120: one line per row, no
// amount cut, at 80 the destination and what each row pays too; narrow,
// the account and environment on the title line, the count on the file's
// line, and the totals and what c does (or why nothing is paid) in view.
func TestReviewFitsMediumAndNarrowTerminals(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 3, "Nobody,5.00,BRL\n")
	d := screentest.Drive(t, session(t, ui.EnvSandbox), func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 24)
	open(d, path)
	amounts := []string{" 10.25 BRL ", " 11.25 BRL ", " 12.25 BRL "}
	for _, sz := range []struct {
		w, h int
		want []string
	}{
		{80, 24, []string{"Destination", "Pays", "Rows: 3 to pay, 0 already created, 0 parked earlier, 1 invalid, of 4", "They receive: 33.75 BRL", "You pay (at today's quotes): ",
			"Environment: SANDBOX", "1 row is invalid: nothing is paid"}},
		{40, 12, []string{"SANDBOX · ", "File: " + filepath.Base(path) + " · 3 to pay of 4", "Receive: 33.75 BRL", "Pay: ",
			"1 invalid: o opens a file, v drops them"}},
	} {
		d.Screen.SetSize(sz.w, sz.h)
		screentest.CheckSize(t, d.Screen.View(), sz.w, sz.h)
		v := d.PlainView()
		for _, want := range sz.want {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: the review lacks %q:\n%s", sz.w, sz.h, want, v)
			}
		}
		rows := 0
		for _, l := range strings.Split(v, "\n") {
			for _, a := range amounts {
				if strings.Contains(l+" ", a) {
					rows++
				}
			}
			if strings.HasPrefix(l, "4 ") && !strings.Contains(l, "INVALID: ") {
				t.Errorf("%dx%d: the invalid row does not say so: %q", sz.w, sz.h, l)
			}
		}
		if rows != len(amounts) {
			t.Errorf("%dx%d: %d of the %d amounts are whole on one row each:\n%s", sz.w, sz.h, rows, len(amounts), v)
		}
	}
}

// An invalid row's reason is read whole at every width: it wraps under the
// row instead of being cut, and the row after it keeps its own line. At
// 40x12 the reason is taller than the room the rows have: its last line
// shown ends in "…↓", and ↓ scrolls line by line to the rest.
func TestInvalidRowReasonIsReadWholeAtEveryWidth(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 1, "Nobody at all not even the cousin of our main supplier Ltda,5.00,BRL\n"+fmt.Sprintf("%s,9.25,BRL\n", firstBRL(t, c)))
	d := screentest.Drive(t, session(t, ui.EnvSandbox), func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 40)
	open(d, path)
	reason := "INVALID: " + d.Screen.(*Screen).plan.Rows[1].Problem
	if len(reason) < 200 {
		t.Fatalf("the reason is too short to test wrapping: %q", reason)
	}
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 12}} {
		d.Screen.SetSize(sz.w, sz.h)
		screentest.CheckSize(t, d.Screen.View(), sz.w, sz.h)
		if v := d.PlainView(); strings.Contains(v, "…↓") != (sz.w == 40) {
			t.Errorf("%dx%d: a reason cut at the bottom must be marked, and only then:\n%s", sz.w, sz.h, v)
		}
		seen := readRows(d, 12)
		if got := rowText(seen, "2 "); !strings.Contains(got, reason) {
			t.Errorf("%dx%d: the reason is not whole:\n%q\nwant %q\n%s", sz.w, sz.h, got, reason, strings.Join(seen, "\n"))
		}
		if rowText(seen, "3 ") == "" || !strings.Contains(rowText(seen, "3 "), "9.25 BRL") {
			t.Errorf("%dx%d: the row after the invalid one is not on its own line:\n%s", sz.w, sz.h, strings.Join(seen, "\n"))
		}
	}
}

// firstBRL is the id of the first demo BRL beneficiary.
func firstBRL(t *testing.T, c *api.Client) uuid.UUID {
	t.Helper()
	p, err := c.ListBRLAccounts(t.Context(), api.BeneficiaryFilter{})
	if err != nil || len(p.Items) == 0 {
		t.Fatal("no beneficiary", err)
	}
	return p.Items[0].ID
}

// readRows reads the review's rows as a user does: from the top, pressing
// ↓ n times, then ↑ back. It returns each row line seen once, in order,
// leaving out lines shown cut ("…↓") until they are seen whole.
func readRows(d *screentest.Driver, n int) []string {
	seen := map[string]bool{}
	var out []string
	for i := 0; i <= n; i++ {
		in := false
		for _, l := range strings.Split(d.PlainView(), "\n") {
			l = strings.TrimRight(l, " ")
			switch {
			case strings.HasPrefix(l, "Row "):
				in = true
				continue
			case !in:
				continue
			case l == "" || strings.HasPrefix(l, "Receive:"):
				in = false
				continue
			}
			if !strings.HasSuffix(l, "…↓") && !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
		if i < n {
			d.Key("down")
		}
	}
	for range n {
		d.Key("up")
	}
	return out
}

// rowText is the row line starting with prefix and its continuation lines
// (indented) as one text: words joined by a space, or by nothing after a
// line that ends in a hyphen (where the line broke a word).
func rowText(lines []string, prefix string) string {
	var b strings.Builder
	in := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, prefix):
			in = true
		case in && !strings.HasPrefix(l, " "):
			return b.String()
		}
		if !in {
			continue
		}
		l = strings.Join(strings.Fields(l), " ")
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteString(" ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// TestAYesToAnEarlierReviewIsDropped: the confirmation's yes is an answer
// awaited by the screen; once the file is checked again, a yes given to the
// earlier review starts nothing.
func TestAYesToAnEarlierReviewIsDropped(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 2, "")
	d := screentest.Drive(t, session(t, ui.EnvSandbox), func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 24)
	open(d, path)
	d.Key("c")
	if len(d.Asks) != 1 {
		t.Fatalf("confirmations %+v", d.Asks)
	}
	late := staletest.Answers(d.Asks[0].OnYes)
	d.Key("o", "enter") // the same file checked again: a new review
	if !strings.Contains(d.PlainView(), "Rows: 2 to pay") {
		t.Fatalf("second review:\n%s", d.PlainView())
	}
	for _, msg := range late {
		d.Send(msg)
	}
	if v := d.PlainView(); strings.Contains(v, "Paying") || strings.Contains(v, "created ") || !strings.Contains(v, "Rows: 2 to pay") {
		t.Fatalf("a yes to the earlier review started a run:\n%s", v)
	}
}

// TestAPaidFileReviewedAgainSaysWhatPaidEachRow: run, then the same file
// again: every row is marked created earlier with the ticket that paid it,
// nothing is totalled, and the run says that nothing was paid now.
func TestAPaidFileReviewedAgainSaysWhatPaidEachRow(t *testing.T) {
	c := operator(t)
	path := payoutFile(t, c, 2, "")
	d := screentest.Drive(t, session(t, ui.EnvSandbox), func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 24)
	open(d, path)
	d.Key("c")
	d.Run(d.Asks[0].OnYes)
	if v := d.PlainView(); !strings.Contains(v, "created 2 · already created 0") {
		t.Fatalf("first run:\n%s", v)
	}
	d.Key("o", "enter")
	v := d.PlainView()
	for _, want := range []string{"Rows: 0 to pay, 2 already created", "created earlier", "ticket ", "Nothing new to pay: earlier runs created or parked every valid row."} {
		if !strings.Contains(v, want) {
			t.Errorf("the second review lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "They receive:") {
		t.Errorf("the second review totals rows it will not pay:\n%s", v)
	}
	d.Key("c")
	d.Run(d.Asks[len(d.Asks)-1].OnYes)
	if v := d.PlainView(); !strings.Contains(v, "created 0 · already created 2") || !strings.Contains(v, "Nothing was paid now: earlier runs had created every row.") {
		t.Fatalf("second run:\n%s", v)
	}
}
