package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// overviewUSDT reads the USDT line of the Overview's balances panel.
var overviewUSDT = regexp.MustCompile(`(?m)^\s+USDT\s+([\d,]+\.\d{6})\s+│`)

// usdtShown is the USDT balance the Overview shows, and whether it shows
// one.
func usdtShown(screen string) (decimal.Decimal, bool) {
	m := overviewUSDT.FindStringSubmatch(screen)
	if m == nil {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(strings.ReplaceAll(m[1], ",", ""))
	return d, err == nil
}

// TestE2EMoveFundsToASubAccount: the operator moves 100 USDT from the main
// account to Acme Payments with :move; the confirmation names both
// accounts with their balances before and after; the main account's
// Overview shows 100 less at once, and Acme Payments' shows 100 more once
// the ticket is paid.
func TestE2EMoveFundsToASubAccount(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	var sub uuid.UUID
	subs, err := c.ListSubAccounts(t.Context(), api.SubAccountFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subs.Items {
		if s.AccountInfo.Name == "Acme Payments" {
			sub = s.SubAccountID
		}
	}
	if sub == uuid.Nil {
		t.Fatal("the demo has no Acme Payments")
	}
	tm := openAs(t, creds, "operator")
	hundred := decimal.NewFromInt(100)
	var mainBefore decimal.Decimal
	tm.WaitUntil("the main account's USDT balance", 10*time.Second, func(s string) bool {
		var ok bool
		mainBefore, ok = usdtShown(s)
		return ok
	})
	subBal, err := c.Balances(t.Context(), sub)
	if err != nil {
		t.Fatal(err)
	}
	subBefore := subBal["USDT"]

	tm.Send(":")
	tm.Type("move Acme Payments")
	tm.Send("Enter")
	tm.WaitFor("to Acme Payments: which token?", 10*time.Second)
	tm.Type("USDT")
	tm.Send("Enter")
	tm.WaitFor("How much USDT leaves", 5*time.Second)
	tm.Type("100")
	tm.Send("Enter")
	s := tm.WaitFor("Move 100.000000 USDT to Acme Payments?", 10*time.Second)
	for _, want := range []string{
		"From: Acme Treasury Ltda", "To:   Acme Payments",
		money.Format(mainBefore, "USDT") + " → " + money.Format(mainBefore.Sub(hundred), "USDT"),
		money.Format(subBefore.Add(hundred), "USDT") + " once paid",
		"Price: 1 USDT = 1.000000 USDT",
	} {
		if !strings.Contains(s, want) {
			t.Fatalf("the confirmation lacks %q:\n%s", want, s)
		}
	}
	tm.Send("y")
	tm.WaitFor("credited when paid", 15*time.Second)

	// The main account: 100 less, on the Overview.
	tm.Send("1")
	tm.WaitUntil("the main account's USDT to drop by 100", 15*time.Second, func(s string) bool {
		got, ok := usdtShown(s)
		return ok && got.Equal(mainBefore.Sub(hundred))
	})
	// Acme Payments: 100 more once paid (r reloads the Overview).
	tm.Send(":")
	tm.Type("sub Acme Payments")
	tm.Send("Enter")
	tm.WaitFor("account Acme Payments", 10*time.Second)
	last := time.Now()
	tm.WaitUntil("Acme Payments' USDT to rise by 100", 30*time.Second, func(s string) bool {
		got, ok := usdtShown(s)
		if ok && got.Equal(subBefore.Add(hundred)) {
			return true
		}
		if time.Since(last) > time.Second {
			tm.Send("r")
			last = time.Now()
		}
		return false
	})
}
