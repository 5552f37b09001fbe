package quote

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// The PIX beneficiary of the fake and what the directory says of its key.
const mariaKey = "maria@example.com"

var mariaHolder = api.PixInfo{Name: "Maria Silva", TaxID: "***.982.247-**", BankName: "Banco Exemplo S.A."}

// pixPayout runs the flow of a BRLA → BRL PIX payout of amount to the
// fake's PIX beneficiary, up to its confirmation.
func (h *harness) pixPayout(amount string) {
	h.t.Helper()
	h.pixDetails(amount)
	h.keys("ctrl+s")
	if h.m.stage != stageConfirm {
		h.t.Fatalf("stage %v, want the confirmation:\n%s", h.m.stage, h.screen())
	}
}

// pixDetails runs the PIX payout flow up to its details, beneficiary
// chosen.
func (h *harness) pixDetails(amount string) {
	h.t.Helper()
	h.keys("e")
	h.m.entry.form.SetValue(fInCurrency, "BRLA")
	h.m.entry.form.SetValue(fOutCurrency, "BRL")
	h.m.entry.form.SetValue(fAmount, amount)
	h.keys("enter", "c")
	if h.m.stage != stageDetails {
		h.t.Fatalf("stage %v, want the details:\n%s", h.m.stage, h.screen())
	}
	h.toPicker()
	h.keys("enter")
}

// lines is the view at w×h, one string a line.
func (h *harness) lines(w, hgt int) []string {
	h.m.SetSize(w, hgt)
	return strings.Split(h.screen(), "\n")
}

// yRow is the index of the line that says what y does.
func yRow(t *testing.T, lines []string) int {
	t.Helper()
	for i, l := range lines {
		if strings.HasPrefix(l, "y: ") || (strings.HasPrefix(l, "↓ ") && strings.Contains(l, "to read before y")) {
			return i
		}
	}
	t.Fatalf("no y line:\n%s", strings.Join(lines, "\n"))
	return -1
}

// The summary sits directly above the y line, whole, at every size down to
// the 40×12 terminal (9 lines for the screen), with the marker when the
// details scroll.
func TestConfirmationSummaryIsPinnedAboveY(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(h *harness)
		want  [][]string // per line of the summary, any of these texts
	}{
		{"wallet", func(h *harness) {
			h.quote("500")
			h.keys("c")
			h.toPicker()
			h.typeText("market")
			h.keys("enter")
		}, [][]string{{"500.00 BRL"}, {"497.500000 BRLA"}, {"Market maker"}, {"0x8617E340B3D01FA5F11F306F4090FD50E238070D", "0x8617E340B3D01FA5F11F306F409"}}},
		{"pix", func(h *harness) {
			h.f.more.holders = map[string]api.PixInfo{mariaKey: mariaHolder}
			h.pixPayout("300")
		}, [][]string{{"300.000000 BRLA"}, {"297.50 BRL"}, {"Fornecedor"}, {"PIX key " + mariaKey}, {"Maria Silva · ***.982.247-**"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, operatorPerms())
			tc.setup(h)
			if h.m.stage != stageConfirm {
				t.Fatalf("stage %v, want the confirmation", h.m.stage)
			}
			for _, sz := range [][2]int{{120, 37}, {80, 21}, {40, 9}} {
				lines := h.lines(sz[0], sz[1])
				if len(lines) != sz[1] {
					t.Fatalf("%dx%d: %d lines", sz[0], sz[1], len(lines))
				}
				y := yRow(t, lines)
				// The summary: from the line under the marker (or under the
				// last line of the details) down to y.
				top := 0
				for i := y - 1; i >= 0; i-- {
					if strings.HasPrefix(lines[i], "┄ more") {
						top = i + 1
						break
					}
				}
				summary := strings.Join(lines[top:y+1], "\n")
				for _, any := range tc.want {
					found := false
					for _, w := range any {
						found = found || strings.Contains(summary, w)
					}
					if !found {
						t.Errorf("%dx%d: the summary above y lacks %q:\n%s", sz[0], sz[1], any[0], strings.Join(lines, "\n"))
					}
				}
				for _, w := range []string{"Filial Recife", "SANDBOX", "15s"} {
					if !strings.Contains(summary, w) {
						t.Errorf("%dx%d: the summary above y lacks %q:\n%s", sz[0], sz[1], w, strings.Join(lines, "\n"))
					}
				}
				cut := !strings.Contains(strings.Join(lines, "\n"), "External id")
				marked := strings.Contains(strings.Join(lines, "\n"), "more ↓")
				if cut != marked {
					t.Errorf("%dx%d: details cut %v but marker %v:\n%s", sz[0], sz[1], cut, marked, strings.Join(lines, "\n"))
				}
			}
			// At the smallest size the marker shows, and ↓ scrolls the
			// details without losing the summary.
			lines := h.lines(40, 9)
			if !strings.Contains(strings.Join(lines, "\n"), "more ↓") {
				t.Fatalf("40x9: no marker:\n%s", strings.Join(lines, "\n"))
			}
			for range 40 {
				h.keys("down")
			}
			lines = h.lines(40, 9)
			if s := strings.Join(lines, "\n"); !strings.Contains(s, "more ↑") || yRow(t, lines) != len(lines)-1 || h.m.stage != stageConfirm {
				t.Fatalf("40x9 scrolled to the end:\n%s", s)
			}
		})
	}
}

// Without auto re-quote an expiring confirmation is left expired and
// offers r; with it, it renews by itself.
func TestConfirmationRenewsOnlyWithAutoRequote(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.toConfirmation("500")
	h.advance(16 * time.Second)
	h.want("The quote expired: it cannot be confirmed", "r re-quote")
	if len(h.f.quotes) != 1 {
		t.Fatalf("%d quotes: the confirmation renewed by itself with auto re-quote off", len(h.f.quotes))
	}
	h.keys("y")
	if h.createCount() != 0 || h.m.stage != stageConfirm {
		t.Fatalf("y on an expired quote: %d creations, stage %v", h.createCount(), h.m.stage)
	}
	h.advance(30 * time.Second)
	if len(h.f.quotes) != 1 {
		t.Fatalf("%d quotes after waiting, want still 1", len(h.f.quotes))
	}

	a := newHarness(t, operatorPerms())
	a.quote("500")
	a.keys("a") // auto re-quote on
	a.keys("c")
	a.toPicker()
	a.keys("enter")
	a.want("renews itself")
	a.advance(15 * time.Second)
	if len(a.f.quotes) != 2 {
		t.Fatalf("%d quotes with auto re-quote on, want the renewal", len(a.f.quotes))
	}
	a.want("The quote was renewed")
}

// After any renewal y does nothing for 1.5 s of the session clock, and the
// lines that changed are marked.
func TestYIsHeldAfterARenewal(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.toConfirmation("500")
	h.keys("r")
	if len(h.f.quotes) != 2 {
		t.Fatalf("%d quotes after r", len(h.f.quotes))
	}
	h.want("≠They receive", "497.002500 BRLA", "y is held")
	if strings.Contains(h.screen(), "≠You send") {
		t.Errorf("the amount sent did not change but is marked:\n%s", h.screen())
	}
	h.keys("y")
	if h.createCount() != 0 || h.m.stage != stageConfirm {
		t.Fatalf("y right after the renewal: %d creations, stage %v", h.createCount(), h.m.stage)
	}
	h.advance(time.Second)
	h.keys("y")
	if h.createCount() != 0 {
		t.Fatal("y 1 s after the renewal created the ticket")
	}
	h.advance(500 * time.Millisecond)
	h.want("y: create the ticket")
	h.keys("y")
	if h.createCount() != 1 || h.f.creates[0].req.QuoteToken != "token-2" {
		t.Fatalf("y once armed: %+v", h.f.creates)
	}
}

// The holder of a PIX payout's key is read from the directory before
// confirming; a key the directory does not know cannot be confirmed.
func TestPIXPayoutShowsTheHolderBeforeConfirming(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.f.more.holders = map[string]api.PixInfo{mariaKey: mariaHolder}
	h.f.brl[0].TaxID, h.f.brl[0].Description = "52998224725", "main supplier"
	h.pixPayout("300")
	h.want("Holder", "Maria Silva · ***.982.247-** · Banco Exemplo S.A.")
	// The beneficiary is named once, in the summary; the rest of its
	// record (its tax id) stands apart, under another label.
	h.want("On record", "tax id 52998224725", "main supplier")
	if n := strings.Count(h.screen(), "Beneficiary"); n != 1 {
		t.Fatalf("the confirmation has %d lines labelled Beneficiary, want 1:\n%s", n, h.screen())
	}
	if len(h.f.more.pixAsked) != 1 || h.f.more.pixAsked[0] != mariaKey {
		t.Fatalf("pix-info asked %v, want the beneficiary's key", h.f.more.pixAsked)
	}
	h.keys("y")
	if h.createCount() != 1 {
		t.Fatalf("%d creations after y with the holder known", h.createCount())
	}

	u := newHarness(t, operatorPerms())
	u.pixPayout("300") // the directory knows no key
	u.want("no holder for this key", "is not registered in the PIX", "cannot be confirmed")
	u.keys("y")
	if u.createCount() != 0 || u.m.stage != stageConfirm {
		t.Fatalf("a key without a holder was confirmed: %d creations", u.createCount())
	}
}

// A ticket that would go past the month's limit left says so before y.
func TestConfirmationWarnsOverTheMonthlyLimit(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.f.more.limits = &api.AccountLimits{LimitInfo: api.LimitInfo{Limits: []api.Limit{{
		Currency: "BRL", MaxFiatIn: decimal.RequireFromString("1000"), MaxFiatOut: decimal.RequireFromString("1000"),
		UsedLimit: api.UsedLimit{UsedFiatIn: decimal.RequireFromString("800")},
	}}}}
	h.toConfirmation("500")
	h.want("over the monthly limit: 500.00 BRL in by fiat rails, 200.00 BRL left this month")

	ok := newHarness(t, operatorPerms())
	ok.f.more.limits = h.f.more.limits
	ok.toConfirmation("150")
	ok.want("y: create the ticket")
	if strings.Contains(ok.screen(), "monthly limit") {
		t.Fatalf("a ticket within the limit was warned about:\n%s", ok.screen())
	}
}

// The requester is told before y that the ticket goes for approval, then
// the screen follows the operation to its paid ticket with no key pressed.
func TestRequesterFollowsTheOperationToPaid(t *testing.T) {
	h := newRequester(t)
	ticketID := uuid.MustParse("9d5ed678-fe57-4cca-a0e9-7a1f3e5b6c7d")
	h.f.more.ops = []api.Operation{
		{Status: api.OperationPending, Approvals: 0, MinApprovals: 2},
		{Status: api.OperationPending, Approvals: 1, MinApprovals: 2},
		{Status: api.OperationExecuted, Approvals: 2, MinApprovals: 2, ExecutedID: ticketID.String()},
	}
	h.toConfirmation("500")
	h.want("y: send for approval")
	h.keys("y")
	h.want("Sent for approval", "0/2", "waiting for 2 more approvals")

	h.advance(pollEvery) // still 0/2
	h.advance(pollEvery)
	h.want("1/2", "waiting for 1 more approval", "approved · 1/2")

	now := h.s.Now()
	h.f.mu.Lock()
	h.f.ticket = &api.Ticket{ID: ticketID, Status: api.TicketProcessing, CreatedAt: api.NewTime(now), ExpiresAt: api.NewTime(now.Add(5 * time.Minute)),
		Quote: api.TicketQuote{InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.RequireFromString("500"), OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", OutputAmount: decimal.RequireFromString("497.5")}}
	h.f.mu.Unlock()
	h.advance(pollEvery)
	h.want("Approved: ticket created", ticketID.String(), "2/2 EXECUTED", "PROCESSING", "EXECUTED · ticket")

	h.f.mu.Lock()
	h.f.ticket.Status = api.TicketPaid
	h.f.mu.Unlock()
	h.advance(pollEvery)
	h.want("✓ PAID", "ticket PAID")
	h.advance(QuoteLife) // the quote's own countdown ends too
	if n := h.d.Pending(); n != 0 {
		t.Fatalf("%d timers still pending after PAID: the polling must stop", n)
	}

	// The count it needed is known now: the next confirmation says it.
	h.keys("n")
	h.toConfirmation("400")
	h.want("y: send for approval: 2 approvals before anything moves")
}

// A rejected operation says who rejected it and why, and stops.
func TestRequesterSeesTheRejection(t *testing.T) {
	h := newRequester(t)
	h.f.more.ops = []api.Operation{{Status: api.OperationRejected, Approvals: 0, MinApprovals: 2, RejectedBy: "approver1@acme.example", Reason: "over the limit"}}
	h.created()
	h.advance(pollEvery)
	h.want("Rejected", "✗ REJECTED", "approver1@acme.example", "over the limit", "REJECTED by approver1@acme.example: over the limit")
	reads := h.f.more.opReads
	h.advance(10 * pollEvery)
	if h.f.more.opReads != reads {
		t.Fatalf("the operation was read %d more times after its rejection", h.f.more.opReads-reads)
	}

	e := newRequester(t)
	e.f.more.ops = []api.Operation{{Status: api.OperationExpired, MinApprovals: 2}}
	e.created()
	e.advance(pollEvery)
	e.want("✗ EXPIRED", "EXPIRED: nothing moved")
}

// The external id cannot be typed into by accident: the focus starts on
// what must be filled, stray keys never reach the id, ctrl+e unlocks it.
func TestExternalIDIsReadOnlyUnlessUnlocked(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.quote("500")
	h.keys("c")
	ext := h.m.externalID
	if !h.m.details.onPicker() {
		t.Fatalf("focus starts on %q, want the wallet picker (the one thing to fill)", h.m.details.form.FocusedKey())
	}
	for range len(h.m.details.form.Keys()) {
		h.keys("shift+tab")
	}
	if k := h.m.details.form.FocusedKey(); k != dExternal {
		t.Fatalf("focus on %q, want the external id", k)
	}
	h.typeText("q1")
	h.send(tea.PasteMsg{Content: "pasted"})
	if got := h.m.details.form.Value(dExternal); got != ext {
		t.Fatalf("external id %q, want it unchanged %q", got, ext)
	}
	h.want("locked · ctrl+e to edit", "ctrl+e edit the external id")
	h.send(tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl})
	h.typeText("-b")
	if got := h.m.details.form.Value(dExternal); got != ext+"-b" {
		t.Fatalf("external id %q after unlocking and typing, want %q", got, ext+"-b")
	}
	if strings.Contains(h.hintsLine(), "ctrl+e") {
		t.Error("ctrl+e is still offered once the id is unlocked")
	}
}

func (h *harness) hintsLine() string { return h.m.hints() }

// With nothing to fill, the focus starts on the first optional field, never
// on the external id.
func TestDetailsFocusSkipsTheExternalID(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	h.m.entry.form.SetValue(fAmount, "500")
	h.keys("enter", "c") // BRL PIX → BRLA INTERNAL: nothing must be filled
	if id := h.m.details.form.FocusedKey(); id != dRemitter {
		t.Fatalf("focus starts on %q, want the remitter id", id)
	}
}

// In the details, ↓ and tab move to the next entry, ↑ and shift+tab back.
func TestDetailsArrowsAndTabMoveBetweenEntries(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.keys("e")
	h.m.entry.form.SetValue(fAmount, "500")
	h.keys("enter", "c") // BRL PIX → BRLA INTERNAL: remitter id, then PIX add. data
	for _, step := range []struct{ key, want string }{
		{"down", dAdditional}, {"up", dRemitter}, {"tab", dAdditional}, {"shift+tab", dRemitter},
	} {
		h.keys(step.key)
		if id := h.m.details.form.FocusedKey(); id != step.want {
			t.Fatalf("%s: focus on %q, want %q", step.key, id, step.want)
		}
	}
}

// e opens the form at its first field; ↓ stops at the last one.
func TestFormOpensAtTheTopAndDoesNotWrap(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.fill("500") // leaves the focus on the amount
	h.keys("esc", "e")
	if id := h.m.entry.form.FocusedKey(); id != fInCurrency {
		t.Fatalf("e opened the form at %q, want the first field", id)
	}
	vis := h.m.entry.form.Keys()
	for range len(vis) + 3 {
		h.keys("down")
	}
	if id := h.m.entry.form.FocusedKey(); id != vis[len(vis)-1] {
		t.Fatalf("↓ past the end moved the focus to %q, want it kept on the last field", id)
	}
	h.want("Last field")
	h.keys("right") // on the last field: must not change the input currency
	if v := h.m.entry.form.Value(fInCurrency); v != "BRL" {
		t.Fatalf("input currency %q", v)
	}
}

// The hints offer only what works now, from the bindings.
func TestHintsOfferOnlyLiveActions(t *testing.T) {
	h := newHarness(t, operatorPerms())
	if s := h.hintsLine(); strings.Contains(s, "r re-quote") || strings.Contains(s, "continue") || !strings.Contains(s, "e edit") {
		t.Fatalf("with no quote the hints say %q", s)
	}
	h.want("e edit · enter get a quote · a auto re-quote")
	h.quote("500")
	if s := h.hintsLine(); !strings.Contains(s, "r re-quote") || !strings.Contains(s, "enter/c continue") {
		t.Fatalf("with a quote the hints say %q", s)
	}
	for _, b := range h.m.KeyMap() {
		if b.Enabled() && b.Help().Key == "enter" && b.Help().Desc == "get a quote" {
			t.Fatal("enter offered as get a quote while it continues")
		}
	}
}

// q asks before quitting while the ticket waits for its payment, and not
// once it is paid.
func TestUnpaidTicketKeepsTheScreenBusy(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.created()
	if !h.m.Busy() {
		t.Fatal("an unpaid ticket's result is not busy: q would quit without asking")
	}
	h.f.mu.Lock()
	h.f.ticket.Status = api.TicketPaid
	h.f.mu.Unlock()
	h.advance(pollEvery)
	h.want("✓ PAID")
	if h.m.Busy() {
		t.Fatal("a paid ticket's result still busy")
	}
}

// A's holder look-up answers after the switch, while B's confirmation
// awaits its own: B shows only its own holder. An older look-up of the
// same screen (confirmed, left, confirmed again) is dropped too.
func TestLateHolderIsDropped(t *testing.T) {
	a := newHarness(t, operatorPerms())
	a.f.more.holders = map[string]api.PixInfo{mariaKey: {Name: "Holder Seen By A", TaxID: "***.111.111-**"}}
	a.pixDetails("300")
	late := staletest.Answers(a.ask("ctrl+s"))

	b := a.switchTo(other)
	b.f.more.holders = map[string]api.PixInfo{mariaKey: mariaHolder}
	b.pixDetails("200")
	own := staletest.Answers(b.ask("ctrl+s"))
	for _, msg := range late {
		b.send(msg)
	}
	if sc := b.screen(); strings.Contains(sc, "Holder Seen By A") || !strings.Contains(sc, "looking up the PIX directory") {
		t.Fatalf("B took A's holder:\n%s", sc)
	}
	for _, msg := range own {
		b.send(msg)
	}
	b.want("Maria Silva · ***.982.247-**")

	b.keys("x") // back to the details
	older := staletest.Answers(b.ask("ctrl+s"))
	b.keys("x") // back again…
	b.f.more.holders[mariaKey] = api.PixInfo{Name: "Newer Holder"}
	b.keys("ctrl+s") // …and confirmed again: this look-up is the one
	for _, msg := range older {
		b.send(msg)
	}
	b.want("Newer Holder")
}

// readConfirmation pages through the confirmation until every line of it
// has been on screen.
func (h *harness) readConfirmation() {
	h.t.Helper()
	for range 30 {
		if h.m.confirm == nil || h.m.confirm.unread(h.m.s.Now()) == 0 {
			return
		}
		h.keys("pgdown")
	}
	h.t.Fatalf("paging never showed every line:\n%s", h.screen())
}

// On a window too short for the whole confirmation, y sends nothing until
// every line has been on screen; the y line says how many remain, and ↓,
// PgDn and space scroll without going back.
func TestConfirmationYWaitsForEveryLine(t *testing.T) {
	h := newHarness(t, operatorPerms())
	h.toConfirmation("500")
	h.m.SetSize(40, 9)
	h.want("to read before y")
	h.keys("y")
	if h.createCount() != 0 || h.m.stage != stageConfirm {
		t.Fatalf("an early y: %d creations, stage %v", h.createCount(), h.m.stage)
	}
	h.keys("down", "space")
	if h.m.stage != stageConfirm {
		t.Fatalf("scrolling left the confirmation: stage %v", h.m.stage)
	}
	h.readConfirmation()
	h.want("y: ")
	h.keys("y")
	if h.createCount() != 1 {
		t.Fatalf("y after reading everything: %d creations, want 1:\n%s", h.createCount(), h.screen())
	}
}
