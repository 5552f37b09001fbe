package quote

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
)

// cycle presses → on field id until its value comes back to where it
// started, and returns the values it went through, the start last.
func (h *harness) cycle(id string) []string {
	h.t.Helper()
	h.focusField(id)
	f := h.m.entry.form
	start := f.Value(id)
	var seen []string
	for range 50 {
		h.keys("right")
		seen = append(seen, f.Value(id))
		if f.Value(id) == start {
			return seen
		}
	}
	h.t.Fatalf("→ on %s never came back to %s: %v", id, start, seen)
	return nil
}

// → on the currencies goes through the whole catalogue: every currency as
// output, every currency that can be sent as input.
func TestCurrencyPickerReachesEveryCurrency(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	out := h.cycle(fOutCurrency)
	for _, c := range money.Currencies() {
		if !slices.Contains(out, c) {
			t.Errorf("→ on the output currency never reaches %s: %v", c, out)
		}
	}
	in := h.cycle(fInCurrency)
	for _, c := range money.Currencies() {
		if slices.Contains(in, c) == money.OutputOnly(c) {
			t.Errorf("→ on the input currency: %s reached %v, output-only %v: %v", c, slices.Contains(in, c), money.OutputOnly(c), in)
		}
	}
	// Chosen with →, a code is replaced by what is typed over it.
	h.focusField(fOutCurrency)
	for h.m.entry.form.Value(fOutCurrency) != "USDM" {
		h.keys("right")
	}
	h.typeText("usd")
	if got := h.m.entry.form.Value(fOutCurrency); got != "USD" {
		t.Fatalf("usd typed over USDM gave %q, want USD", got)
	}
	if got := h.m.entry.form.Value(fOutMethod); got != "ACH" {
		t.Fatalf("the output method of USD is %q, want its first, ACH", got)
	}
}

// An account switch while the ticket is being created does not abandon
// it: the creation runs to its end under the ended session, and its result,
// which no screen of the new session takes, says what became of it.
func TestSwitchDuringSendingIsReportedLate(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.toConfirmation("500")
	if got := h.m.Stopping(); got != "the quote is dropped: it belongs to this account" {
		t.Errorf("confirming, the switch question says %q", got)
	}
	send := h.ask("y")
	if got := h.m.Stopping(); got != "the ticket being created is finished and reported here" {
		t.Errorf("sending, the switch question says %q", got)
	}
	// The switch: the session ends, another takes its place.
	h.s.End()
	next := h.s.WithAccount(other)
	msg := send()
	if h.createCount() != 1 {
		t.Fatalf("%d creations: the creation stopped with its session", h.createCount())
	}
	res, ok := msg.(ui.Result[sent])
	if !ok {
		t.Fatalf("the creation answered %T", msg)
	}
	if next.Owns(res) {
		t.Fatal("the new session takes the old account's creation")
	}
	text, late := res.Late()
	if !late || text != "ticket 7c9e6679-7425-40de-944b-e07fc1f90ae7 created" {
		t.Fatalf("told after the switch: %q (%v)", text, late)
	}
}

func TestReportSaysWhatBecameOfTheCreation(t *testing.T) {
	id := uuid.MustParse("7c9e6679-7425-40de-944b-e07fc1f90ae7")
	op := uuid.MustParse("0b6a4e2e-6d5e-4c3f-9a1b-2c3d4e5f6a7b")
	for _, tc := range []struct {
		r    sent
		err  error
		want string
	}{
		{sent{out: payment.Outcome{Status: payment.Created, Ticket: &api.Ticket{ID: id}}, externalID: "x-1"}, nil, "ticket " + id.String() + " created"},
		{sent{out: payment.Outcome{Status: payment.Parked, Operation: &api.Operation{ID: op}}, externalID: "x-1"}, nil, "sent for approval: operation " + op.String()},
		{sent{out: payment.Outcome{Status: payment.Existing, Ticket: &api.Ticket{ID: id}}, externalID: "x-1"}, nil,
			"found ticket " + id.String() + " already created under external id x-1"},
		{sent{externalID: "x-1"}, errors.New("connection refused"), "ticket with external id x-1 not created: connection refused"},
		{sent{externalID: "x-1", notSent: true}, errExpired, "the quote expired before the ticket was sent: nothing was created"},
	} {
		if got := tc.r.Report(tc.err); got != tc.want {
			t.Errorf("Report = %q, want %q", got, tc.want)
		}
	}
}

// A payment whose external id already names a ticket of another payment is
// refused plainly: nothing is created, y cannot send it, and any other key
// goes back to the details, on the external id.
func TestReusedExternalIDWithAnotherIntentIsRefused(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.created()
	held := h.f.creates[0].req.ExternalID
	h.keys("n")
	h.pair("BRL", "PIX", "BRLA", "INTERNAL", "250")
	h.toDetailsOf()
	h.keys("ctrl+e", "ctrl+u")
	h.typeText(held)
	h.keys("ctrl+s", "y")
	if h.createCount() != 1 || h.m.stage != stageConfirm {
		t.Fatalf("stage %v, %d creations: want the confirmation refusing, nothing created", h.m.stage, h.createCount())
	}
	h.want("already names ticket", "nothing was created", "Not sent: the external id names another payment")
	h.keys("y")
	if h.createCount() != 1 {
		t.Fatal("y sent the refused payment")
	}
	h.keys("x")
	if h.m.stage != stageDetails || h.m.details.form.FocusedKey() != dExternal {
		t.Fatalf("stage %v, focus %q: want the details on the external id", h.m.stage, h.m.details.form.FocusedKey())
	}
	if !strings.Contains(h.screen(), held) {
		t.Fatalf("the external id typed is gone:\n%s", h.screen())
	}
}

// An amount refused by its check is never read as a number, even when the
// form was left and enter pressed from outside it.
func TestRefusedAmountOutsideTheFormIsNotQuoted(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	h.focusField(fAmount)
	h.typeText("1,234")
	h.keys("esc", "enter")
	if len(h.f.quotes) != 0 || !h.m.entry.editing || h.m.entry.form.FocusedKey() != fAmount {
		t.Fatalf("%d quotes, editing %v on %q: want the amount refused, in the form", len(h.f.quotes), h.m.entry.editing, h.m.entry.form.FocusedKey())
	}
	h.want("means thousands")
}
