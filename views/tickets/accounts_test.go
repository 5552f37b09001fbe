package tickets

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// TestTicketsDropAnotherAccountsAnswers: the screen of account A asks for
// its first page, a reload after a write, a ticket's detail and a receipt,
// and arms its live refresh;
// the root rebuilds the screen for account B, which opens its own detail.
// A's late answers, delivered straight to B's screen, change nothing there;
// B's own answer is still taken.
func TestTicketsDropAnotherAccountsAnswers(t *testing.T) {
	svcA := &fakeService{tickets: makeTickets(8)}
	ma := start(t, svcA, 100, 30)
	a := ma.s
	_, reloadA := ma.Update(ui.ChangedMsg{Account: a.Account.ID, What: ui.ChangedTickets})
	fromA := []tea.Cmd{New(a, svcA).Init(), reloadA, ma.openDetail(svcA.tickets[0].ID), ma.receipt(svcA.tickets[0].ID)}

	svcB := &fakeService{tickets: makeTickets(3)}
	b := a.WithAccount(ui.Account{ID: uuid.New(), Name: "Filial"})
	mb := New(b, svcB).(*Model)
	mb.SetSize(100, 30)
	run(t, mb, mb.Init())
	_, detailB := mb.Update(fakeservice.KeyPress("enter"))
	staletest.AnotherAccount{FromA: fromA, Timers: true, B: driver(t, mb).Driver, Own: detailB,
		Held: func() string { return fmt.Sprintf("%d rows, note %q", mb.list.Len(), mb.note) },
		Then: func(t *testing.T, d *screentest.Driver) {
			if d := mb.detail; d.loading || d.ticket == nil || d.ticket.ID != svcB.tickets[0].ID {
				t.Fatalf("B's own detail was not taken: %+v", d)
			}
			d.Key("esc")
			if v := d.PlainView(); strings.Contains(v, svcA.tickets[0].ID.String()[:8]) || !strings.Contains(v, "all 3 loaded") {
				t.Fatalf("B's list:\n%s", v)
			}
		}}.Check(t)
}

// TestTicketsDropAnOlderDetail: a detail opened, left and opened on another
// ticket: the first answer, late, must not fill the second pane.
func TestTicketsDropAnOlderDetail(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(4)}
	m := start(t, svc, 100, 30)
	_, first := m.Update(fakeservice.KeyPress("enter"))
	late := first()
	press(t, m, "esc", "j", "enter")
	deliver(t, m, late)
	if d := m.detail; d.ticket == nil || d.ticket.ID != svc.tickets[1].ID {
		t.Fatalf("the first detail's answer filled the second pane: %+v", d.ticket)
	}
}
