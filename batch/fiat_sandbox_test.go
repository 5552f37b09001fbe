package batch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// creations records the bodies of the ticket creations a sandbox answered
// 201, by external id.
type creations struct {
	mu     sync.Mutex
	bodies map[string][]map[string]json.RawMessage
}

// record wraps the sandbox's handler: every POST to the tickets collection
// is kept when the sandbox created a ticket for it.
func (c *creations) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v2/account/tickets") {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if rec.Code == http.StatusCreated {
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) == nil {
				var ext string
				_ = json.Unmarshal(m["externalId"], &ext)
				c.mu.Lock()
				c.bodies[ext] = append(c.bodies[ext], m)
				c.mu.Unlock()
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// A batch paying every kind of registered beneficiary, against the
// sandbox over HTTP: one ticket per row, each with its rail's block, then
// the same file again creates nothing.
func TestSandboxPaysEveryKindOfBeneficiaryOnce(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	seen := &creations{bodies: map[string][]map[string]json.RawMessage{}}
	srv := httptest.NewServer(seen.record(sb.Handler()))
	t.Cleanup(srv.Close)
	c := operatorClient(t, sb.Credentials(srv.URL))
	ctx := t.Context()
	usd, err := c.CreateUSDAccount(ctx, uuid.Nil, api.CreateUSDAccountRequest{Alias: "Batch Acme Inc", BankAccountNumber: "000123456789", BankRoutingNumber: "021000021", BankBeneficiaryName: "Acme Inc", BankName: "Chase",
		BeneficiaryAddress: &api.Address{StreetLine1: "1 Main St", City: "New York", State: "NY", PostalCode: "10001", Country: "USA"},
		BankAddress:        &api.Address{StreetLine1: "383 Madison Ave", City: "New York", State: "NY", PostalCode: "10017", Country: "USA"}})
	if err != nil {
		t.Fatalf("register USD: %v", err)
	}
	eur, err := c.CreateEURAccount(ctx, uuid.Nil, api.CreateEURAccountRequest{Alias: "Batch Zeta GmbH", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Country: "DEU", BankBeneficiaryName: "Zeta GmbH"})
	if err != nil {
		t.Fatalf("register EUR: %v", err)
	}
	ars, err := c.CreateARSAccount(ctx, uuid.Nil, api.CreateARSAccountRequest{Alias: "Batch Zeta SA", CVU: "0000003100010000000009"})
	if err != nil {
		t.Fatalf("register ARS: %v", err)
	}
	cop, err := c.CreateCOPAccount(ctx, uuid.Nil, api.CreateCOPAccountRequest{Alias: "Batch Andes SAS", BeneficiaryName: "Andes SAS", BeneficiaryType: "COMPANY", AccountType: "SAVINGS",
		BankAccountNumber: "1234567890", DocumentNumber: "900123456", DocumentType: "NIT", BankID: "007", BankName: "Bancolombia"})
	if err != nil {
		t.Fatalf("register COP: %v", err)
	}
	brl, err := c.ListBRLAccounts(ctx, api.BeneficiaryFilter{})
	if err != nil || len(brl.Items) == 0 {
		t.Fatal("no BRL beneficiary", err)
	}
	file := "beneficiary,amount,currency,rail,source,reference,external_id\n" +
		fmt.Sprintf("%s,12.34,BRL,,,nf 77,fiat-pix\n", brl.Items[0].ID) +
		"Batch Acme Inc,150.00,USD,,USDC,inv 2043,fiat-ach\n" +
		"Batch Acme Inc,2500.00,USD,WIRE,USDC,inv 2044,fiat-wire\n" +
		"Batch Zeta GmbH,80.00,EUR,,EURC,Rechnung 2045,fiat-sepa\n" +
		"Batch Zeta SA,1000.00,ARS,,USDC,,fiat-cvu\n" +
		"Batch Andes SAS,50000.00,COP,,USDC,,fiat-cop\n"
	want := map[string]struct{ block, json string }{
		"fiat-pix":  {"ticketBrlPixOutput", `{"beneficiaryBrlBankAccountId":"` + brl.Items[0].ID.String() + `","pixMessage":"nf 77"}`},
		"fiat-ach":  {"ticketUsdOutput", `{"beneficiaryUsdBankAccountId":"` + usd.String() + `","achReference":"inv 2043"}`},
		"fiat-wire": {"ticketUsdWireOutput", `{"beneficiaryUsdBankAccountId":"` + usd.String() + `","wireMessage":"inv 2044"}`},
		"fiat-sepa": {"ticketEurSepaOutput", `{"beneficiaryEurBankAccountId":"` + eur.String() + `","sepaReference":"Rechnung 2045"}`},
		"fiat-cvu":  {"ticketArsOutput", `{"beneficiaryArsBankAccountId":"` + ars.String() + `"}`},
		"fiat-cop":  {"ticketCopOutput", `{"beneficiaryCopBankAccountId":"` + cop.String() + `"}`},
	}
	run := func() batch.Progress {
		t.Helper()
		f, err := batch.Parse([]byte(file), "payouts")
		if err != nil {
			t.Fatal(err)
		}
		plan := checkReady(t, ctx, c, f)
		toPay := plan.Count(batch.StateNew) > 0
		for _, cur := range []string{"BRL", "USD", "EUR", "ARS", "COP"} {
			if plan.Out[cur].IsPositive() != toPay {
				t.Errorf("%s total %v with %d rows to pay", cur, plan.Out, plan.Count(batch.StateNew))
			}
		}
		prog, err := batch.Run(ctx, c, plan, batch.Options{}, nil)
		if err != nil {
			t.Fatalf("run: %+v %v", prog, err)
		}
		return prog
	}
	if prog := run(); prog.Created != len(want) || prog.Failed != 0 {
		t.Fatalf("first run: %+v", prog)
	}
	check := func() {
		t.Helper()
		seen.mu.Lock()
		defer seen.mu.Unlock()
		if len(seen.bodies) != len(want) {
			t.Errorf("%d external ids created, want %d", len(seen.bodies), len(want))
		}
		for ext, w := range want {
			got := seen.bodies[ext]
			if len(got) != 1 {
				t.Errorf("%s: created %d times", ext, len(got))
				continue
			}
			var blocks []string
			for k := range got[0] {
				if strings.HasPrefix(k, "ticket") && strings.HasSuffix(k, "Output") {
					blocks = append(blocks, k)
				}
			}
			if len(blocks) != 1 || string(got[0][w.block]) != w.json {
				t.Errorf("%s: output blocks %v, %s = %s\nwant %s", ext, blocks, w.block, got[0][w.block], w.json)
			}
		}
	}
	check()
	// Every ticket is there under its external id, with the output the
	// quote was asked for.
	for ext, w := range want {
		tk, found, err := c.FindTicketByExternalID(ctx, uuid.Nil, ext)
		if err != nil || !found {
			t.Fatalf("%s: %v %v", ext, found, err)
		}
		if m := map[string]string{"ticketUsdOutput": "ACH", "ticketUsdWireOutput": "WIRE", "ticketEurSepaOutput": "SEPA", "ticketArsOutput": "CVU", "ticketCopOutput": "BANK-TRANSFER", "ticketBrlPixOutput": "PIX"}[w.block]; tk.Quote.OutputPaymentMethod != m {
			t.Errorf("%s: ticket pays out by %s, want %s", ext, tk.Quote.OutputPaymentMethod, m)
		}
	}
	// The same file again: everything is found, nothing created, and the
	// counters say so.
	if prog := run(); prog.Created != 0 || prog.Existing != len(want) || prog.Failed != 0 {
		t.Fatalf("second run: %+v", prog)
	}
	check()

	// Rows the account's beneficiaries cannot take are refused, each with
	// its reason, and nothing is created.
	f, err := batch.Parse([]byte("beneficiary,amount,currency\nNobody Corp,10,USD\nBatch Acme Inc,10,BRL\nBatch Zeta SA,10,EUR\n"), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := batch.Check(ctx, c, f, batch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []string{`no beneficiary is called "Nobody Corp"`, "Batch Acme Inc is a USD bank account (ACH or WIRE): the currency must be USD, not BRL", "Batch Zeta SA is an ARS account (CVU): the currency must be ARS, not EUR"} {
		if !strings.Contains(plan.Rows[i].Problem, w) {
			t.Errorf("row %d: %q, want %q", i+1, plan.Rows[i].Problem, w)
		}
	}
	if _, err := batch.Run(ctx, c, plan, batch.Options{}, nil); err == nil {
		t.Fatal("a batch of invalid rows ran")
	}
	check()
}

// checkReady checks a parsed file against the service and fails the test,
// naming each row's problem, unless the plan is ready to run.
func checkReady(t *testing.T, ctx context.Context, c batch.Service, f *batch.File) *batch.Plan {
	t.Helper()
	plan, err := batch.Check(ctx, c, f, batch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Ready() {
		for _, r := range plan.Rows {
			t.Logf("row %d: %s", r.N, r.Problem)
		}
		t.Fatalf("not ready: %v", plan.Problems)
	}
	return plan
}
