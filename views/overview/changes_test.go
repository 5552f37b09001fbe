package overview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

func changedMsg(account uuid.UUID, what ui.Changed) tea.Cmd {
	return func() tea.Msg { return ui.ChangedMsg{Account: account, What: what, By: "quote"} }
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
	sc := New(session(f, ui.Account{}, api.Permissions{}))
	sc.SetSize(100, 26)
	sc, _ = screentest.Run(t, sc, sc.Init())
	m := sc.(*Screen)
	sc, _ = screentest.Run(t, sc, func() tea.Msg { return tea.KeyPressMsg{Code: tea.KeyDown} })
	sel, _ := m.table.Selected()

	// A ticket is created and money moves in the main account.
	fresh := f.tickets[0]
	fresh.ID = uuid.MustParse("7d1f0000-0000-4000-8000-000000000003")
	fresh.Status = api.TicketPending
	fresh.CreatedAt = api.NewTime(fresh.CreatedAt.Add(time.Minute))
	f.tickets = append([]api.Ticket{fresh}, f.tickets...)
	f.balances[uuid.Nil] = api.Balances{"BRL": dec("734.5")}

	sc, msgs := screentest.Run(t, sc, changedMsg(uuid.Nil, ui.ChangedTickets|ui.ChangedBalances))
	v := ansi.Strip(sc.View())
	if !strings.Contains(v, "PENDING") || !strings.Contains(v, "734.50") || strings.Contains(v, "1,234.50") {
		t.Fatalf("the new ticket or the new balance is not shown:\n%s", v)
	}
	if first := m.table.VisibleRows()[0]; first.ID != fresh.ID.String() {
		t.Fatalf("the new ticket is not at the top: %s", first.ID)
	}
	if cur, _ := m.table.Selected(); cur.ID != sel.ID {
		t.Fatalf("the cursor moved from %s to %s", sel.ID, cur.ID)
	}
	var fresher bool
	for _, msg := range msgs {
		_, ok := msg.(ui.RefreshedMsg)
		fresher = fresher || ok
	}
	if !fresher {
		t.Fatal("the footer was not told the data is fresh")
	}
}

func TestWriteReloadsOnlyWhatChangedInThisAccount(t *testing.T) {
	f := newFake()
	sc := New(session(f, ui.Account{}, api.Permissions{OperationApprover: true}))
	sc.SetSize(100, 26)
	sc, _ = screentest.Run(t, sc, sc.Init())
	asked, ops := len(f.asked), f.opsCalled

	// Another account's write, and a write of data the Overview does not
	// show: nothing is asked for.
	sc, _ = screentest.Run(t, sc, changedMsg(subID, ui.ChangedTickets|ui.ChangedBalances|ui.ChangedOperations))
	sc, _ = screentest.Run(t, sc, changedMsg(uuid.Nil, ui.ChangedBeneficiaries))
	if len(f.asked) != asked || f.opsCalled != ops {
		t.Fatalf("reloaded for a write that does not concern it (balances %d→%d, inbox %d→%d)", asked, len(f.asked), ops, f.opsCalled)
	}

	// A ticket parked for approval: the pending count, not the balances.
	f.ops = append(f.ops, api.Operation{Status: api.OperationPending})
	sc, _ = screentest.Run(t, sc, changedMsg(uuid.Nil, ui.ChangedOperations))
	if len(f.asked) != asked || f.opsCalled != ops+1 {
		t.Fatalf("a parked operation reloaded balances %d→%d, inbox %d→%d", asked, len(f.asked), ops, f.opsCalled)
	}
	if v := ansi.Strip(sc.View()); !strings.Contains(v, "3 pending") {
		t.Fatalf("the pending count did not follow:\n%s", v)
	}
}

func TestStaleBalancesAfterAWriteAreDropped(t *testing.T) {
	f := newFake()
	m := New(session(f, ui.Account{}, api.Permissions{})).(*Screen)
	m.SetSize(100, 26)
	m.load()
	before := m.balSeq
	m.Update(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedBalances})
	m.Update(balancesMsg{inst: m.inst, seq: before, balances: api.Balances{"BRL": dec("1")}})
	if m.balLoaded {
		t.Fatal("balances asked for before the write were taken")
	}
}
