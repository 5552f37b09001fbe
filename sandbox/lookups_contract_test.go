package sandbox_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

func TestPixInfoResolvesKeysAsDocumented(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 3})
	viewer, op := e.as("viewer"), e.as("operator")

	// A registered key resolves to the beneficiary's name, even for an
	// access that may only read.
	b := firstBRL(t, op, uuid.Nil)
	var reg api.BRLAccount
	for _, x := range must[api.Page[api.BRLAccount]](t)(op.ListBRLAccounts(ctx(t), api.BeneficiaryFilter{})).Items {
		if x.PixKey != "" {
			reg = x
			break
		}
	}
	if reg.PixKey == "" {
		t.Fatalf("no demo PIX beneficiary (first is %+v)", b)
	}
	got := must[*api.PixInfo](t)(viewer.PixInfo(ctx(t), reg.PixKey))
	if got.Name != reg.Alias || got.BankName == "" {
		t.Errorf("registered key %s: %+v, want holder %q", reg.PixKey, got, reg.Alias)
	}

	// An unregistered key: the same holder every time, tax id masked.
	key := "fornecedor@example.com"
	a := must[*api.PixInfo](t)(op.PixInfo(ctx(t), key))
	again := must[*api.PixInfo](t)(viewer.PixInfo(ctx(t), " Fornecedor@Example.com "))
	if *a != *again || a.Name == "" {
		t.Errorf("derived holder not stable: %+v vs %+v", a, again)
	}
	if !regexp.MustCompile(`^\*\*\*\.\d{3}\.\d{3}-\*\*$`).MatchString(a.TaxID) {
		t.Errorf("tax id %q is not a masked CPF", a.TaxID)
	}
	// A CPF key is its holder's tax id, masked to its middle digits.
	if c := must[*api.PixInfo](t)(op.PixInfo(ctx(t), "529.982.247-25")); c.TaxID != "***.982.247-**" {
		t.Errorf("CPF key: tax id %q", c.TaxID)
	}

	// Documented unknown keys, then invalid ones.
	for _, k := range []string{"nobody@unknown.example", "+5511987650000", "00000000-1111-4222-8333-444455556666"} {
		wantCode(t, errOf(op.PixInfo(ctx(t), k)), http.StatusNotFound, "NOT_FOUND")
	}
	for _, k := range []string{"123.456.789-00", "+1555123456", "not a key"} {
		ae := wantCode(t, errOf(op.PixInfo(ctx(t), k)), http.StatusBadRequest, "INVALID_FIELD")
		if !strings.Contains(ae.Message, "pixKey") {
			t.Errorf("%q: message %q does not name pixKey", k, ae.Message)
		}
	}
}

func TestLimitsCountThisMonthsTickets(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 4})
	// Mid-month, so that the demo history of earlier months is outside.
	now := e.clock.Now()
	e.clock.Add(time.Date(now.Year(), now.Month(), 15, 12, 0, 0, 0, time.UTC).Sub(now) + 31*24*time.Hour)
	op := e.as("operator")
	sub := e.subs[0]

	before := must[*api.AccountLimits](t)(op.Limits(ctx(t), sub))
	brl, ok := before.LimitInfo.Limit("BRL")
	if !ok || before.LimitInfo.Blocked || brl.MaxFiatOut.IsZero() {
		t.Fatalf("limits %+v", before)
	}
	at := e.clock.Now()
	if brl.UsedLimit.Year != at.Year() || brl.UsedLimit.Month != int(at.Month()) {
		t.Errorf("usedLimit month %d/%d, want %d/%d", brl.UsedLimit.Month, brl.UsedLimit.Year, at.Month(), at.Year())
	}
	main := must[*api.AccountLimits](t)(op.Limits(ctx(t), uuid.Nil))
	if m, _ := main.LimitInfo.Limit("BRL"); !m.MaxFiatOut.Equal(brl.MaxFiatOut.Mul(dec("10").Decimal)) {
		t.Errorf("main BRL ceiling %s, sub %s: want ten times", m.MaxFiatOut, brl.MaxFiatOut)
	}
	// Every currency of the catalogue has a ceiling in every direction, the
	// mixed-case USDCe and USDM too: a zero would make any payout of them
	// look over the limit (a batch in USDCe was refused for it).
	for _, cur := range money.Currencies() {
		for name, li := range map[string]*api.AccountLimits{"main": main, "sub": before} {
			l, ok := li.LimitInfo.Limit(cur)
			if !ok || !l.MaxFiatIn.IsPositive() || !l.MaxFiatOut.IsPositive() || !l.MaxChainIn.IsPositive() || !l.MaxChainOut.IsPositive() {
				t.Errorf("%s account: %s limit %+v (listed %v), want a positive ceiling in every direction", name, cur, l, ok)
			}
		}
	}

	// A PIX payout of 250.00 BRL out of the BRLA balance: fiat out in BRL,
	// and nothing for the INTERNAL input.
	req := payoutRequest(t, op, sub, "250.00")
	res := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), sub, req))
	out := res.Ticket.Quote.OutputAmount
	after := must[*api.AccountLimits](t)(op.Limits(ctx(t), sub))
	a, _ := after.LimitInfo.Limit("BRL")
	if got := a.UsedLimit.UsedFiatOut.Sub(brl.UsedLimit.UsedFiatOut); !got.Equal(out) {
		t.Errorf("usedFiatOut grew by %s, want the ticket's output %s", got, out)
	}
	b0, _ := before.LimitInfo.Limit("BRLA")
	b1, _ := after.LimitInfo.Limit("BRLA")
	if !b1.UsedLimit.UsedFiatIn.Equal(b0.UsedLimit.UsedFiatIn) || !b1.UsedLimit.UsedChainIn.Equal(b0.UsedLimit.UsedChainIn) {
		t.Errorf("an INTERNAL input counted against BRLA limits: %+v -> %+v", b0.UsedLimit, b1.UsedLimit)
	}
	if !a.FiatOutLeft().Equal(a.MaxFiatOut.Sub(a.UsedLimit.UsedFiatOut)) {
		t.Errorf("left %s", a.FiatOutLeft())
	}

	// Next month starts from zero.
	e.clock.Add(31 * 24 * time.Hour)
	next := must[*api.AccountLimits](t)(op.Limits(ctx(t), sub))
	if n, _ := next.LimitInfo.Limit("BRL"); !n.UsedLimit.UsedFiatOut.IsZero() {
		t.Errorf("a new month starts with %s used", n.UsedLimit.UsedFiatOut)
	}
	wantCode(t, errOf(op.Limits(ctx(t), uuid.New())), http.StatusNotFound, "NOT_FOUND")
}
