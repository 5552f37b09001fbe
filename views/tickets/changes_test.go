package tickets

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// newest makes a ticket created after every other one of the fake.
func newest(svc *fakeService, st api.TicketStatus) api.Ticket {
	tk := makeTicket(0, st)
	tk.CreatedAt = api.NewTime(testNow.Add(time.Minute))
	svc.mu.Lock()
	svc.tickets = append([]api.Ticket{tk}, svc.tickets...)
	svc.mu.Unlock()
	return tk
}

func TestWriteElsewhereReloadsKeepingFiltersAndCursor(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(120), pageSize: 10}
	m := start(t, svc, 100, 30)
	press(t, m, "f")
	typeText(t, m, "PAID")
	press(t, m, "enter")
	// Deep in the list, past the first page.
	for range 14 {
		press(t, m, "j")
	}
	row, _ := m.list.Table.Table.Selected()
	loaded := m.list.Len()
	if loaded <= 10 {
		t.Fatalf("only %d rows loaded: the cursor should be past the first page", loaded)
	}
	// Another screen creates a PAID ticket, and a listed PAID ticket of
	// the first page fails meanwhile: it no longer matches the filter.
	tk := newest(svc, api.TicketPaid)
	gone := m.list.Items()[1].ID
	svc.setStatus(gone, api.TicketFailed)
	before := len(svc.queries)

	msgs := deliver(t, m, ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets, By: "quote"})

	if len(svc.queries) == before {
		t.Fatal("the list was not loaded again")
	}
	q := svc.queries[before]
	if q.Status != "PAID" || q.Cursor != "" {
		t.Fatalf("reload asked for %+v, want the first page of status=PAID", q)
	}
	if first := m.list.Table.Table.VisibleRows()[0]; first.ID != tk.ID.String() {
		t.Fatalf("the new ticket is not at the top: %s", first.ID)
	}
	if cur, _ := m.list.Table.Table.Selected(); cur.ID != row.ID {
		t.Fatalf("the cursor moved from %s to %s", row.ID, cur.ID)
	}
	if _, ok := m.list.Item(gone.String()); ok {
		t.Fatal("a ticket that no longer matches the filter is still listed")
	}
	if m.list.Len() != loaded {
		t.Fatalf("%d rows after the reload, want %d (one in, one out, the later pages kept)", m.list.Len(), loaded)
	}
	for _, r := range m.list.Items() {
		if r.Status() != api.TicketPaid {
			t.Fatalf("a %s row is listed under status=PAID", r.Status())
		}
	}
	mustContain(t, screen(m), "status=PAID")
	if !toldFresh(msgs) {
		t.Fatal("the footer was not told the data is fresh")
	}
	// Paging on goes on where the kept rows end, without a gap.
	press(t, m, "G")
	press(t, m, "G")
	if want := 40; m.list.Len() != want { // 40 PAID, one failed, one new
		t.Fatalf("%d rows once all loaded, want %d", m.list.Len(), want)
	}
	mustContain(t, screen(m), "all 40 loaded")
}

func toldFresh(msgs []tea.Msg) bool {
	for _, m := range msgs {
		if _, ok := m.(ui.RefreshedMsg); ok {
			return true
		}
	}
	return false
}

func TestWriteElsewhereKeepsTheOpenDetail(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(12)}
	m := start(t, svc, 100, 20)
	press(t, m, "j", "enter")
	id := m.detail.id
	press(t, m, "j", "j")
	scroll := m.detail.Scroll
	svc.setStatus(id, api.TicketFailed)

	deliver(t, m, ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets})

	if m.detail == nil || m.detail.id != id {
		t.Fatal("the open detail was closed by the reload")
	}
	if m.detail.ticket.Status != api.TicketFailed {
		t.Fatalf("the open detail shows %s, want the fresh FAILED", m.detail.ticket.Status)
	}
	if m.detail.Scroll != scroll {
		t.Fatal("the detail lost its scroll")
	}
	mustContain(t, screen(m), "FAILED")
}

func TestOnlyTicketChangesOfThisAccountReload(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(12)}
	m := start(t, svc, 100, 20)
	n := len(svc.queries)
	deliver(t, m, ui.ChangedMsg{Account: uuid.New(), What: ui.ChangedTickets})
	deliver(t, m, ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedBeneficiaries | ui.ChangedOperations})
	if len(svc.queries) != n {
		t.Fatal("reloaded for another account's write, or for data the list does not show")
	}
	// Ticks alone never reload the list.
	advance(t, m, refreshEvery)
	if len(svc.queries) != n {
		t.Fatal("a tick reloaded the list")
	}
}

func TestStaleReloadIsDropped(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(12)}
	m := start(t, svc, 100, 20)
	_, first := m.Update(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets})
	first() // answered before the second write, delivered after it
	answer := first()
	tk := newest(svc, api.TicketUnpaid)
	deliver(t, m, ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets})
	m.Update(answer)
	if first := m.list.Table.Table.VisibleRows()[0]; first.ID != tk.ID.String() {
		t.Fatal("a reload answered before the last write replaced the fresh list")
	}
	// The user reloads (r) while a refresh is on its way: its answer is
	// dropped, not mixed into the new list.
	_, late := m.Update(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedTickets})
	press(t, m, "f")
	typeText(t, m, "FAILED")
	press(t, m, "enter")
	run(t, m, late)
	for _, r := range m.list.Items() {
		if r.Status() != api.TicketFailed {
			t.Fatalf("a %s row from the refresh landed in the FAILED list", r.Status())
		}
	}
}

// TestRefreshAskedBeforeAFilterIsDropped: a live refresh on its way when
// the user applies a filter answers for the rows the filter dropped; its
// older state of a ticket must not land in the new list.
func TestRefreshAskedBeforeAFilterIsDropped(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(12)}
	m := start(t, svc, 100, 20)
	moving := svc.tickets[5]
	if moving.Status != api.TicketProcessing {
		t.Fatalf("ticket 5 is %s, want PROCESSING", moving.Status)
	}
	late := staletest.Answers(m.onTick()) // asked while it was PROCESSING
	svc.setStatus(moving.ID, api.TicketFailed)
	press(t, m, "f")
	typeText(t, m, "FAILED")
	press(t, m, "enter")
	for _, msg := range late {
		deliver(t, m, msg)
	}
	if _, ok := m.list.Item(moving.ID.String()); !ok {
		t.Fatal("the ticket that failed is not in the FAILED list")
	}
	for _, r := range m.list.Items() {
		if r.Status() != api.TicketFailed {
			t.Fatalf("a %s row from the refresh landed in the FAILED list", r.Status())
		}
	}
}

func TestNarrowListKeepsStatusAmountAndDate(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(5)}
	m := start(t, svc, 40, 12)
	v := screen(m)
	lines := strings.Split(v, "\n")
	mustContain(t, lines[1], "Status", "Output")
	tk := svc.tickets[0]
	amount := "180.123456 USDC"
	if !strings.Contains(v, amount) {
		t.Fatalf("the output amount is cut at 40 columns:\n%s", v)
	}
	if !strings.Contains(v, "PAID") || !strings.Contains(v, tk.CreatedAt.In(testNow.Location()).Format("15:04")) {
		t.Fatalf("status or creation time missing at 40 columns:\n%s", v)
	}
	if strings.Contains(v, tk.ID.String()[:8]) {
		t.Fatalf("the ID takes room at 40 columns:\n%s", v)
	}
	// The / filter still finds a row by its ID.
	m.Update(ui.FilterMsg{Query: tk.ID.String()[:13]})
	if m.list.Table.Table.Visible() != 1 {
		t.Fatalf("the filter by ID matches %d rows at 40 columns", m.list.Table.Table.Visible())
	}
	m.Update(ui.FilterMsg{})
	// Between the narrow and the full layout the date is whole.
	m.SetSize(60, 12)
	mustContain(t, screen(m), tk.CreatedAt.In(testNow.Location()).Format("01-02 15:04"), amount)
	// Wide again: every column, ID first.
	m.SetSize(120, 12)
	mustContain(t, screen(m), "ID", "Input", tk.ID.String()[:8], amount)
	if r, _ := m.list.Table.Table.Selected(); r.ID != tk.ID.String() {
		t.Fatal("the cursor left its row when the layout changed")
	}
}

// TestRefreshTickAsksForTheMovingTicketsOnly: in a long list of finished
// tickets the refresh tick asks for the few that may still move, wherever
// they are listed, and no more for one whose refresh found it finished.
func TestRefreshTickAsksForTheMovingTicketsOnly(t *testing.T) {
	tks := makeTickets(3000)
	for i := range tks {
		tks[i].Status = api.TicketPaid
	}
	tks[2500].Status, tks[2990].Status = api.TicketProcessing, api.TicketPending
	svc := &fakeService{tickets: tks}
	m := start(t, svc, 100, 20)
	press(t, m, "G")
	mustContain(t, screen(m), "all 3000 loaded")
	asked := func() []uuid.UUID {
		svc.mu.Lock()
		defer svc.mu.Unlock()
		got := slices.Clone(svc.gets)
		svc.gets = nil
		return got
	}
	asked()
	for _, msg := range staletest.Answers(m.onTick()) {
		deliver(t, m, msg)
	}
	if got := asked(); len(got) != 2 || !slices.Contains(got, tks[2500].ID) || !slices.Contains(got, tks[2990].ID) {
		t.Fatalf("the tick asked for %v, want tickets 2500 and 2990", got)
	}
	svc.setStatus(tks[2500].ID, api.TicketPaid)
	for _, msg := range staletest.Answers(m.onTick()) {
		deliver(t, m, msg)
	}
	asked()
	if r, _ := m.list.Item(tks[2500].ID.String()); r.Status() != api.TicketPaid {
		t.Fatalf("ticket 2500 is %s after its refresh, want PAID", r.Status())
	}
	for _, msg := range staletest.Answers(m.onTick()) {
		deliver(t, m, msg)
	}
	if got := asked(); len(got) != 1 || got[0] != tks[2990].ID {
		t.Fatalf("after ticket 2500 was paid the tick asked for %v, want ticket 2990 only", got)
	}
}
