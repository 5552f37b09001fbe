package quote

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"

	"github.com/tesouro-treasury/tesouro/ui"
)

// other is the account switched to in the cross-account tests.
var other = ui.Account{ID: uuid.MustParse("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"), Name: "Other"}

// A quote asked for account A answers after the switch to B, while B's
// fresh screen awaits its own first quote: B must neither show A's quote
// nor stop waiting for its own.
func TestLateQuoteOfAnotherAccountIsDropped(t *testing.T) {
	a := newHarness(t, operatorPerms())
	a.fill("900")
	late := a.ask("enter")

	b := a.switchTo(other)
	b.fill("500")
	own := b.ask("enter")

	b.send(late())
	if b.m.quote != nil || strings.Contains(b.screen(), "900.00 BRL") {
		t.Fatalf("B took the quote asked for A:\n%s", b.screen())
	}
	b.send(own())
	b.want("500.00 BRL", "They receive")
	if b.m.quote == nil || b.m.quoted.Account != other.ID {
		t.Fatalf("B's own quote was not taken: %+v", b.m.quoted)
	}
}

// A's slow creation answer lands while B is sending its own ticket: B must
// not show A's ticket, must keep its external id and must still take its
// own answer.
func TestLateCreationOfAnotherAccountIsDropped(t *testing.T) {
	a := newHarness(t, operatorPerms())
	a.toConfirmation("900")
	extA := a.m.externalID
	late := a.ask("y")

	b := a.switchTo(other)
	b.toConfirmation("500")
	extB := b.m.externalID
	own := b.ask("y")
	if b.m.stage != stageSending {
		t.Fatalf("B's stage %v, want sending", b.m.stage)
	}

	b.send(late())
	if b.m.stage != stageSending || b.m.externalID != extB || b.m.res != nil {
		t.Fatalf("A's creation changed B: stage %v, external id %q (want %q)", b.m.stage, b.m.externalID, extB)
	}
	if sc := b.screen(); strings.Contains(sc, extA) || strings.Contains(sc, "Ticket created") {
		t.Fatalf("B shows A's ticket:\n%s", sc)
	}
	b.send(own())
	b.want("Ticket created", extB)
	if b.m.res == nil || b.m.res.account.ID != other.ID {
		t.Fatal("B's own creation answer was not taken")
	}
}

// A re-quote supersedes the quote asked before it: the older answer,
// coming last, must not replace the newer one.
func TestOlderQuoteOfTheSameScreenIsDropped(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("500")
	first := h.ask("r")
	second := h.ask("r")
	older, newer := first(), second()
	h.send(newer)
	token := h.m.quote.QuoteToken
	h.send(older)
	if h.m.quote.QuoteToken != token {
		t.Fatalf("an older answer replaced the quote %q with %q", token, h.m.quote.QuoteToken)
	}
}

// A's picker load answers after the switch, while B's details await their
// own: B must offer only its own beneficiaries.
func TestLateBeneficiariesOfAnotherAccountAreDropped(t *testing.T) {
	a := newHarness(t, operatorPerms())
	b := a.switchTo(other)
	a.f.wallets = append(a.f.wallets, api.Wallet{ID: uuid.MustParse("55555555-5555-4555-8555-555555555555"), Alias: "Only in A", WalletAddress: "0x2222222222222222222222222222222222222222", WalletChain: "POLYGON"})
	a.quote("900")
	late := a.ask("c")

	b.quote("500")
	own := b.ask("c")
	b.send(late())
	if p := b.m.details.picker(); len(p.All) != 0 {
		t.Fatalf("B's picker took A's beneficiaries: %+v", p.All)
	}
	b.send(own())
	b.toPicker()
	b.want("Treasury cold", "Market maker")
	if strings.Contains(b.screen(), "Only in A") {
		t.Fatalf("B offers A's wallet:\n%s", b.screen())
	}
}
