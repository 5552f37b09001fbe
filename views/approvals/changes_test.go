package approvals

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/ui"
	"tesouro/views/internal/fakeservice"
)

// spy is the screen with the ChangedMsgs its commands produce taken aside
// (the harness keeps only the root's usual messages).
type spy struct {
	ui.Screen
	changes *[]ui.ChangedMsg
}

func (s spy) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	s.Screen, cmd = s.Screen.Update(msg)
	return s, s.watch(cmd)
}

func (s spy) watch(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch m := cmd().(type) {
		case ui.ChangedMsg:
			*s.changes = append(*s.changes, m)
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(m))
			for i, c := range m {
				out[i] = s.watch(c)
			}
			return out
		default:
			return m
		}
	}
}

type spied struct {
	harness
	changes *[]ui.ChangedMsg
}

func newSpied(t *testing.T, svc *fakeservice.Service, email string) spied {
	t.Helper()
	svc.Me = email
	s := fakeservice.Session(t, svc, email, approver)
	s.Now = func() time.Time { return now }
	var changes []ui.ChangedMsg
	h := fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return spy{New(s), &changes} }, 120, 30)
	return spied{harness{h}, &changes}
}

func (h spied) screen() *Screen { return h.Screen.(spy).Screen.(*Screen) }

func (h spied) approve(id uuid.UUID) {
	h.T.Helper()
	if !h.screen().table.Select(id.String()) {
		h.T.Fatalf("operation %s is not listed", id)
	}
	h.Asks = nil
	h.Key("a")
	if len(h.Asks) != 1 {
		h.T.Fatalf("no confirmation (toasts %+v)", h.Toasts)
	}
	h.Run(h.Asks[0].OnYes)
}

func TestExecutingApprovalTellsTicketsAndBalances(t *testing.T) {
	svc, theirs, _, _ := inbox()
	theirs.Approvals = 1
	theirs.Approvers[0].HasApproved = true
	h := newSpied(t, svc, "approver2@example.com")
	h.approve(theirs.ID)
	ch := *h.changes
	if len(ch) != 1 {
		t.Fatalf("%d change messages, want 1: %+v", len(ch), ch)
	}
	want := ui.ChangedOperations | ui.ChangedTickets | ui.ChangedBalances
	if ch[0].What != want || ch[0].Account != uuid.Nil || ch[0].By != "approvals" {
		t.Fatalf("change %+v, want operations, tickets and balances of the main account", ch[0])
	}
}

func TestApprovalOfASubAccountTellsThatAccount(t *testing.T) {
	svc, theirs, _, _ := inbox()
	sub := uuid.New()
	theirs.SubAccountID, theirs.SubAccountName = sub.String(), "Filial"
	h := newSpied(t, svc, "approver1@example.com")
	h.approve(theirs.ID)
	ch := *h.changes
	if len(ch) != 1 || ch[0].Account != sub || ch[0].What != ui.ChangedOperations {
		t.Fatalf("changes %+v, want the operations of %s only (1 of 2: nothing executed)", ch, sub)
	}
}

func TestRefusedDecisionTellsNobody(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newSpied(t, svc, "approver1@example.com")
	h.screen().table.Select(theirs.ID.String())
	h.Key("a")
	// Decided by someone else while the confirmation was up.
	theirs.Status = api.OperationRejected
	h.Run(h.Asks[0].OnYes)
	if len(*h.changes) != 0 {
		t.Fatalf("a refused approval sent %+v", *h.changes)
	}
}

func TestOperationParkedElsewhereShowsKeepingTheCursor(t *testing.T) {
	svc, theirs, _, _ := inbox()
	h := newSpied(t, svc, "approver1@example.com")
	m := h.screen()
	m.table.Select(theirs.ID.String())
	h.Key("enter") // the detail of theirs stays open
	parked := newOp("requester@example.com", "42", time.Minute)
	svc.AddOp(parked)

	h.Send(ui.ChangedMsg{Account: uuid.New(), What: ui.ChangedOperations, By: "quote"})
	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedOperations, By: "approvals"})
	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets, By: "quote"})
	if _, ok := m.items[parked.ID.String()]; ok {
		t.Fatal("reloaded for another account, for its own write, or for tickets")
	}
	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedOperations, By: "quote"})
	if _, ok := m.items[parked.ID.String()]; !ok {
		t.Fatal("the operation parked by the Quote screen is not in the inbox")
	}
	if m.open != theirs.ID.String() {
		t.Fatal("the open detail was closed")
	}
	if cur, _ := m.table.Selected(); cur.ID != theirs.ID.String() {
		t.Fatalf("the cursor moved to %s", cur.ID)
	}
	if h.Screen.Title() != "Approvals 3" {
		t.Fatalf("title %q, want the new pending count", h.Screen.Title())
	}
}
