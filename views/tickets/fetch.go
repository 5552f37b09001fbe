package tickets

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// The live refresh of the tickets that are still moving: a tick every
// refreshEvery reads the open ticket, the one under the cursor and those
// whose wait is over (see watch): a ticket made long ago, or that stays as
// it was, is read less often, down to once every refreshStill (the
// Overview's period).
const (
	refreshEvery = 5 * time.Second
	refreshStill = 30 * time.Second
	// refreshMax bounds how many unfinished tickets one refresh asks for.
	refreshMax = 10
)

type (
	// pageMsg is a page of the list, or the first page of a refresh.
	pageMsg = listing.PageMsg[*record]
	// detailMsg is one ticket fetched for the detail pane.
	detailMsg = ui.Result[*api.Ticket]
	// refreshMsg carries the fresh state of unfinished tickets.
	refreshMsg = ui.Result[refreshed]
	// receiptMsg says where a receipt was saved. Several downloads may be
	// on their way; each answer of this session is taken.
	receiptMsg = ui.Result[receipt]
)

type (
	// tick is one tick of the live refresh, tickMsg its timer's firing,
	// taken only by the slot awaiting it: a screen built anew (an account
	// switch) runs its own and ignores the old one's.
	tick    struct{}
	tickMsg = ui.Result[tick]
)

type refreshed struct {
	tickets []*api.Ticket
	failed  int
}

type receipt struct {
	id   uuid.UUID
	path string
}

// tick arms one refresh tick of the screen.
func (m *Model) tick() tea.Cmd {
	return ui.After(m.s, &m.ticking, refreshEvery, tick{})
}

// records are the records of a page of tickets, made in the command so
// that Update only files them.
func records(p api.Page[api.Ticket], err error) (api.Page[*record], error) {
	return api.Page[*record]{Items: pageRecords(p.Items), Cursor: p.Cursor}, err
}

// readAhead is how many pages G's loading to the end reads ahead of the
// page the list takes: the service answers the next pages and the client
// decodes them while the screen files the last one, instead of each page
// waiting for the one before to be filed (a million tickets are 20,000
// pages); the client asks each page before it decodes the one before
// (Service.TicketPages).
const readAhead = 4

// A stream is the read-ahead of one screen loading to the end: a goroutine
// reads the pages from a cursor one after the other, as the list would ask
// for them, and hands them over in order. next is the query of the page it
// hands over next (its cursor moves), pages what it has read; taken is set
// while a call waits for a page, so that no second call takes the same.
type stream struct {
	next   api.TicketFilter
	taken  bool
	pages  chan streamPage
	held   *streamPage // a page read from pages but not handed over yet (join)
	cancel context.CancelFunc
}

type streamPage struct {
	p   api.Page[*record]
	err error
}

// readAheads holds a screen's read-ahead under way, if any: one per
// screen at most, read by the commands that take its pages. It lives while
// the screen loads to the end: the page that ends the loading (the last,
// or an error) drops it, so does a query the stream does not answer (esc,
// then a move near the end; a new filter), and the end of the session it
// read for.
type readAheads struct {
	sync.Mutex
	cur *stream
}

// aheadCall is the request of the page q while G loads to the end: the
// page comes from the screen's stream when that stream reads from there,
// or from a new stream started at q.
func (m *Model) aheadCall(q api.TicketFilter) listing.PageCall[*record] {
	svc, life := m.svc, m.s.Context()
	return func(ctx context.Context) (api.Page[*record], error) {
		st := m.takeStream(q, svc, life)
		var r streamPage
		var ok bool
		if st.held != nil {
			r, ok, st.held = *st.held, true, nil
		} else {
			select {
			case r, ok = <-st.pages:
			case <-ctx.Done():
				// The page on its way would be the next one's: the next
				// call starts again from its own cursor.
				m.dropStream(st)
				return api.Page[*record]{}, ctx.Err()
			}
		}
		if !ok {
			// The stream was stopped before it read this page (a reload,
			// the session's end): the page is asked for here.
			m.dropStream(st)
			return records(svc.ListTickets(ctx, q))
		}
		st.join(&r)
		m.ahead.Lock()
		st.taken = false
		if r.err == nil && r.p.More() {
			st.next.Cursor = r.p.Cursor
		} else if m.ahead.cur == st {
			m.ahead.cur = nil
		}
		m.ahead.Unlock()
		return r.p, r.err
	}
}

// joinMax bounds how many tickets one message of G's loading carries.
const joinMax = 1000

// join adds to r the pages the stream has read already, up to joinMax
// tickets: the screen files them and draws its frame once, not once a
// page, when it is what keeps G waiting. A page with an error is held for
// the next call.
func (st *stream) join(r *streamPage) {
	for r.err == nil && r.p.More() && len(r.p.Items) < joinMax {
		select {
		case more, ok := <-st.pages:
			if !ok {
				return
			}
			if more.err != nil {
				st.held = &more
				return
			}
			r.p.Items = append(r.p.Items, more.p.Items...)
			r.p.Cursor = more.p.Cursor
		default:
			return
		}
	}
}

// takeStream is the screen's stream if it hands out q next, else a new one
// reading from q (the old one stopped).
func (m *Model) takeStream(q api.TicketFilter, svc Service, life context.Context) *stream {
	m.ahead.Lock()
	defer m.ahead.Unlock()
	if st := m.ahead.cur; st != nil {
		if !st.taken && st.next == q {
			st.taken = true
			return st
		}
		st.cancel()
	}
	ctx, cancel := context.WithCancel(life)
	st := &stream{next: q, taken: true, pages: make(chan streamPage, readAhead), cancel: cancel}
	m.ahead.cur = st
	go func() {
		st.read(ctx, svc, q)
		if ctx.Err() != nil {
			m.dropStream(st) // the session ended: nothing is left to hand over
		}
	}()
	return st
}

// read reads the pages from q until the last, an error, or ctx's end, each
// asked for while the one before is decoded and made into records (the
// client bounds each request).
func (st *stream) read(ctx context.Context, svc Service, q api.TicketFilter) {
	defer close(st.pages)
	for p, err := range svc.TicketPages(ctx, q) {
		if ctx.Err() != nil {
			return
		}
		rp, err := records(p, err)
		select {
		case st.pages <- streamPage{rp, err}:
		case <-ctx.Done():
			return
		}
	}
}

// dropStream stops st and forgets it, if it is still the screen's.
func (m *Model) dropStream(st *stream) {
	st.cancel()
	m.ahead.Lock()
	defer m.ahead.Unlock()
	if m.ahead.cur == st {
		m.ahead.cur = nil
	}
}

// stopStream stops the screen's stream, if any: the list asks for a page
// of its own, or is reset.
func (m *Model) stopStream() {
	m.ahead.Lock()
	st := m.ahead.cur
	m.ahead.Unlock()
	if st != nil {
		m.dropStream(st)
	}
}

// refreshTickets fetches the given tickets, four at a time.
func refreshTickets(svc Service, account uuid.UUID, ids []uuid.UUID) func(context.Context) (refreshed, error) {
	return func(ctx context.Context) (refreshed, error) {
		var out refreshed
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for _, id := range ids {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				t, err := svc.GetTicket(ctx, account, id)
				mu.Lock()
				defer mu.Unlock()
				if err != nil || t == nil {
					out.failed++
					return
				}
				out.tickets = append(out.tickets, t)
			}()
		}
		wg.Wait()
		return out, nil
	}
}
