package tickets

import (
	"context"
	"errors"
	"iter"
	"strconv"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// TestGReadsAheadInOrder: G on a history of 30 pages asks for each page
// once, in the service's order, and the list ends with every ticket in
// the service's order; the read-ahead is gone once the last page came.
func TestGReadsAheadInOrder(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(300), pageSize: 10}
	m := start(t, svc, 100, 30)
	press(t, m, "G")
	mustContain(t, screen(m), "all 300 loaded")
	svc.mu.Lock()
	queries := append([]api.TicketFilter(nil), svc.queries...)
	svc.mu.Unlock()
	if len(queries) != 30 {
		t.Fatalf("%d list requests for 30 pages", len(queries))
	}
	for i, q := range queries {
		want := ""
		if i > 0 {
			want = strconv.Itoa(10 * i)
		}
		if q.Cursor != want {
			t.Fatalf("request %d had cursor %q, want %q (all: %+v)", i, q.Cursor, want, queries)
		}
	}
	for i, r := range m.list.Items() {
		if r.ID != svc.tickets[i].ID {
			t.Fatalf("row %d is %s, the service's %dth ticket is %s", i, r.ID, i, svc.tickets[i].ID)
		}
	}
	m.ahead.Lock()
	left := m.ahead.cur != nil
	m.ahead.Unlock()
	if left {
		t.Fatal("the read-ahead outlived the loading it served")
	}
}

// TestReadAheadAsksBeforeTheList: once G's first page is handed over, the
// service is asked for the pages after it without the list asking, up to
// readAhead of them; a request of the list's own (after esc) stops that.
func TestReadAheadAsksBeforeTheList(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(300), pageSize: 10}
	m := start(t, svc, 100, 30)
	loaded := m.list.Len()
	svc.mu.Lock()
	asked := len(svc.queries)
	svc.mu.Unlock()
	m.list.LoadToEnd() // the command is not run: the calls are made here
	call, err := m.query(m.list.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The pages the stream read by then come joined in one (join): one
	// page, or more when the machine let the stream run ahead.
	p, err := call(ctx)
	if err != nil || len(p.Items) == 0 || len(p.Items)%10 != 0 || p.Items[0].ID != svc.tickets[loaded].ID {
		t.Fatalf("first page of the loading: %d items, %v", len(p.Items), err)
	}
	// The page after, and readAhead more (readAhead wait to be handed
	// over, one to be put with them), are asked for with no call of the
	// list's.
	waitQueries(t, svc, asked+2+readAhead)
	next, err := m.query(p.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	after := loaded + len(p.Items)
	p, err = next(ctx)
	if err != nil || len(p.Items) == 0 || p.Items[0].ID != svc.tickets[after].ID {
		t.Fatalf("the page after: %v, first %v", err, p.Items)
	}
	// esc: the list's next request is its own, and the read-ahead stops.
	m.list.StopLoading()
	if _, err := m.query(strconv.Itoa(after + len(p.Items))); err != nil {
		t.Fatal(err)
	}
	m.ahead.Lock()
	left := m.ahead.cur != nil
	m.ahead.Unlock()
	if left {
		t.Fatal("the read-ahead goes on after the list asked for a page of its own")
	}
}

func waitQueries(t *testing.T, svc *fakeService, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		svc.mu.Lock()
		got := len(svc.queries)
		svc.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d list requests, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestGGoesOnAfterAReload: the reload every screen gets when the service
// answers again (ui.ChangedMsg) while G loads to the end refreshes the
// first page and G's loading goes on to the last ticket.
func TestGGoesOnAfterAReload(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(300), pageSize: 10}
	m := start(t, svc, 100, 30)
	m.list.LoadToEnd() // its first page is never asked for: the reload comes first
	deliver(t, m, ui.ChangedMsg{Account: m.s.Account.ID, What: ui.ChangedTickets})
	mustContain(t, screen(m), "all 300 loaded")
}

// gatedService holds every list request until the test lets one through.
type gatedService struct {
	*fakeService
	asked chan struct{}
	gate  chan struct{}
}

func (g gatedService) ListTickets(ctx context.Context, q api.TicketFilter) (api.Page[api.Ticket], error) {
	g.asked <- struct{}{}
	<-g.gate
	return g.fakeService.ListTickets(ctx, q)
}

func (g gatedService) TicketPages(ctx context.Context, q api.TicketFilter) iter.Seq2[api.Page[api.Ticket], error] {
	return pagesOf(ctx, q, g.ListTickets)
}

// TestGGoesOnWhileAReloadIsOnItsWay: the reload's first page, asked for
// while G's next page is awaited from the read-ahead, leaves the
// read-ahead alone; and a page awaited from a read-ahead stopped under it
// is asked for anew, not taken for an empty last page (which ended G at
// the rows loaded so far).
func TestGGoesOnWhileAReloadIsOnItsWay(t *testing.T) {
	fake := &fakeService{tickets: makeTickets(300), pageSize: 10}
	m := start(t, fake, 100, 30)
	g := gatedService{fake, make(chan struct{}, 16), make(chan struct{})}
	m.svc = g
	loaded := m.list.Len()
	m.list.LoadToEnd()
	call, err := m.query(m.list.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		p   api.Page[*record]
		err error
	}
	got := make(chan answer, 1)
	go func() {
		p, err := call(context.Background())
		got <- answer{p, err}
	}()
	<-g.asked // the read-ahead asks for G's page
	m.ahead.Lock()
	st := m.ahead.cur
	m.ahead.Unlock()
	if _, err := m.query(""); err != nil { // the reload's first page
		t.Fatal(err)
	}
	m.ahead.Lock()
	kept := m.ahead.cur == st
	m.ahead.Unlock()
	if st == nil || !kept {
		t.Fatal("the reload's first page stopped G's read-ahead")
	}
	m.stopStream() // stopped under the waiting page all the same
	close(g.gate)
	a := <-got
	if a.err != nil || len(a.p.Items) != 10 || a.p.Items[0].ID != fake.tickets[loaded].ID || !a.p.More() {
		t.Fatalf("G's page: %d items, more %v, %v", len(a.p.Items), a.p.More(), a.err)
	}
}

// failingAt fails the list request of one cursor.
type failingAt struct {
	*fakeService
	cursor string
}

func (f failingAt) ListTickets(ctx context.Context, q api.TicketFilter) (api.Page[api.Ticket], error) {
	if q.Cursor == f.cursor {
		f.fakeService.ListTickets(ctx, q) // counted as asked
		return api.Page[api.Ticket]{}, errors.New("the service is down")
	}
	return f.fakeService.ListTickets(ctx, q)
}

func (f failingAt) TicketPages(ctx context.Context, q api.TicketFilter) iter.Seq2[api.Page[api.Ticket], error] {
	return pagesOf(ctx, q, f.ListTickets)
}

// TestGTakesThePagesReadAlreadyAtOnce: the pages G's read-ahead holds
// when the list asks are handed over as one, in order, with the last one's
// cursor; a page that failed among them is kept for the list's next call,
// after the good ones.
func TestGTakesThePagesReadAlreadyAtOnce(t *testing.T) {
	fake := &fakeService{tickets: makeTickets(300), pageSize: 10}
	m := start(t, fake, 100, 30)
	loaded := m.list.Len()
	// The fourth page after the first of the loading fails.
	failAt := strconv.Itoa(loaded + 40)
	m.svc = failingAt{fake, failAt}
	asked := fake.asked()
	m.list.LoadToEnd()
	ctx := context.Background()
	call, err := m.query(m.list.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	first, err := call(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The pages from the first up to the failing one are each asked once,
	// whether the first call joined one of them or more.
	waitQueries(t, fake, asked+5)
	cursor := first.Cursor
	if from := loaded + len(first.Items); from < loaded+40 {
		next, err := m.query(first.Cursor)
		if err != nil {
			t.Fatal(err)
		}
		got, err := next(ctx)
		if err != nil {
			t.Fatalf("the pages read before the failing one: %v", err)
		}
		if len(got.Items) != loaded+40-from || got.Cursor != failAt {
			t.Fatalf("handed over %d tickets up to cursor %q; want the %d before cursor %s", len(got.Items), got.Cursor, loaded+40-from, failAt)
		}
		for i, r := range got.Items {
			if r.ID != fake.tickets[from+i].ID {
				t.Fatalf("ticket %d out of order", i)
			}
		}
		cursor = got.Cursor
	}
	last, err := m.query(cursor)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := last(ctx); err == nil || err.Error() != "the service is down" {
		t.Fatalf("the failed page: %v", err)
	}
}
