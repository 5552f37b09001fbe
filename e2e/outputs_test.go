package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// A PIX payout to a key nobody registered: typed in the quote's details,
// it reaches a ticket that pays that key.
func TestE2EPixPayoutToATypedKey(t *testing.T) {
	var c *api.Client
	tm := openQuote(t, "operator", func(sb *sandbox.Running) { c = clientAs(t, sb, "operator") })
	pixFromBalance(tm, "80")
	tm.WaitFor("understood: 80.000000 BRLA you send", 2*time.Second)
	quoteToDetails(tm)
	// Focus starts on the first field to fill: the PIX beneficiary
	// picker (the external id is locked).
	tm.WaitFor("Another PIX key", 10*time.Second)
	tm.Type("another")
	tm.Send("Enter")
	tm.WaitFor("PIX key", 3*time.Second)
	tm.Type("Pagamentos@Example.com")
	tm.WaitFor("understood: EMAIL key pagamentos@example.com", 3*time.Second)
	tm.Send("C-s") // review
	tm.WaitFor("Confirm the ticket", 5*time.Second)
	// The holder the PIX directory names for the key is shown before y.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	holder, err := c.PixInfo(ctx, "pagamentos@example.com")
	if err != nil {
		t.Fatal(err)
	}
	s := tm.WaitFor(holder.Name, 5*time.Second)
	for _, want := range []string{"PIX key pagamentos@example.com", "not a registered beneficiary", "80.000000 BRLA", "Holder", "y: create the ticket"} {
		if !strings.Contains(s, want) {
			t.Fatalf("confirmation lacks %q:\n%s", want, s)
		}
	}
	tm.Send("y")
	s = tm.WaitFor("Ticket created", 15*time.Second)
	if !strings.Contains(s, "pagamentos@example.com") {
		t.Fatalf("the created ticket does not say whom it pays:\n%s", s)
	}
	// The service holds the ticket paying that key.
	p, err := c.ListTickets(ctx, api.TicketFilter{OutputPaymentMethod: "PIX"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range p.Items {
		if r := tk.BrazilianFiatReceiverInfo; r != nil && r.PixKey == "pagamentos@example.com" {
			return
		}
	}
	t.Fatalf("no ticket of the sandbox pays the typed key (%d PIX tickets)", len(p.Items))
}

// The markup goes to a wallet picked from the account's own service
// wallets (never typed), and the ticket carrying it is paid.
func TestE2EMarkupWalletPickedReachesPaid(t *testing.T) {
	var wallet string
	var client *api.Client
	tm := openQuote(t, "operator", func(sb *sandbox.Running) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		client = clientAs(t, sb, "operator")
		d, err := client.AccountDetails(ctx, uuid.Nil)
		if err != nil || len(d.Wallets) == 0 {
			t.Fatalf("account-info: %v %+v", err, d)
		}
		wallet = d.Wallets[0].WalletAddress
	})
	// BRL/PIX → BRLA kept in the balance, 500 sent, 1 % markup.
	tm.Send("e")
	down(tm, 5)
	tm.Type("500")
	tm.WaitFor("understood: 500.00 BRL you send", 2*time.Second)
	down(tm, 3)
	tm.Send("Right") // Markup: none → add
	tm.WaitFor("Markup %", 2*time.Second)
	tm.Send("Down")
	tm.Type("1")
	tm.WaitFor("understood: 1 %", 2*time.Second)
	tm.Send("Enter")
	s := tm.WaitFor("They receive", 10*time.Second)
	if !strings.Contains(s, "Markup") {
		t.Fatalf("the quote carries no markup:\n%s", s)
	}
	tm.Send("c")
	tm.WaitFor("Ticket details", 5*time.Second)
	tm.Send("Tab", "Tab", "Tab") // externalId → remitter → PIX data → markup wallet
	s = tm.WaitFor("this account", 10*time.Second)
	if !strings.Contains(strings.ToLower(s), strings.ToLower(wallet)) {
		t.Fatalf("the account's own wallet %s is not offered:\n%s", wallet, s)
	}
	tm.Send("Enter")
	s = tm.WaitFor("Confirm the ticket", 5*time.Second)
	if !strings.Contains(strings.ToLower(s), "markup wallet") || !strings.Contains(strings.ToLower(s), strings.ToLower(wallet)) {
		t.Fatalf("the confirmation does not name the markup wallet %s:\n%s", wallet, s)
	}
	tm.Send("y")
	tm.WaitFor("Ticket created", 15*time.Second)
	// A PIX input funds itself in the sandbox; the status follows to the end.
	// ("UNPAID" contains "PAID": read the status line itself.)
	tm.WaitUntil("the ticket's status to be PAID", 90*time.Second, func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "Status" && strings.Contains(l, " PAID") {
				return true
			}
		}
		return false
	})
	// The service paid the markup to the wallet picked.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := client.ListTickets(ctx, api.TicketFilter{Status: string(api.TicketPaid)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range p.Items {
		if mi := tk.MarkupInfo; mi != nil && strings.EqualFold(mi.MarkupWalletAddress, wallet) && tk.Quote.MarkupAmount.IsPositive() && tk.Quote.InputAmount.String() == "500" {
			return
		}
	}
	t.Fatalf("no PAID ticket of 500 BRL paid its markup to %s", wallet)
}
