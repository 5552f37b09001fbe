package overview

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

func changed(account uuid.UUID, what ui.Changed) ui.ChangedMsg {
	return ui.ChangedMsg{Account: account, What: what, By: "quote"}
}

// twoTickets is the fake with a second, older ticket.
func twoTickets() *fake {
	f := newFake()
	older := f.tickets[0]
	older.ID = uuid.MustParse("7d1f0000-0000-4000-8000-000000000002")
	older.CreatedAt = api.NewTime(older.CreatedAt.Add(-time.Hour))
	f.tickets = append(f.tickets, older)
	return f
}

func TestWriteElsewhereReloadsTicketsAndBalances(t *testing.T) {
	f := twoTickets()
	d := start(t, f, session(ui.Account{}, api.Permissions{}))
	m := d.Screen.(*Screen)
	d.Key("down")
	sel, _ := m.table.Selected()

	// A ticket is created and money moves in the main account.
	fresh := f.tickets[0]
	fresh.ID = uuid.MustParse("7d1f0000-0000-4000-8000-000000000003")
	fresh.Status = api.TicketUnpaid
	fresh.CreatedAt = api.NewTime(fresh.CreatedAt.Add(time.Minute))
	f.tickets = append([]api.Ticket{fresh}, f.tickets...)
	f.setBalance(uuid.Nil, "734.5")

	_, cmd := d.Screen.Update(changed(uuid.Nil, ui.ChangedTickets|ui.ChangedBalances))
	fresher := false
	for _, msg := range staletest.Answers(cmd) {
		_, next := d.Screen.Update(msg)
		if next != nil {
			_, fresher = next().(ui.RefreshedMsg)
		}
	}
	v := d.PlainView()
	if !strings.Contains(v, "UNPAID") || !strings.Contains(v, "734.50") || strings.Contains(v, "1,234.50") {
		t.Fatalf("the new ticket or the new balance is not shown:\n%s", v)
	}
	if first := m.table.VisibleRows()[0]; first.ID != fresh.ID.String() {
		t.Fatalf("the new ticket is not at the top: %s", first.ID)
	}
	if cur, _ := m.table.Selected(); cur.ID != sel.ID {
		t.Fatalf("the cursor moved from %s to %s", sel.ID, cur.ID)
	}
	if !fresher {
		t.Fatal("the footer was not told the data is fresh")
	}
}

func TestWriteReloadsOnlyWhatChangedInThisAccount(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, approver))
	asked, ops := len(f.asked), f.opsCalled

	// Another account's write, and a write of data the Overview does not
	// show: nothing is asked for.
	d.Send(changed(subID, ui.ChangedTickets|ui.ChangedBalances|ui.ChangedOperations))
	d.Send(changed(uuid.Nil, ui.ChangedBeneficiaries))
	if len(f.asked) != asked || f.opsCalled != ops {
		t.Fatalf("reloaded for a write that does not concern it (balances %d→%d, inbox %d→%d)", asked, len(f.asked), ops, f.opsCalled)
	}

	// A ticket parked for approval: the pending count, not the balances.
	f.ops = append(f.ops, api.Operation{Status: api.OperationPending})
	d.Send(changed(uuid.Nil, ui.ChangedOperations))
	if len(f.asked) != asked || f.opsCalled != ops+1 {
		t.Fatalf("a parked operation reloaded balances %d→%d, inbox %d→%d", asked, len(f.asked), ops, f.opsCalled)
	}
	if v := d.PlainView(); !strings.Contains(v, "3 pending") {
		t.Fatalf("the pending count did not follow:\n%s", v)
	}
}

// TestBalancesAskedBeforeAWriteAreDropped: the balances of a refresh, still
// on their way when a write reloads them, are not taken after the write's.
func TestBalancesAskedBeforeAWriteAreDropped(t *testing.T) {
	f := newFake()
	d := start(t, f, session(ui.Account{}, api.Permissions{}))
	_, before := d.Screen.Update(screentest.KeyPress("r"))
	f.setBalance(uuid.Nil, "1")
	stale := staletest.Answers(before)
	f.setBalance(uuid.Nil, "2")
	d.Send(changed(uuid.Nil, ui.ChangedBalances))
	for _, msg := range stale {
		d.Send(msg)
	}
	if v := d.PlainView(); !strings.Contains(v, "2.00") || strings.Contains(v, "1.00 ") {
		t.Fatalf("balances asked for before the write were taken:\n%s", v)
	}
}
