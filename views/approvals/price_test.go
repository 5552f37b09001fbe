package approvals

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// An approval of a quote parked hours ago says when it was quoted, its
// price, the price now for the same pair and amount, and what the
// beneficiary receives either way; past 15 minutes, in amber, that it
// executes at the parked price. The quote asked now is the parked one's
// pair, methods and amount, in the operation's account.
func TestApprovalShowsThePriceAgeAndTodaysPrice(t *testing.T) {
	h, svc, theirs := deciding(t, "approver1@example.com", func(op *api.Operation) {
		op.CreatedAt = api.NewTime(now.Add(-5*time.Hour - 2*time.Minute))
	})
	svc.Fresh = &api.Quote{InputCurrency: "BRL", OutputCurrency: "USDC", InputAmount: decimal.RequireFromString("1000"),
		OutputAmount: decimal.RequireFromString("183.500000"), BasePrice: decimal.RequireFromString("0.1846"), PairName: "BRLUSDC"}
	h.Key("a")
	if len(h.Asks) != 1 {
		t.Fatalf("want one confirmation, got %d (toasts %+v)", len(h.Asks), h.Toasts)
	}
	body := ansi.Strip(h.Asks[0].Body)
	for _, want := range []string{
		"Quoted:      2026-11-21 06:58:00, 5h 02m ago: this executes at the parked price",
		"Price then:  1 BRL = 0.182300 USDC",
		"Price now:   1 BRL = 0.184600 USDC",
		"Receives:    181.234500 USDC at the parked price; 183.500000 USDC at today's (+2.265500 USDC)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, body)
		}
	}
	if !strings.Contains(h.Asks[0].Body, h.screen().s.Styles().Warn.Render("Quoted:")[:10]) {
		t.Errorf("an old price is not in amber:\n%q", h.Asks[0].Body)
	}
	if len(svc.Quotes) != 1 {
		t.Fatalf("%d quotes asked, want 1", len(svc.Quotes))
	}
	q := svc.Quotes[0]
	if q.InputCurrency != "BRL" || q.OutputCurrency != "USDC" || q.InputPaymentMethod != "PIX" || q.OutputPaymentMethod != "POLYGON" ||
		!q.InputAmount.Valid || !q.InputAmount.Decimal.Equal(decimal.RequireFromString("1000")) {
		t.Fatalf("the quote asked now is not the parked one's: %+v", q)
	}
	_ = theirs
}

// A fresh quote is not called out, and a price that cannot be had now is
// said, without stopping the approval.
func TestApprovalOfAFreshQuoteAndNoPriceNow(t *testing.T) {
	h, _, _ := deciding(t, "approver1@example.com", func(op *api.Operation) {
		op.CreatedAt = api.NewTime(now.Add(-3 * time.Minute))
	})
	h.Key("a")
	body := ansi.Strip(h.Asks[0].Body)
	if strings.Contains(body, "parked price") || !strings.Contains(body, "3m 00s ago") || !strings.Contains(body, "Price now:   unknown: no price now") {
		t.Fatalf("a fresh quote's confirmation:\n%s", body)
	}
}

// The confirmation names the fees that cost something: the service lists
// all five, zero ones included, with long descriptions.
func TestConfirmationNamesTheFeesCharged(t *testing.T) {
	zero := decimal.Zero
	q := &quote{Fees: []api.Fee{
		{Type: "Markup Fee", Amount: zero, Currency: "BRLA", Description: "Total markup fees represented in the input currency."},
		{Type: "In Fee", Amount: zero, Currency: "BRLA"},
		{Type: "Conversion Fee", Amount: decimal.RequireFromString("3.52136"), Currency: "BRLA", Description: "Fees due to conversion from input currency to output currency."},
		{Type: "Out Fee", Amount: decimal.RequireFromString("0.5"), Currency: "BRLA"},
		{Type: "Gas Fee", Amount: zero, Currency: "BRLA"},
	}}
	if got := strings.Join(q.chargedFees(), "; "); got != "Conversion Fee 3.521360 BRLA; Out Fee 0.500000 BRLA" {
		t.Errorf("fees charged = %q", got)
	}
	q.Fees = q.Fees[:2]
	if got := q.chargedFees(); len(got) != 1 || got[0] != "none" {
		t.Errorf("no fee charged reads %q", got)
	}
}
