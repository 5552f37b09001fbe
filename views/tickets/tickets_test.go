package tickets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

func TestPagingFetchesAheadAndCounts(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(120)}
	m := start(t, svc, 100, 30)
	mustContain(t, screen(m), "50 loaded · more available")
	if len(svc.queries) != 1 {
		t.Fatalf("%d list requests at start, want 1", len(svc.queries))
	}
	// 30 rows down: far from the end of 50, nothing fetched.
	for range 30 {
		press(t, m, "j")
	}
	if len(svc.queries) != 1 {
		t.Fatalf("fetched ahead too early: %d requests", len(svc.queries))
	}
	// Within 10 rows of the end: the next page comes, with the cursor the
	// service gave.
	for range 10 {
		press(t, m, "j")
	}
	if len(svc.queries) != 2 || svc.lastQuery().Cursor != "50" {
		t.Fatalf("next page not fetched with cursor 50: %+v", svc.queries)
	}
	mustContain(t, screen(m), "100 loaded · more available")
	if r, _ := m.list.Table.Table.Selected(); r.ID != svc.tickets[40].ID.String() {
		t.Fatalf("cursor left its row when the page arrived")
	}
	press(t, m, "G")
	mustContain(t, screen(m), "all 120 loaded")
	press(t, m, "G")
	if len(svc.queries) != 3 {
		t.Fatalf("%d list requests after the last page, want 3", len(svc.queries))
	}
}

func TestStaleResponsesAreDropped(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(60)}
	m := New(newSession(t, svc), svc).(*Model)
	m.SetSize(100, 30)
	// The first page is asked for, and before it arrives the user filters
	// on PAID: the old answer must not land in the new list.
	first := m.Init()
	press(t, m, "f")
	typeText(t, m, "PAID")
	_, apply := m.Update(fakeservice.KeyPress("enter"))
	run(t, m, apply)
	run(t, m, first) // arrives late
	if m.list.Len() != 20 {
		t.Fatalf("%d tickets loaded, want the 20 PAID ones only", m.list.Len())
	}
	for _, r := range m.list.Items() {
		if r.Status() != api.TicketPaid {
			t.Fatalf("a %s ticket from before the filter was kept", r.Status())
		}
	}
	mustContain(t, screen(m), "all 20 loaded", "status=PAID")

	// A screen rebuilt for another account ignores answers meant for the
	// old one.
	first = New(m.s, svc).(*Model).Init()
	other := m.s.WithAccount(ui.Account{ID: uuid.New(), Name: "Filial"})
	m2 := New(other, svc).(*Model)
	m2.SetSize(100, 30)
	pending := m2.Init()
	for _, msg := range staletest.Answers(first) {
		deliver(t, m2, msg)
	}
	if m2.list.Len() != 0 {
		t.Fatal("a page for the main account landed in the sub-account's list")
	}
	run(t, m2, pending)
	if m2.list.Len() != 50 {
		t.Fatalf("own page not taken: %d", m2.list.Len())
	}
	if q := svc.lastQuery(); q.SubAccountID != other.Account.ID {
		t.Fatalf("query went to account %s, want %s", q.SubAccountID, other.Account.ID)
	}
}

func TestFilterFormMapsToQuery(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(10)}
	m := start(t, svc, 100, 30)
	press(t, m, "f")
	if !m.Capturing() {
		t.Fatal("filter form open but the screen does not capture keys")
	}
	typeText(t, m, "pa") // tab completes the status
	press(t, m, "tab", "tab")
	typeText(t, m, "brl")
	press(t, m, "tab")
	typeText(t, m, "usdc")
	press(t, m, "tab")
	typeText(t, m, "polygon")
	press(t, m, "tab")
	typeText(t, m, "2026-08-01")
	press(t, m, "tab")
	typeText(t, m, "2026-08-19")
	press(t, m, "tab")
	typeText(t, m, "ext-42")
	press(t, m, "tab")
	typeText(t, m, "E123")
	press(t, m, "enter")
	if m.Capturing() {
		t.Fatal("form still open after enter")
	}
	q := svc.lastQuery()
	want := api.TicketFilter{
		Status: "PAID", InputCurrency: "BRL", OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON",
		CreatedAfter:  time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC),
		CreatedBefore: time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC),
		ExternalID:    "ext-42", EndToEndID: "E123",
	}
	if q != want {
		t.Fatalf("query\n got %+v\nwant %+v", q, want)
	}
	mustContain(t, screen(m), "status=PAID", "to=2026-08-19", "ext=ext-42", "no tickets match these filters (x clears them)")

	// x clears every filter and queries again without them.
	press(t, m, "x")
	if q := svc.lastQuery(); q != (api.TicketFilter{}) {
		t.Fatalf("query after clearing: %+v", q)
	}
}

func TestFilterFormRefusesBadInput(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(10)}
	m := start(t, svc, 100, 30)
	n := len(svc.queries)
	press(t, m, "f", "tab")
	typeText(t, m, "XYZ") // not a currency
	press(t, m, "enter")
	if !m.Capturing() || len(svc.queries) != n {
		t.Fatal("an unknown currency was sent")
	}
	mustContain(t, screen(m), "not a currency the service handles")
	press(t, m, "backspace", "backspace", "backspace", "tab", "tab", "tab")
	typeText(t, m, "2026-08-10")
	press(t, m, "tab")
	typeText(t, m, "2026-08-01")
	press(t, m, "enter")
	if !m.Capturing() || len(svc.queries) != n {
		t.Fatal("an empty date range was sent")
	}
	mustContain(t, screen(m), "the range is empty")
	press(t, m, "esc")
	if m.Capturing() || m.bar.Summary() != "" {
		t.Fatalf("esc kept the form or applied it: %q", m.bar.Summary())
	}
	// typing q or ? inside the form is text, not a command
	press(t, m, "f")
	typeText(t, m, "q?")
	if !m.Capturing() {
		t.Fatal("q closed the form")
	}
}

func TestQueryMapping(t *testing.T) {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	acct := uuid.New()
	f := filterValues{Status: "FAILED", From: "2026-03-01", To: "2026-03-01", EndToEndID: "E1"}
	q, err := f.query(acct, "c2", sp)
	if err != nil {
		t.Fatal(err)
	}
	if !q.CreatedAfter.Equal(time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC)) || !q.CreatedBefore.Equal(time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("one local day maps to %s – %s", q.CreatedAfter.UTC(), q.CreatedBefore.UTC())
	}
	if q.SubAccountID != acct || q.Cursor != "c2" || q.Status != "FAILED" || q.EndToEndID != "E1" {
		t.Fatalf("query fields lost: %+v", q)
	}
	if _, err := (filterValues{From: "2026-03-02", To: "2026-03-01"}).query(acct, "", sp); err == nil {
		t.Fatal("a reversed range was accepted")
	}
	q, _ = filterValues{}.query(uuid.Nil, "", sp)
	if !q.CreatedAfter.IsZero() || !q.CreatedBefore.IsZero() {
		t.Fatal("no dates typed, but a range was sent")
	}
}

func TestDetailShowsEveryBlock(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(6)}
	m := start(t, svc, 100, 200)
	press(t, m, "enter") // ticket 0: PAID with a rebate
	v := screen(m)
	tk := svc.tickets[0]
	mustContain(t, v, "Ticket "+tk.ID.String(), "✓ PAID", tk.ExternalID,
		"Quote", "1,000.00 BRL via PIX", "180.123456 USDC via POLYGON",
		"Fees", "Conversion Fee", "3.00 BRL  ↺ rebatable", "In Fee", "not rebatable",
		"Rebate", "0.540000 USDC", "PIX input", "PIX sender", "Maria da Silva", "Blockchain receiver",
		"Timeline", "✓ paid", "PIX received, end-to-end")
	if len(svc.gets) != 1 || svc.gets[0] != tk.ID {
		t.Fatalf("detail did not fetch the ticket by id: %v", svc.gets)
	}
	press(t, m, "esc")
	if m.detail != nil {
		t.Fatal("esc did not close the detail")
	}
	press(t, m, "j", "j", "j", "enter") // ticket 3: FAILED
	mustContain(t, screen(m), "✗ FAILED", "beneficiary bank refused the transfer", "no rebate on this ticket")
}

func TestNavigateOpensTicketByID(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(80)}
	m := start(t, svc, 100, 60)
	target := svc.tickets[70] // not loaded yet
	_, cmd := m.Update(ui.NavigateMsg{Screen: "tickets", ID: target.ID.String()})
	run(t, m, cmd)
	mustContain(t, screen(m), "Ticket "+target.ID.String(), target.ExternalID)

	_, cmd = m.Update(ui.NavigateMsg{Screen: "tickets", ID: uuid.NewString()})
	run(t, m, cmd)
	mustContain(t, screen(m), "was not found in main account")

	_, cmd = m.Update(ui.NavigateMsg{Screen: "tickets", ID: "nope"})
	msgs := run(t, m, cmd)
	if ts := toasts(msgs); len(ts) != 1 || !strings.Contains(ts[0], "no loaded ticket starts with") {
		t.Fatalf("bad id toasts: %v", ts)
	}

	// The 8 characters a list shows are enough when one loaded ticket has them.
	loaded := svc.tickets[3]
	_, cmd = m.Update(ui.NavigateMsg{Screen: "tickets", ID: strings.ToUpper(loaded.ID.String()[:8])})
	run(t, m, cmd)
	mustContain(t, screen(m), "Ticket "+loaded.ID.String(), loaded.ExternalID)
}

func TestReceiptOnlyForPaidTickets(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(6)}
	m := start(t, svc, 100, 30)
	press(t, m, "j") // PENDING
	press(t, m, "d")
	if len(svc.receipts) != 0 {
		t.Fatal("a receipt was asked for a PENDING ticket")
	}
	for _, b := range m.KeyMap() {
		if b.Help().Desc == "download receipt" && b.Enabled() {
			t.Fatal("receipt offered in help for a PENDING ticket")
		}
	}
	dir := t.TempDir()
	m.exportDir = func() (string, error) { return dir, nil }
	press(t, m, "k", "enter", "d") // PAID, from the detail pane, to where exports go
	want := filepath.Join(dir, "ticket-"+svc.tickets[0].ID.String()+".pdf")
	data, err := os.ReadFile(want)
	if err != nil || !strings.HasPrefix(string(data), "%PDF") {
		t.Fatalf("receipt not saved at %s: %v", want, err)
	}
	mustContain(t, ansi.Strip(ui.Fit(strings.Join(ticketLines(&svc.tickets[0], m.s.Styles(), 200, time.UTC, testNow, want), "\n"), 200, 100)), "Receipt saved")
	mustContain(t, screen(m), "Receipt saved")
}

func TestLiveRefreshOfUnfinishedTickets(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(12)}
	svc.tickets[1].ExpiresAt = api.NewTime(testNow.Add(4 * time.Minute)) // still payable
	m := start(t, svc, 100, 30)
	pending := svc.tickets[1]
	svc.setStatus(pending.ID, api.TicketPaid)
	// Made 17 minutes ago, it is first read again after the longest wait.
	advance(t, m, refreshStill)
	if r, _ := m.list.Item(pending.ID.String()); r.Status() != api.TicketPaid {
		t.Fatalf("pending ticket not refreshed: %s", r.Status())
	}
	// Only tickets that may still move were asked for: not a PAID one,
	// nor a PENDING one that expired long ago.
	for _, id := range svc.gets {
		if id == svc.tickets[0].ID {
			t.Fatal("a PAID ticket was refreshed")
		}
		if id == svc.tickets[7].ID {
			t.Fatal("a PENDING ticket expired two hours ago was refreshed")
		}
	}
	if !slices.Contains(svc.gets, svc.tickets[5].ID) {
		t.Fatal("a PROCESSING ticket was not refreshed")
	}
	// A tick of another screen (the one this replaced, another account's)
	// is not ours.
	n := len(svc.gets)
	for _, s := range []*ui.Session{m.s, staletest.OtherAccount(m.s)} {
		for _, fired := range staletest.Fired(New(s, svc).(*Model).tick()) {
			deliver(t, m, fired)
		}
	}
	if len(svc.gets) != n {
		t.Fatal("a foreign tick started a refresh")
	}
}

func TestCopyID(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(3)}
	m := start(t, svc, 100, 30)
	msgs := press(t, m, "y")
	if ts := toasts(msgs); len(ts) != 1 || !strings.Contains(ts[0], "ticket id") {
		t.Fatalf("copy toasts: %v", ts)
	}
}

func TestErrorIsShownWithTheFix(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(3), failList: api.ErrRateLimited}
	m := start(t, svc, 100, 30)
	mustContain(t, screen(m), "list tickets:", "press r to retry")
	svc.failList = nil
	press(t, m, "r")
	mustContain(t, screen(m), "all 3 loaded")
}

func TestSmallSizesDoNotPanic(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(30)}
	m := start(t, svc, 40, 12)
	check := func() {
		t.Helper()
		v := m.View()
		lines := strings.Split(v, "\n")
		if m.height > 0 && len(lines) != m.height {
			t.Fatalf("%d lines at height %d:\n%s", len(lines), m.height, v)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > m.width {
				t.Fatalf("line wider than %d: %q", m.width, l)
			}
		}
	}
	check()
	press(t, m, "enter")
	check()
	press(t, m, "G", "esc", "f")
	check()
	press(t, m, "esc")
	for _, sz := range [][2]int{{40, 12}, {10, 3}, {1, 1}, {0, 0}, {200, 60}} {
		m.SetSize(sz[0], sz[1])
		check()
		press(t, m, "enter")
		check()
		press(t, m, "esc", "f")
		check()
		press(t, m, "esc")
	}
}
