package tickets

import (
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
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
