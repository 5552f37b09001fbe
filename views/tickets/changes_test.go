package tickets

import (
	"fmt"
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
// they are listed, less and less often while they stay as they were, and
// no more for one whose refresh found it finished.
func TestRefreshTickAsksForTheMovingTicketsOnly(t *testing.T) {
	tks := makeTickets(3000)
	for i := range tks {
		tks[i].Status = api.TicketPaid
	}
	tks[2500].Status, tks[2990].Status = api.TicketProcessing, api.TicketPending
	// Those two were made a moment ago: first read 5 s after they are
	// listed. One made long ago is first read after 30 s.
	tks[2500].CreatedAt, tks[2990].CreatedAt = api.NewTime(testNow.Add(-time.Second)), api.NewTime(testNow.Add(-time.Second))
	tks[1500].Status = api.TicketProcessing
	svc := &fakeService{tickets: tks}
	m := start(t, svc, 100, 20)
	press(t, m, "G") // the cursor ends on the last ticket, PAID
	mustContain(t, screen(m), "all 3000 loaded")
	svc.takeGets()
	tick := func(when string, want ...uuid.UUID) {
		t.Helper()
		advance(t, m, refreshEvery)
		got := svc.takeGets()
		slices.SortFunc(got, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
		slices.SortFunc(want, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
		if !slices.Equal(got, want) {
			t.Fatalf("%s: the tick asked for %v, want %v", when, got, want)
		}
	}
	tick("5 s after the load", tks[2500].ID, tks[2990].ID)
	svc.setStatus(tks[2500].ID, api.TicketPaid)
	// Both were as they were: the next read is 10 s after the last.
	tick("10 s")
	tick("15 s", tks[2500].ID, tks[2990].ID)
	if r, _ := m.list.Item(tks[2500].ID.String()); r.Status() != api.TicketPaid {
		t.Fatalf("ticket 2500 is %s after its refresh, want PAID", r.Status())
	}
	// Ticket 2990, still again, waits 20 s; 2500 is finished.
	tick("20 s")
	tick("25 s")
	tick("30 s", tks[1500].ID)
	tick("35 s", tks[2990].ID)
	// It moves; the read 30 s after the last sees it, and the next comes
	// 5 s later.
	svc.setStatus(tks[2990].ID, api.TicketProcessing)
	for _, at := range []string{"40 s", "45 s", "50 s", "55 s"} {
		tick(at)
	}
	tick("60 s", tks[1500].ID)
	tick("65 s", tks[2990].ID)
	tick("70 s, 5 s after it was seen moving", tks[2990].ID)
	tick("75 s")
}

// TestRefreshReadsTheTicketUnderTheCursorAtEveryTick: the ticket the user
// looks at does not wait like the others.
func TestRefreshReadsTheTicketUnderTheCursorAtEveryTick(t *testing.T) {
	tks := makeTickets(5)
	for i := range tks {
		tks[i].Status = api.TicketPaid
	}
	tks[0].Status, tks[3].Status = api.TicketProcessing, api.TicketProcessing
	svc := &fakeService{tickets: tks}
	m := start(t, svc, 100, 20) // the cursor is on the first, newest ticket
	for range 6 {
		advance(t, m, refreshEvery)
	}
	gets := svc.takeGets()
	count := func(id uuid.UUID) int {
		return len(slices.DeleteFunc(slices.Clone(gets), func(got uuid.UUID) bool { return got != id }))
	}
	if n := count(tks[0].ID); n != 6 {
		t.Errorf("the ticket under the cursor was read %d times in 6 ticks, want 6", n)
	}
	// The other one, made 51 minutes ago and still: once in these 30 s.
	if n := count(tks[3].ID); n != 1 {
		t.Errorf("a still ticket away from the cursor was read %d times in 30 s, want 1", n)
	}
}

// TestRefreshStopsBehindAnotherScreen: nothing is read while another
// screen is shown; shown again after a tick came due, the screen reads
// the moving tickets at once.
func TestRefreshStopsBehindAnotherScreen(t *testing.T) {
	tks := makeTickets(3)
	tks[0].Status = api.TicketProcessing
	svc := &fakeService{tickets: tks}
	m := start(t, svc, 100, 20)
	deliver(t, m, ui.ShownMsg{Screen: "quote"})
	reads := func() int { return len(svc.takeGets()) }
	reads()
	for range 12 {
		advance(t, m, refreshEvery)
	}
	if n := reads(); n != 0 {
		t.Fatalf("%d tickets read in a minute behind another screen", n)
	}
	svc.setStatus(tks[0].ID, api.TicketOnHold)
	deliver(t, m, ui.ShownMsg{Screen: "tickets"})
	if n := reads(); n != 1 {
		t.Fatalf("shown again, the screen read %d tickets at once, want 1", n)
	}
	if r, _ := m.list.Item(tks[0].ID.String()); r.Status() != api.TicketOnHold {
		t.Errorf("shown again, the moving ticket is %s, want ON-HOLD", r.Status())
	}
	// The ticks go on from there (the ticket is under the cursor: every
	// tick reads it).
	advance(t, m, refreshEvery)
	if n := reads(); n != 1 {
		t.Errorf("the tick after showing read %d tickets, want 1", n)
	}
}

// TestRefreshPastWatchMaxWaitsToo: in a list where most tickets move, the
// newest moving ones are read, and they wait like the others.
func TestRefreshPastWatchMaxWaitsToo(t *testing.T) {
	tks := makeTickets(watchMax + 200)
	for i := range tks {
		tks[i].Status = api.TicketProcessing
	}
	last := len(tks) - 1
	tks[last].Status = api.TicketPaid // where G leaves the cursor
	tks[0].Status = api.TicketPaid    // made just now: read after 5 s
	svc := &fakeService{tickets: tks}
	m := start(t, svc, 100, 20)
	press(t, m, "G")
	mustContain(t, screen(m), fmt.Sprintf("all %d loaded", len(tks)))
	if !m.watchAll {
		t.Fatal("the list is not walked past watchMax moving tickets")
	}
	asked := func() int { return len(svc.takeGets()) }
	asked()
	// All made 17 minutes ago or more: first read 30 s after the first
	// tick finds them, then every 30 s while they stay as they were.
	for i, want := range []int{0, 0, 0, 0, 0, 0, refreshMax, 0, 0, 0, 0, 0, refreshMax} {
		advance(t, m, refreshEvery)
		if got := asked(); got != want {
			t.Fatalf("tick %d (%s): %d tickets read, want %d", i+1, time.Duration(i+1)*refreshEvery, got, want)
		}
	}
}
