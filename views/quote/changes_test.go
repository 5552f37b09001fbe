package quote

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// changes are the ChangedMsgs the screen sent the root.
func (h *harness) changes() []ui.ChangedMsg {
	var out []ui.ChangedMsg
	for _, m := range h.d.Out {
		if c, ok := m.(ui.ChangedMsg); ok {
			out = append(out, c)
		}
	}
	return out
}

// newRequester is a harness for an access whose creations are parked for
// approval.
func newRequester(t *testing.T) *harness {
	perms := operatorPerms()
	perms.OperationRequester = true
	h := newHarness(t, perms)
	h.f.parked = true
	return h
}

// created runs the flow up to a created ticket (or a parked operation).
func (h *harness) created() {
	h.t.Helper()
	h.quote("500")
	h.keys("c")
	h.toPicker()
	h.keys("enter", "y")
}

func TestCreatedTicketTellsTheOtherScreens(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.created()
	h.want("Ticket created")
	ch := h.changes()
	if len(ch) != 1 {
		t.Fatalf("%d change messages after the creation, want 1: %+v", len(ch), ch)
	}
	c := ch[0]
	if c.Account != sub.ID || !c.What.Has(ui.ChangedTickets) || !c.What.Has(ui.ChangedBalances) || c.By != "quote" {
		t.Fatalf("change %+v, want tickets and balances of %s by quote", c, sub.ID)
	}
}

func TestFailedCreationTellsNobody(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.f.createErrs = []error{&api.Error{Status: 422, Code: "INVALID", Message: "beneficiary unknown"}}
	h.created()
	h.want("The ticket was not created")
	if ch := h.changes(); len(ch) != 0 {
		t.Fatalf("a refused creation sent %+v", ch)
	}
}

func TestParkedTicketTellsTheApprovals(t *testing.T) {
	h := newRequester(t)
	h.created()
	h.want("Sent for approval")
	ch := h.changes()
	if len(ch) != 1 || ch[0].What != ui.ChangedOperations || ch[0].Account != sub.ID {
		t.Fatalf("changes %+v, want the operations of %s only", ch, sub.ID)
	}
}

// refusingFund is the fake whose sandbox refuses to fund.
type refusingFund struct{ *fake }

func (refusingFund) SandboxFundTicket(context.Context, uuid.UUID, uuid.UUID) (*api.Ticket, error) {
	return nil, &api.Error{Status: 409, Code: "CONFLICT", Message: "ticket not pending"}
}

func TestFundingTellsTheOtherScreensOnlyWhenDone(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.created()

	h.m.res.svc = refusingFund{h.f}
	h.d.Out = nil
	h.keys("f")
	h.want("funding refused")
	if ch := h.changes(); len(ch) != 0 {
		t.Fatalf("a refused funding sent %+v", ch)
	}

	h.m.res.svc = h.f
	h.d.Out = nil
	h.keys("f")
	ch := h.changes()
	if h.f.funded != 1 || len(ch) != 1 || !ch[0].What.Has(ui.ChangedTickets|ui.ChangedBalances) || ch[0].Account != sub.ID {
		t.Fatalf("funded %d, changes %+v", h.f.funded, ch)
	}
}

func TestPollTellsWhenTheTicketMoves(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.created()
	h.d.Out = nil
	h.advance(pollEvery) // still PENDING
	if ch := h.changes(); len(ch) != 0 {
		t.Fatalf("a poll that saw no change sent %+v", ch)
	}
	h.f.mu.Lock()
	h.f.ticket.Status = api.TicketPaid
	h.f.mu.Unlock()
	h.advance(pollEvery)
	if ch := h.changes(); len(ch) != 1 || !ch[0].What.Has(ui.ChangedBalances) {
		t.Fatalf("a ticket that became PAID sent %+v", ch)
	}
}

// helpOf is the help text of the live bindings, "key desc" each.
func helpOf(bs []key.Binding) string {
	var parts []string
	for _, b := range bs {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(parts, " · ")
}

func TestBrCodeCopyOnlyWhileThereIsSomethingToPay(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.created()
	if help := helpOf(h.m.KeyMap()); !strings.Contains(help, "y copy the BR Code") {
		t.Fatalf("a PENDING ticket does not offer its BR Code: %s", help)
	}
	h.f.mu.Lock()
	h.f.ticket.Status = api.TicketPaid
	h.f.mu.Unlock()
	h.advance(pollEvery)
	h.want("PAID", "no longer to be paid")
	help := helpOf(h.m.KeyMap())
	if strings.Contains(help, "BR Code") {
		t.Fatalf("a PAID ticket still offers to copy its BR Code: %s", help)
	}
	if !strings.Contains(help, "y copy the ticket id") {
		t.Fatalf("y is not said to copy the ticket id: %s", help)
	}
	h.d.Out = nil
	h.keys("y")
	var copied bool
	for _, m := range h.d.Out {
		if ts, ok := m.(ui.ToastMsg); ok {
			if strings.Contains(ts.Text, "BR Code") {
				t.Fatalf("y copied the BR Code of a PAID ticket: %q", ts.Text)
			}
			copied = copied || strings.Contains(ts.Text, "ticket id")
		}
	}
	if !copied {
		t.Fatalf("y did not copy the ticket id: %+v", h.d.Out)
	}
}

func TestPickerFollowsBeneficiariesWrittenElsewhere(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("500")
	h.keys("c")
	h.toPicker()
	p := h.m.details.picker()
	for p.Current().Title != "Market maker" {
		h.keys("down")
	}
	// A wallet is registered in the Beneficiaries screen of another
	// account: nothing changes here.
	h.f.wallets = append([]api.Wallet{{ID: uuid.MustParse("44444444-4444-4444-8444-444444444444"), Alias: "Brand new", WalletAddress: "0x1111111111111111111111111111111111111111", WalletChain: "POLYGON"}}, h.f.wallets...)
	h.send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedBeneficiaries, By: "beneficiaries"})
	if strings.Contains(h.screen(), "Brand new") {
		t.Fatal("the picker reloaded for another account's beneficiaries")
	}
	// Then in this account: it shows at once, the cursor stays put.
	h.send(ui.ChangedMsg{Account: sub.ID, What: ui.ChangedBeneficiaries, By: "beneficiaries"})
	h.want("Brand new", "Market maker")
	p = h.m.details.picker()
	if got := p.Current().Title; got != "Market maker" {
		t.Fatalf("the cursor moved to %q", got)
	}

	// Chosen, then left for the form: a delete elsewhere drops the choice
	// when the details come back.
	h.keys("enter")
	h.keys("x", "esc") // back from the confirmation, then to the form
	if h.m.stage != stageForm {
		t.Fatalf("stage %v, want the form", h.m.stage)
	}
	h.f.wallets = h.f.wallets[:2] // Market maker deleted
	h.send(ui.ChangedMsg{Account: sub.ID, What: ui.ChangedBeneficiaries})
	h.keys("c")
	if b := h.m.details.picker().Chosen; b != nil && b.Title == "Market maker" {
		t.Fatal("a deleted beneficiary is still chosen")
	}
	h.toPicker()
	if strings.Contains(h.screen(), "Market maker") {
		t.Fatalf("a deleted beneficiary is still offered:\n%s", h.screen())
	}
}

func TestPickerWaitsForTheConfirmationToEnd(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.toConfirmation("500")
	h.f.wallets = append(h.f.wallets, api.Wallet{ID: uuid.MustParse("44444444-4444-4444-8444-444444444444"), Alias: "Brand new", WalletAddress: "0x1111111111111111111111111111111111111111", WalletChain: "POLYGON"})
	h.send(ui.ChangedMsg{Account: sub.ID, What: ui.ChangedBeneficiaries})
	for _, o := range h.m.details.picker().All {
		if o.Title == "Brand new" {
			t.Fatal("the picker changed under a confirmation")
		}
	}
	h.keys("x") // back to the details
	h.toPicker()
	h.want("Brand new")
}
