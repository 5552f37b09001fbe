package batch_test

import (
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// A token whose symbol is not all capitals (USDCe) is paid as the service
// spells it, however the file spells it: the rows are checked, shown and
// quoted as USDCe, and the tickets pay USDCe. The file's USDCe used to
// become USDCE, which the service does not know.
func TestMixedCaseTokenIsPaidInTheServiceSpelling(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); sb.Close() })
	c := operatorClient(t, sb.Credentials(srv.URL))
	ctx := t.Context()
	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	file := "beneficiary,chain,amount,currency,source,external_id\n" +
		addr + ",POLYGON,10,USDCe,,usdce-as-written\n" +
		addr + ",polygon,2.5,usdce,BRLA,usdce-lower\n" +
		addr + ",POLYGON,1.25,USDCE,brla,usdce-upper\n"
	f, err := batch.Parse([]byte(file), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Rows {
		if r.Problem != "" || r.Currency != "USDCe" || r.Source != "BRLA" {
			t.Errorf("row %d read as %s from %s (%q), want USDCe from BRLA", r.N, r.Currency, r.Source, r.Problem)
		}
	}
	plan := checkReady(t, ctx, c, f)
	if got := plan.Out["USDCe"]; got.String() != "13.75" || len(plan.Out) != 1 {
		t.Errorf("totals %v, want 13.75 USDCe", plan.Out)
	}
	for _, r := range plan.Rows {
		if r.Quote == nil || r.Quote.OutputCurrency != "USDCe" {
			t.Errorf("row %d priced as %+v", r.N, r.Quote)
		}
	}
	prog, err := batch.Run(ctx, c, plan, batch.Options{}, nil)
	if err != nil || prog.Created != 3 {
		t.Fatalf("run: %+v %v", prog, err)
	}
	for _, ext := range []string{"usdce-as-written", "usdce-lower", "usdce-upper"} {
		tk, found, err := c.FindTicketByExternalID(ctx, uuid.Nil, ext)
		if err != nil || !found {
			t.Fatalf("%s: %v %v", ext, found, err)
		}
		if q := tk.Quote; q.OutputCurrency != "USDCe" || q.OutputPaymentMethod != "POLYGON" || q.InputCurrency != "BRLA" {
			t.Errorf("%s: ticket pays %s via %s from %s, want USDCe via POLYGON from BRLA", ext, q.OutputCurrency, q.OutputPaymentMethod, q.InputCurrency)
		}
	}
}
