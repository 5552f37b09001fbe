package approvals

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// TestLateAnswersForAnotherAccountAreDropped builds the screen for account
// A and holds back its answers (the inbox pages, the details filling the
// list, an operation's detail, a decision and the mark set before it is
// sent, the firing of its poll), then delivers them into the
// screen rebuilt for account B, before and after B's own answers: B shows
// and holds only its own.
func TestLateAnswersForAnotherAccountAreDropped(t *testing.T) {
	fb, _, _, _ := inbox()
	fb.Me = "approver1@example.com"
	fa, theirs, _, _ := inbox()
	ha := newHarness(t, fa, "approver1@example.com", approver)
	a := ha.screen()
	parked := newOp("requester@example.com", "777", time.Minute) // only A's inbox has it
	fa.AddOp(parked)
	// A's copy of the operation B will show, with one approval B lacks.
	shared := *fb.Ops[0]
	shared.Approvals = 1
	fa.AddOp(&shared)
	// Each request's answer, run now and held back.
	var late []tea.Msg
	inbox := a.reload()() // A's whole inbox, then the details it asks for
	late = append(late, inbox)
	_, fill := a.Update(inbox)
	late = append(late, fill().(tea.BatchMsg)[0]())
	late = append(late, a.fetchDetail(parked.ID.String())(), a.fetchDetail(shared.ID.String())(),
		a.send([]*item{a.item(theirs.ID.String())}, "approve", "")())
	// A batch: the fresh details before its confirmation, and its decisions.
	a.marked[theirs.ID.String()], a.marked[parked.ID.String()] = true, true
	late = append(late, a.approveMarked()(), a.send([]*item{a.item(parked.ID.String()), a.item(shared.ID.String())}, "approve", "")())
	// The mark a confirmed decision sets before it is sent, and A's poll.
	_, mark := ui.Answer(ha.Session, sending{shared.ID.String()})
	late = append(late, mark())
	late = append(late, staletest.Fired(a.poll())...)

	sb := ha.Session.WithAccount(ui.Account{ID: uuid.New(), Name: "Other"})
	hb := harness{&fakeservice.Harness{Driver: screentest.New(t, sb, New(sb, fb))}}
	hb.Screen.SetSize(120, 30)
	askedByB := hb.Screen.Init()
	for _, msg := range late {
		hb.Send(msg)
	}
	b := hb.screen()
	if len(b.table.Items()) != 0 || b.loaded || len(hb.Toasts)+len(hb.Changes)+len(hb.Asks) != 0 {
		t.Fatalf("A's answers reached B's screen: %d items, toasts %+v, changes %+v", len(b.table.Items()), hb.Toasts, hb.Changes)
	}
	hb.Run(askedByB)
	hb.selectOp(fb.Ops[0].ID)
	hb.Key("enter") // B shows the detail of its own first operation
	before := hb.PlainView()
	for _, msg := range late {
		hb.Send(msg)
	}
	if b.item(parked.ID.String()) != nil || len(b.table.Items()) != 3 || hb.Screen.Title() != "Approvals (2)" {
		t.Fatalf("B holds A's operations: %d items, title %q", len(b.table.Items()), hb.Screen.Title())
	}
	if after := hb.PlainView(); after != before || len(hb.Toasts)+len(hb.Changes)+len(hb.Asks) != 0 {
		t.Fatalf("A's answers changed B's screen (toasts %+v, changes %+v):\n%s\nwas:\n%s", hb.Toasts, hb.Changes, after, before)
	}
	if b.Busy() || hb.Pending() != 1 {
		t.Fatalf("A's mark or poll reached B: busy %v, %d timers wait (want B's own poll)", b.Busy(), hb.Pending())
	}
}

// TestOlderLoadNeverOverwritesTheLatest presses r twice and answers the
// second load first: the first, arriving last, is dropped.
func TestOlderLoadNeverOverwritesTheLatest(t *testing.T) {
	svc, _, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	staletest.OlderLoad{D: h.Driver, Ask: staletest.Key(h.Driver, "r"),
		Change: func() { svc.AddOp(newOp("requester@example.com", "7", time.Second)) },
		Then: func(t *testing.T, d *screentest.Driver) {
			if d.Screen.Title() != "Approvals (3)" || len(h.screen().table.Items()) != 4 || h.screen().listing.Waiting() {
				t.Fatalf("the latest load is not shown: %q, loading %v", d.Screen.Title(), h.screen().listing.Waiting())
			}
		}}.Check(t)
}

// TestOlderDetailNeverOverwritesTheLatest asks for an operation's detail
// twice; the first answer, arriving last, is dropped.
func TestOlderDetailNeverOverwritesTheLatest(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	m := h.screen()
	first := m.fetchDetail(theirs.ID.String())()
	svc.Ops[0].Approvals = 1
	h.Run(m.fetchDetail(theirs.ID.String()))
	h.Send(first)
	if got := m.item(theirs.ID.String()).op.Approvals; got != 1 {
		t.Fatalf("the older detail overwrote the latest: %d approvals", got)
	}
}

func TestPollReloadsOnlyItsOwnLoop(t *testing.T) {
	svc, _, _, _ := inbox()
	h := newHarness(t, svc, "approver1@example.com", approver)
	svc.AddOp(newOp("requester@example.com", "7", time.Second))
	// The poll armed by the screen of another account, and the loop the
	// screen armed while hidden, replaced when it was shown again.
	other := New(staletest.OtherAccount(h.Session), svc).(*Screen)
	_, hidden := h.screen().Update(ui.ShownMsg{Screen: "overview"})
	stale := staletest.Fired(other.poll(), hidden)
	h.Send(ui.ShownMsg{Screen: "approvals"})
	for _, msg := range stale {
		h.Send(msg)
	}
	h.Advance(visibleEvery - time.Second)
	if h.Screen.Title() != "Approvals (2)" {
		t.Fatalf("another screen's tick, or an early one, reloaded this one: %q", h.Screen.Title())
	}
	h.Advance(time.Second)
	if h.Screen.Title() != "Approvals (3)" {
		t.Fatalf("the poll did not pick up the new operation: %q", h.Screen.Title())
	}
	if h.Pending() != 1 {
		t.Fatalf("%d timers wait, want the one next poll", h.Pending())
	}
}
