package tickets

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/api"
)

// Timing of the browser's requests.
const (
	requestTimeout = 20 * time.Second
	refreshEvery   = 5 * time.Second
	// prefetchMargin: the next page is asked for when the cursor comes
	// within this many rows of the last loaded one.
	prefetchMargin = 10
	// refreshMax bounds how many unfinished tickets one refresh asks for.
	refreshMax = 10
)

// seq numbers requests and screen instances across the whole process, so a
// response can never be taken for the answer to a newer request, not even by
// the screen that replaced its asker after an account switch.
var seq atomic.Uint64

func nextID() uint64 { return seq.Add(1) }

// pageMsg is one page of the list, answering request req.
type pageMsg struct {
	req     uint64
	account uuid.UUID
	page    api.Page[api.Ticket]
	err     error
}

// detailMsg is one ticket fetched for the detail pane.
type detailMsg struct {
	req     uint64
	account uuid.UUID
	id      uuid.UUID
	ticket  *api.Ticket
	err     error
}

// tickMsg arms the live refresh of one screen instance.
type tickMsg struct{ screen uint64 }

// refreshMsg carries the fresh state of unfinished tickets.
type refreshMsg struct {
	screen  uint64
	gen     uint64 // the list generation the ids were taken from
	account uuid.UUID
	tickets []*api.Ticket
	failed  int
}

// receiptMsg says where a receipt was saved.
type receiptMsg struct {
	account uuid.UUID
	id      uuid.UUID
	path    string
	err     error
}

// exportMsg says where the CSV export was written.
type exportMsg struct {
	screen uint64
	path   string
	rows   int
	err    error
}

// tick arms one refresh tick of a screen instance; a variable so that tests
// can deliver ticks themselves.
var tick = func(screen uint64) tea.Cmd {
	return tea.Tick(refreshEvery, func(time.Time) tea.Msg { return tickMsg{screen: screen} })
}

// listPage asks for one page of tickets. Everything the request needs was
// captured by the caller: the query, the request id, the account.
func listPage(client api.Service, req uint64, account uuid.UUID, q api.TicketFilter) func() tea.Msg {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p, err := client.ListTickets(ctx, q)
		if err != nil {
			err = fmt.Errorf("list tickets: %w", err)
		}
		return pageMsg{req: req, account: account, page: p, err: err}
	}
}

func getTicket(client api.Service, req uint64, account, id uuid.UUID) func() tea.Msg {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		t, err := client.GetTicket(ctx, account, id)
		if err != nil {
			err = fmt.Errorf("get ticket %s: %w", id, err)
		}
		return detailMsg{req: req, account: account, id: id, ticket: t, err: err}
	}
}

// refreshTickets fetches the given tickets, four at a time.
func refreshTickets(client api.Service, screen, gen uint64, account uuid.UUID, ids []uuid.UUID) func() tea.Msg {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		out := refreshMsg{screen: screen, gen: gen, account: account}
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for _, id := range ids {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				t, err := client.GetTicket(ctx, account, id)
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
		return out
	}
}
