package tickets

import (
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

// Every live status shows whole at every width, and the status filter
// takes the live names as typed in any case.
func TestLiveStatusesShowWholeAndFilter(t *testing.T) {
	live := []api.TicketStatus{api.TicketPartialFailed, api.TicketOnHold, api.TicketPending, api.TicketCanceled}
	svc := &fakeService{}
	for i, st := range live {
		svc.tickets = append(svc.tickets, makeTicket(i, st))
	}
	for _, w := range []int{120, 80, 40} {
		m := start(t, svc, w, 20)
		for _, st := range live {
			mustContain(t, screen(m), string(st))
		}
		screentest.CheckSize(t, m.View(), w, 20)
	}
	m := start(t, svc, 120, 20)
	press(t, m, "f")
	typeText(t, m, "on-hold")
	_, apply := m.Update(screentest.KeyPress("enter"))
	run(t, m, apply)
	if q := svc.lastQuery(); q.Status != "ON-HOLD" {
		t.Fatalf("status sent %q, want ON-HOLD", q.Status)
	}
	if m.list.Len() != 1 || m.list.Items()[0].Status() != api.TicketOnHold {
		t.Fatalf("%d rows after filtering on ON-HOLD", m.list.Len())
	}
}

// c on an UNPAID row asks, naming the ticket; a read-only session is told
// why it may not, and nothing is asked nor sent.
func TestCancelFromTheListAndReadOnly(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(6)} // the second is UNPAID
	m := start(t, svc, 120, 20)
	if bindsEnabled(m, "c") {
		t.Fatal("c offered on a PAID row")
	}
	press(t, m, "j")
	out := press(t, m, "c")
	if len(out) != 1 {
		t.Fatalf("c on an UNPAID row: %v", out)
	}
	ask, ok := out[0].(ui.ConfirmMsg)
	if !ok || !strings.Contains(ask.Body, svc.tickets[1].ID.String()) {
		t.Fatalf("c on an UNPAID row: %v", out)
	}
	run(t, m, ask.OnYes)
	if r, _ := m.selected(); r.Status() != api.TicketCanceled {
		t.Fatalf("the row is %s after the cancel", r.Status())
	}

	ro := &fakeService{tickets: makeTickets(6)}
	s := newSession(t, ro)
	s.ReadOnly = true
	m = New(s, ro).(*Model)
	m.SetSize(120, 20)
	run(t, m, m.Init())
	press(t, m, "j")
	out = press(t, m, "c")
	if ts := toasts(out); len(ts) != 1 || ts[0] != "Cannot cancel: read-only session (--readonly)" || len(out) != 1 {
		t.Fatalf("read-only cancel: %v", out)
	}
	if ro.tickets[1].Status != api.TicketUnpaid {
		t.Fatal("a read-only session cancelled")
	}
}

// The detail of an UNPAID ticket offers c in its keys, so help lists it.
func TestDetailOfAnUnpaidTicketListsCancel(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(6)} // the second is UNPAID
	m := start(t, svc, 120, 30)
	press(t, m, "j", "enter")
	if m.detail == nil {
		t.Fatal("enter did not open the detail")
	}
	found := false
	for _, b := range m.KeyMap() {
		if b.Enabled() && b.Help().Key == "c" && b.Help().Desc == "cancel ticket" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the detail's keys omit c: %v", m.KeyMap())
	}
}

// Keys pressed while the first page loads are kept for it: G then enter
// open the last ticket, not the newest one.
func TestKeysPressedWhileLoadingAreKept(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(6)}
	m := New(newSession(t, svc), svc).(*Model)
	m.SetSize(120, 30)
	load := m.Init()
	press(t, m, "G", "enter")
	if m.detail != nil {
		t.Fatal("a detail opened before any ticket was listed")
	}
	run(t, m, load)
	if m.detail == nil || m.detail.id != svc.tickets[5].ID {
		t.Fatalf("G, enter pressed while loading: detail %v, want the last ticket %s", m.detail, svc.tickets[5].ID)
	}
}
