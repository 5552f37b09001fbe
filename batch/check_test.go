package batch

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

func TestCheckReportsEveryRowAndSendsNothingWhileOneIsInvalid(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	f := mustParse(t, "beneficiary,chain,amount,currency,source\n"+
		"Maria Silva,,100.00,BRL,\n"+ // alias
		"529.982.247-25,,5,BRL,\n"+ // her PIX key, typed with punctuation
		"Bank Co,,7,BRL,\n"+ // bank-field beneficiary: named by the registration
		"0x52908400098527886e0f7030069857d2e4169ee7,POLYGON,3,USDC,USDC\n"+ // lower-case address
		"Nobody,,5,BRL,\n"+
		"Gone Key,,5,BRL,\n"+ // pix-info: nobody holds it
		"Twin,,5,BRL,\n"+ // ambiguous alias
		"Maria Silva,,5,USDC,USDC\n"+ // a PIX account paid in a token
		"0x52908400098527886E0F7030069857D2E4169Ee7,POLYGON,3,USDC,USDC\n"+ // bad checksum
		"fornecedor@unknown.example,,5,BRL,\n"+ // valid key, unregistered, nobody holds it
		"Cold,,3,USDC,USDC\n") // wallet by alias
	plan, err := Check(context.Background(), svc, f, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "", "", "", `"Nobody" is no registered beneficiary`, "nobody holds it", `2 beneficiaries are called "Twin"`,
		"the currency must be BRL", "checksum", "nobody holds it", ""}
	for i, w := range want {
		got := plan.Rows[i].Problem
		if (w == "") != (got == "") || !strings.Contains(got, w) {
			t.Errorf("row %d: %q, want %q", i+1, got, w)
		}
	}
	if p := plan.Rows[1].Payee; p.Name != "Maria S. Silva" || p.TaxID != "***.982.247-**" || p.Alias != "Maria Silva" {
		t.Errorf("PIX key row payee %+v: want the pix-info holder", p)
	}
	if p := plan.Rows[2].Payee; p.Name != "Bank Co Ltda" {
		t.Errorf("bank row payee %+v", p)
	}
	if plan.Rows[3].Method != "POLYGON" || plan.Rows[0].Method != "PIX" {
		t.Errorf("methods %s %s", plan.Rows[3].Method, plan.Rows[0].Method)
	}
	// Totals of the valid rows: what they receive, what the account pays.
	if !plan.Out["BRL"].Equal(decimal.RequireFromString("112")) || !plan.Out["USDC"].Equal(decimal.RequireFromString("6")) {
		t.Errorf("out %v", plan.Out)
	}
	if !plan.In["BRLA"].Equal(decimal.RequireFromString("116.12")) {
		t.Errorf("in %v (100*1.01+1 + 5*1.01+1 + 7*1.01+1)", plan.In)
	}
	if plan.Ready() || len(plan.Problems) != 0 {
		t.Fatalf("ready %v, problems %v", plan.Ready(), plan.Problems)
	}
	_, _, creates := svc.count()
	if _, err := Run(context.Background(), svc, plan, Options{Clock: clk}, nil); err == nil || !strings.Contains(err.Error(), "6 row(s) are invalid") {
		t.Fatalf("run of a plan with invalid rows: %v", err)
	}
	if _, _, c := svc.count(); c != creates {
		t.Fatal("a creation was sent while rows were invalid")
	}
	// Only the valid rows, by choice.
	plan.OnlyValid()
	prog, err := Run(context.Background(), svc, plan, Options{Clock: clk}, nil)
	if err != nil || prog.Created != 5 || prog.Remaining != 0 {
		t.Fatalf("only valid: %+v %v", prog, err)
	}
}

func TestCheckRefusesTheBatchForTheAccount(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	svc.info.AccountPermissions.PayOut = false
	svc.info.FrozenUntil = api.NewTime(clk.Now().Add(time.Hour))
	svc.bal["BRLA"] = decimal.RequireFromString("50")
	svc.limits.Limits[0].MaxFiatOut = decimal.RequireFromString("1050") // 50 left
	plan, err := Check(context.Background(), svc, mustParse(t, rows(5)), Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(plan.Problems, "\n")
	for _, w := range []string{"lacks the payOut permission", "frozen until", "BRLA balance is 50", "over the month's limit: 62.50 BRL out by fiat rails, 50.00 BRL left this month"} {
		if !strings.Contains(all, w) {
			t.Errorf("problems lack %q:\n%s", w, all)
		}
	}
	if _, err := Run(context.Background(), svc, plan, Options{Clock: clk}, nil); err == nil {
		t.Fatal("a refused batch ran")
	}
	if _, _, c := svc.count(); c != 0 {
		t.Fatal("creations were sent")
	}
}

func TestWavesRequoteRowsWhoseQuoteWouldExpireBeforeTheirTurn(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	// Each creation takes a second of the fake clock: with one at a time,
	// the quotes of the review run out after about ten rows.
	svc.createTakes = time.Second
	plan, err := Check(context.Background(), svc, mustParse(t, rows(30)), Options{Clock: clk, Concurrency: 1})
	if err != nil || !plan.Ready() {
		t.Fatalf("%v %v", err, plan.Problems)
	}
	_, priced, _ := svc.count()
	if priced != 30 {
		t.Fatalf("%d quotes at review, want 30", priced)
	}
	var requoted []int
	prog, err := Run(context.Background(), svc, plan, Options{Clock: clk, Concurrency: 1}, func(o Outcome, _ Progress) {
		if o.Requoted {
			requoted = append(requoted, o.Row.N)
		}
	})
	if err != nil || prog.Created != 30 {
		t.Fatalf("%+v %v", prog, err)
	}
	// Quotes of t0 last until t0+15s and a row needs 5 s left: row k's turn
	// comes at t0+(k-1)s, so rows 1..11 use the review's quotes and the
	// later ones are quoted again right before their creation.
	tickets, quotes, creates := svc.count()
	if tickets != 30 || creates != 30 {
		t.Errorf("%d tickets from %d creations: a creation met an expired quote", tickets, creates)
	}
	if len(requoted) != 19 || requoted[0] != 12 || quotes != 30+19 {
		t.Errorf("re-quoted rows %v (%d quotes): want rows 12 to 30", requoted, quotes)
	}

	// A review left open for a minute: every quote is renewed, none is
	// sent expired.
	svc2 := newFake(clk)
	plan2, _ := Check(context.Background(), svc2, mustParse(t, rows(8)), Options{Clock: clk})
	clk.Advance(time.Minute)
	if prog, err := Run(context.Background(), svc2, plan2, Options{Clock: clk}, nil); err != nil || prog.Created != 8 {
		t.Fatalf("%+v %v", prog, err)
	}
	if _, q, c := svc2.count(); q != 16 || c != 8 {
		t.Errorf("%d quotes, %d creations; want 16 and 8", q, c)
	}
}

func TestARequoteThatCostsMoreThanReviewedIsRefused(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	plan, _ := Check(context.Background(), svc, mustParse(t, rows(2)), Options{Clock: clk})
	clk.Advance(time.Minute)
	svc.rate = decimal.RequireFromString("1.05")
	var errs []string
	prog, err := Run(context.Background(), svc, plan, Options{Clock: clk}, func(o Outcome, _ Progress) { errs = append(errs, o.Err) })
	if err != nil || prog.Failed != 2 || prog.Created != 0 {
		t.Fatalf("%+v %v", prog, err)
	}
	if !strings.Contains(errs[0], "the price moved since the review") {
		t.Errorf("error %q", errs[0])
	}
}

func TestInterruptedRunResumesWithoutPayingTwice(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	f := mustParse(t, rows(20))
	plan, _ := Check(context.Background(), svc, f, Options{Clock: clk})
	ctx, cancel := context.WithCancel(context.Background())
	prog, err := Run(ctx, svc, plan, Options{Clock: clk, Concurrency: 2}, func(o Outcome, p Progress) {
		if p.Created == 6 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || prog.Created < 6 || prog.Created == 20 || prog.Remaining != 0 {
		t.Fatalf("interrupted run: %+v %v", prog, err)
	}
	first := prog.Created
	// The same file again: a new plan, the same external ids.
	plan2, _ := Check(context.Background(), svc, mustParse(t, rows(20)), Options{Clock: clk})
	var existing int
	prog, err = Run(context.Background(), svc, plan2, Options{Clock: clk}, func(o Outcome, _ Progress) {
		if o.Status == Existing {
			existing++
		}
	})
	if err != nil || prog.Created != 20-first || prog.Existing != first || existing != first {
		t.Fatalf("resumed run: %+v %v (existing %d, first run %d)", prog, err, existing, first)
	}
	if tickets, _, creates := svc.count(); tickets != 20 || creates != 20 {
		t.Errorf("%d tickets from %d creations, want 20 and 20", tickets, creates)
	}
}

func TestARefusalForTheWholeBatchStopsIt(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	svc.onCreate = func(n int, _ api.CreateTicketRequest) error {
		if n >= 3 {
			return &api.Error{Status: 403, Code: "ACCESS_FROZEN", Message: "frozen"}
		}
		return nil
	}
	plan, _ := Check(context.Background(), svc, mustParse(t, rows(40)), Options{Clock: clk})
	var notSent int
	prog, err := Run(context.Background(), svc, plan, Options{Clock: clk, Concurrency: 2}, func(o Outcome, _ Progress) {
		if o.Status == NotSent {
			notSent++
		}
	})
	var se *StopError
	if !errors.As(err, &se) || !errors.Is(err, ErrStopped) {
		t.Fatalf("err %v", err)
	}
	if _, _, c := svc.count(); c > 6 || notSent < 30 || prog.Created != 2 {
		t.Errorf("%d creations sent, %d rows not sent, %+v: the batch did not stop", c, notSent, prog)
	}
}

func TestParkedRowsAreNotParkedAgain(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	svc.parks = true
	dir := filepath.Join(t.TempDir(), "batches")
	f := mustParse(t, rows(5))
	for run := range 2 {
		l, err := OpenLedger(dir, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		plan, _ := Check(context.Background(), svc, f, Options{Clock: clk, Ledger: l})
		prog, err := Run(context.Background(), svc, plan, Options{Clock: clk, Ledger: l}, nil)
		l.Close()
		if err != nil || prog.Parked != 5 {
			t.Fatalf("run %d: %+v %v", run, prog, err)
		}
	}
	if len(svc.ops) != 5 || svc.creates != 5 {
		t.Errorf("%d operations from %d creations, want 5 and 5", len(svc.ops), svc.creates)
	}
}

func TestALostParkedCreationIsNeverSentAgain(t *testing.T) {
	for _, parks := range []bool{true, false} {
		clk := newClock()
		svc := newFake(clk)
		svc.parks = parks
		svc.info.AccountPermissions.OperationRequester = parks
		svc.onCreate = func(n int, req api.CreateTicketRequest) error {
			if n == 1 {
				return &api.OutcomeUnknownError{ExternalID: req.ExternalID, Cause: errors.New("connection reset")}
			}
			return nil
		}
		dir := t.TempDir()
		f := mustParse(t, rows(3))
		var statuses [2][]Status
		for run := range 2 {
			l, err := OpenLedger(dir, f.Name)
			if err != nil {
				t.Fatal(err)
			}
			plan, _ := Check(context.Background(), svc, f, Options{Clock: clk, Concurrency: 1, Ledger: l})
			_, _ = Run(context.Background(), svc, plan, Options{Clock: clk, Concurrency: 1, Ledger: l}, func(o Outcome, _ Progress) {
				statuses[run] = append(statuses[run], o.Status)
			})
			l.Close()
		}
		if statuses[0][0] != Unknown {
			t.Fatalf("parks=%v: first run %v", parks, statuses[0])
		}
		switch {
		case parks && (statuses[1][0] != Unknown || svc.creates != 3 || len(svc.ops) != 2):
			t.Errorf("requester: second run %v, %d creations, %d operations: a lost parked creation was sent again", statuses[1], svc.creates, len(svc.ops))
		case !parks && (statuses[1][0] != Created || len(svc.tickets) != 3):
			t.Errorf("operator: second run %v, %d tickets: a lost creation that can be looked up must be retried", statuses[1], len(svc.tickets))
		}
	}
}

func TestUnregisteredKeysAndAddressesArePaidInline(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	svc.holders["fornecedor@example.com"] = api.PixInfo{Name: "Fornecedor Ltda", TaxID: "**.345.678/0001-**", BankName: "Banco Demo"}
	const addr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	f := mustParse(t, "beneficiary,chain,amount,currency,source\n"+
		"fornecedor@example.com,,5,BRL,\n"+
		addr+",POLYGON,3,USDC,USDC\n")
	plan, err := Check(context.Background(), svc, f, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Ready() {
		t.Fatalf("rows %q %q, problems %v", plan.Rows[0].Problem, plan.Rows[1].Problem, plan.Problems)
	}
	if p := plan.Rows[0].Payee; !p.Inline || p.Name != "Fornecedor Ltda" || p.Key != "fornecedor@example.com" {
		t.Errorf("PIX key payee %+v: want inline, named by pix-info", p)
	}
	var sent []api.CreateTicketRequest
	svc.onCreate = func(_ int, req api.CreateTicketRequest) error {
		sent = append(sent, req)
		return nil
	}
	if prog, err := Run(context.Background(), svc, plan, Options{Clock: clk, Concurrency: 1}, nil); err != nil || prog.Created != 2 {
		t.Fatalf("run: %+v %v", prog, err)
	}
	if len(sent) != 2 || sent[0].TicketBrlPixOutput == nil || sent[0].TicketBrlPixOutput.PixKey != "fornecedor@example.com" || sent[0].TicketBrlPixOutput.BeneficiaryBrlBankAccountID != nil {
		t.Fatalf("PIX row sent %+v", sent)
	}
	if w := sent[1].TicketBlockchainOutput; w == nil || w.WalletAddress != addr || w.WalletChain != "POLYGON" || w.BeneficiaryWalletID != nil {
		t.Fatalf("wallet row sent %+v", sent[1])
	}

	// An access that may pay registered beneficiaries only: refused row by
	// row, before anything is sent.
	svc.info.AccountPermissions.EnforceAllowedBeneficiaries = true
	f.Name = "another batch" // the same payouts, not yet paid
	for i := range f.Rows {
		f.Rows[i].ExternalID = RowExternalID(f.Name, f.Rows[i].content(), 1)
	}
	plan, err = Check(context.Background(), svc, f, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range plan.Rows {
		if !strings.Contains(r.Problem, "may only pay registered ones") {
			t.Errorf("row %d under enforceAllowedBeneficiaries: %q", i+1, r.Problem)
		}
	}
}

// TestAStopFinishesTheRowsInFlight: a run stopped while a creation is on
// its way (Ctrl-C, x, an account switch) lets that creation finish, so its
// outcome is known and recorded; no later row starts.
func TestAStopFinishesTheRowsInFlight(t *testing.T) {
	clk := newClock()
	svc := newFake(clk)
	ctx, cancel := context.WithCancel(context.Background())
	svc.onCreate = func(n int, _ api.CreateTicketRequest) error {
		if n == 2 {
			cancel() // the stop arrives while row 2's creation is in flight
		}
		return nil
	}
	plan, _ := Check(context.Background(), svc, mustParse(t, rows(6)), Options{Clock: clk})
	var got []Status
	prog, err := Run(ctx, svc, plan, Options{Clock: clk, Concurrency: 1}, func(o Outcome, _ Progress) { got = append(got, o.Status) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if prog.Created != 2 || prog.NotSent != 4 || prog.Failed != 0 || got[1] != Created {
		t.Fatalf("%+v %v: the row in flight was not finished, or later rows started", prog, got)
	}
	if tickets, _, creates := svc.count(); tickets != 2 || creates != 2 {
		t.Errorf("%d tickets from %d creations", tickets, creates)
	}
}
