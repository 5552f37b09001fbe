package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// validRe reads the quote countdown off the screen ("Valid   12s ▕██░▏").
var validRe = regexp.MustCompile(`Valid\s+(\d+)s`)

func secondsLeft(screen string) (int, bool) {
	m := validRe.FindStringSubmatch(screen)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// openQuote starts the dashboard as access and opens the quote builder;
// prepare, when given, runs against the sandbox first.
func openQuote(t *testing.T, access string, prepare ...func(*sandbox.Running)) *Term {
	t.Helper()
	sb, creds := startSandbox(t)
	for _, p := range prepare {
		p(sb)
	}
	tm := openAs(t, creds, access)
	tm.Send("2")
	tm.WaitFor("Quote builder", 5*time.Second)
	return tm
}

// pixFromBalance fills the quote form for a PIX payout in BRL from the
// BRLA balance, amount sent, leaving it to the caller to submit.
func pixFromBalance(tm *Term, amount string) {
	tm.Send("e")
	tm.Send("Right") // input BRL → BRLA (INTERNAL)
	down(tm, 2)
	tm.Send("Left") // output BRLA → BRL (PIX)
	tm.WaitFor("PIX", 2*time.Second)
	down(tm, 3)
	tm.Type(amount)
}

// quoteToDetails submits the quote form, waits for the quote and carries
// it on to the ticket details, whose screen it returns.
func quoteToDetails(tm *Term) string {
	tm.Send("Enter")
	tm.WaitFor("They receive", 10*time.Second)
	tm.Send("c")
	return tm.WaitFor("Ticket details", 5*time.Second)
}

// down moves the form focus n fields down.
func down(tm *Term, n int) {
	for range n {
		tm.Send("Down")
	}
}

// registerWallet registers a POLYGON beneficiary wallet of the main account
// as operator, the way the Beneficiaries screen would.
func registerWallet(t *testing.T, alias string) func(*sandbox.Running) {
	return func(sb *sandbox.Running) {
		t.Helper()
		c := clientAs(t, sb, "operator")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := c.CreateWallet(ctx, uuid.Nil, api.CreateWalletRequest{Alias: alias, WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"}); err != nil {
			t.Fatalf("register wallet: %v", err)
		}
	}
}

func TestE2EQuoteToPaidTicket(t *testing.T) {
	tm := openQuote(t, "operator", registerWallet(t, "E2E Cold Wallet"))
	// BRL/PIX → BRLA/POLYGON, I send 500.
	tm.Send("e")
	down(tm, 3)      // output method
	tm.Send("Right") // INTERNAL → POLYGON
	tm.WaitFor("POLYGON", 2*time.Second)
	down(tm, 2) // amount
	tm.Type("500")
	tm.WaitFor("understood: 500.00 BRL you send", 2*time.Second)
	tm.Send("Enter")
	s := tm.WaitFor("They receive", 10*time.Second)
	for _, want := range []string{"You send", "500.00 BRL", "BRLA via POLYGON", "1 BRL = 1.000000 BRLA", "After fees", "Conversion Fee"} {
		if !strings.Contains(s, want) {
			t.Fatalf("quote panel lacks %q:\n%s", want, s)
		}
	}
	first, ok := secondsLeft(s)
	if !ok {
		t.Fatalf("no countdown on the quote panel:\n%s", s)
	}
	// The countdown goes down by itself.
	tm.WaitUntil(fmt.Sprintf("the countdown to go below %ds", first), 4*time.Second, func(s string) bool {
		n, ok := secondsLeft(s)
		return ok && n < first
	})

	tm.Send("c")
	tm.WaitFor("Ticket details", 5*time.Second)
	tm.Send("Tab", "Tab", "Tab") // externalId → remitter → PIX data → wallet picker
	tm.WaitFor("E2E Cold Wallet", 10*time.Second)
	tm.Type("cold") // the picker filters as you type
	tm.WaitGone("Own service wallet", 3*time.Second)
	tm.Send("Enter")
	s = tm.WaitFor("Confirm the ticket", 5*time.Second)
	for _, want := range []string{"SANDBOX", "Account", "500.00 BRL", "Beneficiary", "E2E Cold Wallet", "0x52908400098527886E0F7030069857D2E4169EE7", "External id", "y: create the ticket"} {
		if !strings.Contains(s, want) {
			t.Fatalf("confirmation lacks %q:\n%s", want, s)
		}
	}
	tm.Send("y")
	s = tm.WaitFor("Ticket created", 15*time.Second)
	if !strings.Contains(s, "PIX BR Code") || !strings.Contains(s, "000201") {
		t.Fatalf("no BR Code after creation:\n%s", s)
	}
	if !strings.Contains(s, "▀") {
		t.Fatalf("no QR drawn after creation:\n%s", s)
	}
	if !strings.Contains(s, "Expires") {
		t.Fatalf("no ticket expiry countdown:\n%s", s)
	}
	// A PIX of 500 BRL funds itself in the sandbox; the status follows.
	tm.WaitFor("PAID", 90*time.Second)
}

func TestE2ERequesterGetsSentForApproval(t *testing.T) {
	tm := openQuote(t, "requester")
	tm.Send("e")
	down(tm, 5)
	tm.Type("250")
	quoteToDetails(tm)
	tm.Send("C-s") // remitter and PIX data are optional: review at once
	tm.WaitFor("Confirm the ticket", 5*time.Second)
	tm.Send("y")
	s := tm.WaitFor("Sent for approval", 15*time.Second)
	if !strings.Contains(s, "0/2") || !strings.Contains(s, "Operation") {
		t.Fatalf("parked ticket lacks the operation and 0/2 approvals:\n%s", s)
	}
}

func TestE2EExpiredQuoteCannotBeConfirmed(t *testing.T) {
	tm := openQuote(t, "operator")
	tm.Send("e")
	down(tm, 5)
	tm.Type("120")
	tm.Send("Enter")
	tm.WaitFor("They receive", 10*time.Second)
	// Left alone, the quote dies and cannot go on.
	tm.WaitFor("expired", 20*time.Second)
	tm.Send("c")
	tm.WaitFor("cannot become a ticket", 3*time.Second)
	if strings.Contains(tm.Screen(), "Ticket details") {
		t.Fatal("an expired quote reached the ticket details")
	}
	// Renewed, carried to the confirmation, then left to expire there: with
	// auto re-quote off it stays expired and offers r; r renews it and
	// shows the change, and nothing is created.
	tm.Send("r")
	tm.WaitGone("cannot become a ticket", 10*time.Second)
	tm.Send("c")
	tm.WaitFor("Ticket details", 5*time.Second)
	tm.Send("C-s")
	tm.WaitFor("Confirm the ticket", 5*time.Second)
	tm.WaitFor("The quote expired: it cannot be confirmed", 25*time.Second)
	tm.Send("r")
	s := tm.WaitFor("The quote was renewed", 10*time.Second)
	if !strings.Contains(s, "Before") || !strings.Contains(s, "Now") {
		t.Fatalf("no side-by-side comparison:\n%s", s)
	}
	if strings.Contains(s, "Ticket created") {
		t.Fatal("a ticket was created from an expired quote")
	}
}

func TestE2ERestrictedCannotReachPIXPayout(t *testing.T) {
	tm := openQuote(t, "restricted")
	pixFromBalance(tm, "100")
	tm.Send("Enter")
	s := tm.WaitFor("Cannot continue", 10*time.Second)
	if !strings.Contains(s, "payOut") {
		t.Fatalf("the reason is not shown:\n%s", s)
	}
	// c answers with its own notice ("! Cannot continue: ..."), drawn in the
	// same frame as the step it refused: the details cannot come later.
	tm.Send("c")
	if s := tm.WaitFor("! Cannot continue", 5*time.Second); strings.Contains(s, "Ticket details") {
		t.Fatal("restricted reached the details of a PIX payout")
	}
}
