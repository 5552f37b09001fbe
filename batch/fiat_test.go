package batch

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// outputBlocks are the output block names of a creation body.
var outputBlocks = []string{"ticketBrlPixOutput", "ticketBlockchainOutput", "ticketUsdOutput", "ticketUsdWireOutput", "ticketEurSepaOutput", "ticketArsOutput", "ticketCopOutput"}

// sentBlocks reads, from the bytes of a creation body, its output blocks.
func sentBlocks(t *testing.T, body []byte) map[string]string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	out := map[string]string{}
	for _, b := range outputBlocks {
		if raw, ok := m[b]; ok {
			out[b] = string(raw)
		}
	}
	return out
}

// Each kind of registered beneficiary is paid with the block its rail asks
// for, the reference in that rail's own field, and the review shows where
// the money goes with the account masked.
func TestEveryKindOfBeneficiaryGetsItsOwnBlock(t *testing.T) {
	clock := newClock()
	svc := newFake(clock)
	usd, usd2, eur, ars, cop := svc.usd[0].ID, svc.usd[1].ID, svc.eur[0].ID, svc.ars[0].ID, svc.cop[0].ID
	maria, wallet := svc.brl[0].ID, svc.wallets[0].ID
	file := "beneficiary,amount,currency,rail,source,reference,external_id\n" +
		"Maria Silva,10.00,BRL,,,nf 1,pix-1\n" +
		"Acme Inc,1200.00,USD,,USDC,inv 2043,ach-1\n" +
		"acme inc,25000.00,USD,wire,USDC,inv 2044,wire-1\n" +
		"Zeta GmbH,980.00,EUR,,EURC,Rechnung 2045,sepa-1\n" +
		ars.String() + ",1500.00,ARS,CVU,,not carried,cvu-1\n" +
		"Andes SAS,25000,COP,,,,cop-1\n" +
		"Cold,25.5,USDC,,USDC,,chain-1\n" +
		"Pedro Lima,99.99,USD,ACH,USDC,,ach-2\n"
	svc.bal["USDC"], svc.bal["EURC"] = decimal.RequireFromString("100000"), decimal.RequireFromString("5000")
	f := mustParse(t, file)
	plan, err := Check(context.Background(), svc, f, Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Ready() {
		for _, r := range plan.Rows {
			t.Logf("row %d: %s", r.N, r.Problem)
		}
		t.Fatalf("not ready: %v", plan.Problems)
	}
	wantMethod := map[string]string{"pix-1": "PIX", "ach-1": "ACH", "wire-1": "WIRE", "sepa-1": "SEPA", "cvu-1": "CVU", "cop-1": "BANK-TRANSFER", "chain-1": "POLYGON", "ach-2": "ACH"}
	wantKey := map[string]string{"ach-1": "Chase ••••6789", "wire-1": "Chase ••••6789", "sepa-1": "IBAN DE89 ••••3000", "cvu-1": "CVU ••••0009", "cop-1": "Bancolombia ••••7890", "ach-2": "account ••••4321"}
	wantDest := map[string]string{"pix-1": "PIX 52998224725", "ach-1": "ACH Chase ••••6789", "wire-1": "WIRE Chase ••••6789", "sepa-1": "IBAN DE89 ••••3000",
		"cvu-1": "CVU ••••0009", "cop-1": "Bancolombia ••••7890", "chain-1": "POLYGON 0x52908400098527886E0F7030069857D2E4169EE7", "ach-2": "ACH account ••••4321"}
	for _, r := range plan.Rows {
		if r.Method != wantMethod[r.ExternalID] || r.Quote.OutputPaymentMethod != r.Method {
			t.Errorf("%s: method %s, quoted %s, want %s", r.ExternalID, r.Method, r.Quote.OutputPaymentMethod, wantMethod[r.ExternalID])
		}
		if w, ok := wantKey[r.ExternalID]; ok && r.Payee.Key != w {
			t.Errorf("%s: review shows %q, want %q", r.ExternalID, r.Payee.Key, w)
		}
		if w := wantDest[r.ExternalID]; r.Destination() != w {
			t.Errorf("%s: destination %q, want %q", r.ExternalID, r.Destination(), w)
		}
	}
	if r := plan.Rows[3]; r.Payee.Name != "Zeta GmbH" || r.Payee.BankName != "COBADEFFXXX" {
		t.Errorf("EUR payee %+v", r.Payee)
	}
	for cur, want := range map[string]string{"BRL": "10", "USD": "26299.99", "EUR": "980", "ARS": "1500", "COP": "25000", "USDC": "25.5"} {
		if got := plan.Out[cur]; got.String() != want {
			t.Errorf("total %s %s, want %s", cur, got, want)
		}
	}
	if _, err := Run(context.Background(), svc, plan, Options{Clock: clock}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"pix-1":   {"ticketBrlPixOutput": `{"beneficiaryBrlBankAccountId":"` + maria.String() + `","pixMessage":"nf 1"}`},
		"ach-1":   {"ticketUsdOutput": `{"beneficiaryUsdBankAccountId":"` + usd.String() + `","achReference":"inv 2043"}`},
		"wire-1":  {"ticketUsdWireOutput": `{"beneficiaryUsdBankAccountId":"` + usd.String() + `","wireMessage":"inv 2044"}`},
		"sepa-1":  {"ticketEurSepaOutput": `{"beneficiaryEurBankAccountId":"` + eur.String() + `","sepaReference":"Rechnung 2045"}`},
		"cvu-1":   {"ticketArsOutput": `{"beneficiaryArsBankAccountId":"` + ars.String() + `"}`},
		"cop-1":   {"ticketCopOutput": `{"beneficiaryCopBankAccountId":"` + cop.String() + `"}`},
		"chain-1": {"ticketBlockchainOutput": `{"beneficiaryWalletId":"` + wallet.String() + `"}`},
		"ach-2":   {"ticketUsdOutput": `{"beneficiaryUsdBankAccountId":"` + usd2.String() + `"}`},
	}
	for ext, blocks := range want {
		body, ok := svc.bodies[ext]
		if !ok {
			t.Errorf("%s: no ticket created", ext)
			continue
		}
		got := sentBlocks(t, body)
		if len(got) != len(blocks) {
			t.Errorf("%s: blocks %v, want %v", ext, got, blocks)
		}
		for b, w := range blocks {
			if got[b] != w {
				t.Errorf("%s: %s = %s\nwant %s", ext, b, got[b], w)
			}
		}
	}
	// The same file again creates nothing: every row is found by its
	// external id.
	tickets, _, creates := svc.count()
	plan, err = Check(context.Background(), svc, mustParse(t, file), Options{Clock: clock})
	if err != nil || !plan.Ready() {
		t.Fatalf("second check: %v %v", err, plan.Problems)
	}
	prog, err := Run(context.Background(), svc, plan, Options{Clock: clock}, nil)
	if t2, _, c2 := svc.count(); err != nil || t2 != tickets || c2 != creates || prog.Created != 0 || prog.Existing != len(want) {
		t.Fatalf("rerun: %+v %v; tickets %d→%d, creations %d→%d", prog, err, tickets, t2, creates, c2)
	}
}

// A row that names a beneficiary the currency cannot reach, or a rail its
// currency does not travel by, says why, and nothing is sent.
func TestFiatRowsAreRefusedWithTheirReason(t *testing.T) {
	clock := newClock()
	svc := newFake(clock)
	long := strings.Repeat("x", 141)
	file := "beneficiary,chain,amount,currency,rail,reference\n" +
		"Nobody Corp,,10,USD,,\n" +
		"Acme Inc,,10,BRL,,\n" +
		"Zeta GmbH,,10,USD,,\n" +
		"Maria Silva,,10,EUR,,\n" +
		"Zeta SA,,10,COP,,\n" +
		"Andes SAS,,10,ARS,,\n" +
		"Acme Inc,,10,USD,SEPA,\n" +
		"Cold,,10,USDC,ACH,\n" +
		"Zeta GmbH,,10,EUR,,\"" + long + "\"\n" +
		uuid.NewString() + ",,10,EUR,,\n" +
		"Cold,,10,USD,,\n" +
		"Acme Inc,,10.001,USD,,\n" +
		"Zeta GmbH,,10,EUR,,ok\n"
	wants := []string{
		`no beneficiary is called "Nobody Corp" in this account: a USD payout goes to a USD bank account (ACH or WIRE) registered first`,
		"Acme Inc is a USD bank account (ACH or WIRE): the currency must be USD, not BRL",
		"Zeta GmbH is a EUR bank account (SEPA): the currency must be EUR, not USD",
		"Maria Silva is a BRL bank account (PIX): the currency must be BRL, not EUR",
		"Zeta SA is an ARS account (CVU): the currency must be ARS, not COP",
		"Andes SAS is a COP bank account: the currency must be COP, not ARS",
		"rail SEPA does not pay USD: USD travels by ACH or WIRE",
		"rail ACH: a rail names how a bank payout travels",
		"reference is 141 characters long: the SEPA's sepaReference takes at most 140",
		"no beneficiary with id",
		"Cold is a wallet on POLYGON: the currency must be a token",
		`amount "10.001"`,
		"",
	}
	plan, err := Check(context.Background(), svc, mustParse(t, file), Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range wants {
		got := plan.Rows[i].Problem
		if (w == "") != (got == "") || !strings.Contains(got, w) {
			t.Errorf("row %d: %q\nwant %q", i+1, got, w)
		}
	}
	if _, err := Run(context.Background(), svc, plan, Options{Clock: clock}, nil); err == nil {
		t.Fatal("a batch with invalid rows ran")
	}
	if tickets, _, creates := svc.count(); tickets != 0 || creates != 0 {
		t.Fatalf("%d tickets, %d creations while rows were invalid", tickets, creates)
	}
}

// A kind of beneficiary the service will not list stops only the batches
// that pay that kind.
func TestAFiatListFailureOnlyStopsTheRowsThatNeedIt(t *testing.T) {
	clock := newClock()
	svc := newFake(clock)
	svc.listErr = map[string]error{"cop": errors.New("404 not found")}
	if _, err := Check(context.Background(), svc, mustParse(t, rows(2)), Options{Clock: clock}); err != nil {
		t.Fatalf("a BRL batch failed on the COP list: %v", err)
	}
	_, err := Check(context.Background(), svc, mustParse(t, "beneficiary,amount,currency\nAndes SAS,10,COP\n"), Options{Clock: clock})
	if err == nil || !strings.Contains(err.Error(), "list COP beneficiaries") {
		t.Fatalf("a COP batch without the COP list: %v", err)
	}
}
