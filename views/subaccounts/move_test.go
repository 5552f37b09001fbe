package subaccounts

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/livetest"
)

// liveSession is a session of the sandbox's demo access name on the
// account acct, its access and accounts read from the service, journaling
// into dir.
func liveSession(t *testing.T, c *api.Client, acct ui.Account, dir string) *ui.Session {
	t.Helper()
	info, err := c.AccessInfo(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	accts, err := c.ListAccounts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &ui.Session{Env: ui.EnvSandbox, Journal: j, Access: info, Accounts: accts, Account: acct, Time: screentest.NewClock(time.Now())}
}

// Moving 100 USDT from the main account to a sub-account from the
// Sub-accounts screen: m on the sub-account, the token, the amount, a
// confirmation naming both accounts with their balances before and after,
// y; the ticket is made once, journaled, and the sub-account is credited
// once it is paid.
func TestMoveFundsToASubAccountAgainstTheSandbox(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 24})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	c := livetest.Client(t, livetest.Serve(t, sb), "operator", 10*time.Second)
	dir := t.TempDir()
	s := liveSession(t, c, ui.Account{ID: uuid.Nil}, dir)
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 30)
	subs, err := c.ListSubAccounts(t.Context(), api.SubAccountFilter{})
	if err != nil || len(subs.Items) == 0 {
		t.Fatalf("sub-accounts: %v", err)
	}
	mainBefore := balance(t, c, uuid.Nil, "USDT")

	// m on the main account's own row is refused with the reason.
	d.Key("m")
	if len(d.Toasts) != 1 || !strings.Contains(d.Toasts[0].Text, "select the account they go to") || len(d.Prompts) != 0 {
		t.Fatalf("m on the operated account: toasts %+v, prompts %d", d.Toasts, len(d.Prompts))
	}
	d.Key("down")
	row, _ := d.Screen.(*Screen).table.Selected()
	var to api.SubAccount
	for _, sa := range subs.Items {
		if sa.SubAccountID == row.acc.ID {
			to = sa
		}
	}
	subBefore := balance(t, c, to.SubAccountID, "USDT")
	d.Key("m")
	if len(d.Prompts) != 1 || !strings.Contains(d.Prompts[0].Title, to.AccountInfo.Name) {
		t.Fatalf("no token prompt naming %s: %+v", to.AccountInfo.Name, d.Prompts)
	}
	if err := d.Prompts[0].Validate("BRL"); err == nil {
		t.Error("BRL, not a balance token, was accepted")
	}
	d.Run(d.Prompts[0].OnSubmit("usdt"))
	if err := d.Prompts[1].Validate("1,234"); err == nil {
		t.Error(`"1,234" was accepted as an amount`)
	}
	d.Run(d.Prompts[1].OnSubmit("100"))
	if len(d.Asks) != 1 {
		t.Fatalf("no confirmation: toasts %+v", d.Toasts)
	}
	ask := d.Asks[0]
	for _, want := range []string{
		"Acme Treasury Ltda", to.AccountInfo.Name,
		fmtUSDT(mainBefore) + " → " + fmtUSDT(mainBefore.Sub(decimal.NewFromInt(100))),
		fmtUSDT(subBefore.Add(decimal.NewFromInt(100))) + " once paid",
		"Price: 1 USDT = 1.000000 USDT", "External id: move-", "Environment: sandbox",
	} {
		if !strings.Contains(ask.Title+"\n"+ask.Body, want) {
			t.Errorf("confirmation lacks %q:\n%s\n%s", want, ask.Title, ask.Body)
		}
	}
	if got := balance(t, c, uuid.Nil, "USDT"); !got.Equal(mainBefore) {
		t.Fatalf("moved before the confirmation: %s", got)
	}
	d.Run(ask.OnYes)
	last := d.Toasts[len(d.Toasts)-1]
	if last.Level != ui.ToastSuccess || !strings.Contains(last.Text, "ticket ") || !strings.Contains(last.Text, "credited when paid") {
		t.Fatalf("outcome toast %+v", last)
	}
	if got := balance(t, c, uuid.Nil, "USDT"); !got.Equal(mainBefore.Sub(decimal.NewFromInt(100))) {
		t.Errorf("main USDT %s after the move, want %s − 100", got, mainBefore)
	}
	// The sub-account is credited once the ticket is paid (the sandbox's
	// lifecycle, on its real clock).
	deadline := time.Now().Add(20 * time.Second)
	for !balance(t, c, to.SubAccountID, "USDT").Equal(subBefore.Add(decimal.NewFromInt(100))) {
		if time.Now().After(deadline) {
			t.Fatalf("sub-account USDT still %s, want %s + 100", balance(t, c, to.SubAccountID, "USDT"), subBefore)
		}
		time.Sleep(100 * time.Millisecond)
	}
	entries, err := journal.ReadFile(filepath.Join(dir, journal.FileName))
	if err != nil || len(entries) != 1 || entries[0].IDs["beneficiaryWalletId"] != to.SubAccountID.String() {
		t.Fatalf("journal: %v, %+v", err, entries)
	}
}

// From a sub-account, m on a sibling sub-account is refused: funds go
// back through the main account.
func TestASubAccountMovesOnlyToTheMainAccount(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 24})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	c := livetest.Client(t, livetest.Serve(t, sb), "operator", 10*time.Second)
	subs, err := c.ListSubAccounts(t.Context(), api.SubAccountFilter{})
	if err != nil || len(subs.Items) < 2 {
		t.Fatalf("sub-accounts: %v", err)
	}
	from := subs.Items[0]
	s := liveSession(t, c, ui.Account{ID: from.SubAccountID, Name: from.AccountInfo.Name}, t.TempDir())
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 30)
	d.Key("down", "down", "m") // the second sub-account
	if len(d.Toasts) != 1 || !strings.Contains(d.Toasts[0].Text, "only to the main account") || len(d.Prompts) != 0 {
		t.Fatalf("a move between sub-accounts: toasts %+v, prompts %d", d.Toasts, len(d.Prompts))
	}
	// :move with no account goes to the main account.
	d.Send(ui.NavigateMsg{Screen: "subaccounts", Action: ui.ActionMoveFunds})
	if len(d.Prompts) != 1 || !strings.Contains(d.Prompts[0].Title, "to Acme Treasury Ltda") {
		t.Fatalf(":move from a sub-account: prompts %+v, toasts %+v", d.Prompts, d.Toasts)
	}
}

func balance(t *testing.T, c *api.Client, acct uuid.UUID, cur string) decimal.Decimal {
	t.Helper()
	b, err := c.Balances(t.Context(), acct)
	if err != nil {
		t.Fatal(err)
	}
	return b[cur]
}

func fmtUSDT(d decimal.Decimal) string {
	return money.Format(d, "USDT")
}

// failingOnce is the sandbox's client whose first ticket creation fails
// before it is sent, as a dropped connection would.
type failingOnce struct {
	*api.Client
	failed bool
}

func (f *failingOnce) CreateTicket(ctx context.Context, sub uuid.UUID, req api.CreateTicketRequest) (*api.CreateTicketResult, error) {
	if !f.failed {
		f.failed = true
		return nil, errors.New("connection reset by peer")
	}
	return f.Client.CreateTicket(ctx, sub, req)
}

// A move that fails is offered again under the same external id, and
// trying again moves the funds once.
func TestAFailedMoveIsTriedAgainUnderItsExternalID(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 24})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	c := livetest.Client(t, livetest.Serve(t, sb), "operator", 10*time.Second)
	svc := &failingOnce{Client: c}
	d := screentest.Drive(t, liveSession(t, c, ui.Account{ID: uuid.Nil}, t.TempDir()), func(s *ui.Session) ui.Screen { return New(s, svc) }, 120, 30)
	mainBefore := balance(t, c, uuid.Nil, "USDT")
	d.Key("down", "m")
	d.Run(d.Prompts[0].OnSubmit("USDT"))
	d.Run(d.Prompts[1].OnSubmit("100"))
	first := d.Asks[0]
	d.Run(first.OnYes)
	if len(d.Asks) != 2 || !strings.Contains(d.Asks[1].Title, "Try the move again?") || !strings.Contains(d.Asks[1].Body, "not made: connection reset") {
		t.Fatalf("no offer to try again after a failure: %+v", d.Asks[1:])
	}
	if got := balance(t, c, uuid.Nil, "USDT"); !got.Equal(mainBefore) {
		t.Fatalf("the failed move moved %s", mainBefore.Sub(got))
	}
	d.Run(d.Asks[1].OnYes)
	if len(d.Asks) != 3 {
		t.Fatalf("trying again did not price the move: toasts %+v", d.Toasts)
	}
	ext := func(body string) string {
		_, after, _ := strings.Cut(body, "External id: ")
		id, _, _ := strings.Cut(after, "\n")
		return id
	}
	if a, b := ext(first.Body), ext(d.Asks[2].Body); a == "" || a != b {
		t.Fatalf("the retry's external id %q, the first's %q", b, a)
	}
	d.Run(d.Asks[2].OnYes)
	if got := balance(t, c, uuid.Nil, "USDT"); !got.Equal(mainBefore.Sub(decimal.NewFromInt(100))) {
		t.Errorf("main USDT %s after the retry, want %s − 100 (once)", got, mainBefore)
	}
}
