package sandbox_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/validate"
)

func allTickets(t *testing.T, c *api.Client, f api.TicketFilter) []api.Ticket {
	t.Helper()
	var out []api.Ticket
	for tk, err := range api.All(ctx(t), func(cx context.Context, cursor string) (api.Page[api.Ticket], error) {
		f.Cursor = cursor
		return c.ListTickets(cx, f)
	}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tk)
	}
	return out
}

func TestDemoDataAndPagination(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 10})
	op := e.as("operator")
	first := must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{}))
	if len(first.Items) != 50 || first.Cursor == "" {
		t.Fatalf("first page: %d tickets, cursor %q; want 50 and a cursor", len(first.Items), first.Cursor)
	}
	all := allTickets(t, op, api.TicketFilter{})
	if len(all) < 280 || len(all) > 330 {
		t.Errorf("%d demo tickets on the main account, want about 300", len(all))
	}
	seen := map[uuid.UUID]bool{}
	states := map[api.TicketStatus]int{}
	for i, tk := range all {
		if seen[tk.ID] {
			t.Fatalf("ticket %s listed twice", tk.ID)
		}
		seen[tk.ID] = true
		states[tk.Status]++
		if i > 0 && tk.CreatedAt.After(all[i-1].CreatedAt.Time) {
			t.Fatalf("list is not newest first at %d", i)
		}
	}
	for _, s := range api.TicketStatuses {
		if states[s] == 0 {
			t.Errorf("no demo ticket is %s (%v)", s, states)
		}
	}
	oldest := all[len(all)-1].CreatedAt.Time
	if span := e.clock.Now().Sub(oldest); span < 80*24*time.Hour || span > 91*24*time.Hour {
		t.Errorf("demo tickets span %v, want about 90 days", span)
	}
	// Filters and a time window page consistently.
	paid := allTickets(t, op, api.TicketFilter{Status: "PAID"})
	if len(paid) != states[api.TicketPaid] {
		t.Errorf("status filter: %d PAID, counted %d", len(paid), states[api.TicketPaid])
	}
	from, to := e.clock.Now().Add(-30*24*time.Hour), e.clock.Now().Add(-10*24*time.Hour)
	win := allTickets(t, op, api.TicketFilter{CreatedAfter: from, CreatedBefore: to})
	n := 0
	for _, tk := range all {
		if !tk.CreatedAt.Before(from) && tk.CreatedAt.Before(to) {
			n++
		}
	}
	if len(win) != n || n == 0 {
		t.Errorf("window filter: %d tickets, counted %d", len(win), n)
	}

	// Operations pending and decided, beneficiaries of every kind, attempts.
	ops := must[api.Page[api.Operation]](t)(e.as("approver1").ListApproverOperations(ctx(t), ""))
	opStates := map[api.OperationStatus]int{}
	for _, o := range ops.Items {
		opStates[o.Status]++
	}
	for _, s := range []api.OperationStatus{api.OperationPending, api.OperationExecuted, api.OperationRejected, api.OperationExpired} {
		if opStates[s] == 0 {
			t.Errorf("no demo operation is %s (%v)", s, opStates)
		}
	}
	for _, sub := range append([]uuid.UUID{uuid.Nil}, e.subs...) {
		w := must[api.Page[api.Wallet]](t)(op.ListWallets(ctx(t), api.WalletFilter{SubAccountID: sub}))
		b := must[api.Page[api.BRLAccount]](t)(op.ListBRLAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub}))
		u := must[api.Page[api.USDAccount]](t)(op.ListUSDAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub}))
		c := must[api.Page[api.COPAccount]](t)(op.ListCOPAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub}))
		eur := must[api.Page[api.EURAccount]](t)(op.ListEURAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub}))
		ars := must[api.Page[api.ARSAccount]](t)(op.ListARSAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub}))
		for kind, n := range map[string]int{"wallets": len(w.Items), "brl": len(b.Items), "usd": len(u.Items), "cop": len(c.Items), "eur": len(eur.Items), "ars": len(ars.Items)} {
			if n < 2 || n > 4 {
				t.Errorf("account %s has %d %s beneficiaries, want 2–4", sub, n, kind)
			}
		}
		// The EUR and ARS payees are ones a user could have registered:
		// every number passes the checks the forms and the service apply.
		for _, x := range eur.Items {
			iban, err := validate.IBAN(x.IBAN)
			bic, bicErr := validate.BIC(x.BIC)
			a2, _ := validate.Alpha3To2(x.Country)
			if err != nil || iban != x.IBAN || bicErr != nil || bic != x.BIC || a2 != x.IBAN[:2] || x.BIC[4:6] != x.IBAN[:2] || x.Alias == "" || x.BankBeneficiaryName == "" {
				t.Errorf("demo EUR payee %+v: IBAN %v, BIC %v, country %s", x, err, bicErr, a2)
			}
		}
		for _, x := range ars.Items {
			if cvu, err := validate.CVU(x.CVU); err != nil || cvu != x.CVU || x.Alias == "" {
				t.Errorf("demo ARS payee %+v: %v", x, err)
			}
		}
	}
	att := must[api.Page[api.WebhookAttempt]](t)(op.ListWebhookAttempts(ctx(t), api.AttemptFilter{}))
	if len(att.Items) != 50 || att.Cursor == "" {
		t.Errorf("demo webhook attempts: %d on the first page", len(att.Items))
	}
}

// TestDemoDeterminism: the same seed on the same clock gives the same data.
func TestDemoDeterminism(t *testing.T) {
	t.Parallel() // several seeded sandboxes; runs beside the other long tests
	clk := newClock()
	a := newEnv(t, sandbox.Config{Seed: 11, Now: clk.Now})
	b := newEnv(t, sandbox.Config{Seed: 11, Now: clk.Now})
	c := newEnv(t, sandbox.Config{Seed: 12, Now: clk.Now})
	a.clock, b.clock, c.clock = clk, clk, clk
	ta := allTickets(t, a.as("operator"), api.TicketFilter{})
	tb := allTickets(t, b.as("operator"), api.TicketFilter{})
	tc := allTickets(t, c.as("operator"), api.TicketFilter{})
	ja, _ := json.Marshal(ta)
	jb, _ := json.Marshal(tb)
	jc, _ := json.Marshal(tc)
	if string(ja) != string(jb) {
		t.Error("the same seed gave different tickets")
	}
	if string(ja) == string(jc) {
		t.Error("different seeds gave the same tickets")
	}
	oa := must[api.Page[api.Operation]](t)(a.as("approver1").ListApproverOperations(ctx(t), ""))
	ob := must[api.Page[api.Operation]](t)(b.as("approver1").ListApproverOperations(ctx(t), ""))
	if !reflect.DeepEqual(oa.Items, ob.Items) {
		t.Error("the same seed gave different operations")
	}
	payees := func(e *env) (eur []api.EURAccount, ars []api.ARSAccount) {
		for _, sub := range append([]uuid.UUID{uuid.Nil}, e.subs...) {
			eur = append(eur, must[api.Page[api.EURAccount]](t)(e.as("operator").ListEURAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub})).Items...)
			ars = append(ars, must[api.Page[api.ARSAccount]](t)(e.as("operator").ListARSAccounts(ctx(t), api.BeneficiaryFilter{SubAccountID: sub})).Items...)
		}
		return eur, ars
	}
	ea, aa := payees(a)
	eb, ab := payees(b)
	ec, ac := payees(c)
	if !reflect.DeepEqual(ea, eb) || !reflect.DeepEqual(aa, ab) {
		t.Error("the same seed gave different EUR or ARS beneficiaries")
	}
	if reflect.DeepEqual(ea, ec) || reflect.DeepEqual(aa, ac) {
		t.Error("different seeds gave the same EUR or ARS beneficiaries")
	}
}

func TestStatePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	clk := newClock()
	e := newEnv(t, sandbox.Config{Seed: 13, StatePath: path, Now: clk.Now})
	e.clock = clk
	op := e.as("operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("3000")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: "persist-me"})).Ticket
	wid := must[uuid.UUID](t)(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "kept", WalletAddress: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", WalletChain: "BASE"}))
	parked := must[*api.CreateTicketResult](t)(e.as("requester").CreateTicket(ctx(t), uuid.Nil, payoutRequest(t, e.as("requester"), uuid.Nil, "15"))).Operation
	before := must[api.Balances](t)(op.Balances(ctx(t), uuid.Nil))
	if err := e.run.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := newEnv(t, sandbox.Config{Seed: 13, StatePath: path, Now: clk.Now})
	e2.clock = clk
	op2 := e2.as("operator")
	got := must[*api.Ticket](t)(op2.GetTicket(ctx(t), uuid.Nil, tk.ID))
	if got.ExternalID != "persist-me" || got.Status != api.TicketUnpaid {
		t.Errorf("ticket after restart: %+v", got)
	}
	must[*api.Wallet](t)(op2.GetWallet(ctx(t), uuid.Nil, wid))
	if after := must[api.Balances](t)(op2.Balances(ctx(t), uuid.Nil)); !after["BRLA"].Equal(before["BRLA"]) {
		t.Errorf("balance after restart %s, want %s", after["BRLA"], before["BRLA"])
	}
	// The lifecycle goes on after a restart.
	must[*api.Ticket](t)(op2.SandboxFundTicket(ctx(t), uuid.Nil, tk.ID))
	clk.Add(3 * time.Second)
	if got := must[*api.Ticket](t)(op2.GetTicket(ctx(t), uuid.Nil, tk.ID)); got.Status != api.TicketPaid {
		t.Errorf("restored ticket after funding: %s", got.Status)
	}
	o := must[*api.Operation](t)(e2.as("approver1").ApproveOperation(ctx(t), parked.ID))
	o = must[*api.Operation](t)(e2.as("approver2").ApproveOperation(ctx(t), o.ID))
	if o.Status != api.OperationExecuted {
		t.Errorf("restored operation did not execute: %s %s", o.Status, o.Reason)
	}
	_, err := sandbox.New(sandbox.Config{Seed: 14, StatePath: path})
	if err == nil {
		t.Error("a state file of another seed was accepted")
	}
}
