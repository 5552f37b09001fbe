package tickets

import (
	"context"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// The live refresh of the tickets that are still moving.
const (
	refreshEvery = 5 * time.Second
	// refreshMax bounds how many unfinished tickets one refresh asks for.
	refreshMax = 10
)

// pageMsg is one page of the list.
type pageMsg = listing.PagerMsg[api.Ticket]

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

// tick arms one refresh tick of a screen instance.
func (m *Model) tick(screen uint64) tea.Cmd {
	return m.s.After(refreshEvery, func(time.Time) tea.Msg { return tickMsg{screen: screen} })
}

// getTicket fetches one ticket for the detail pane.
func getTicket(client api.Service, req uint64, account, id uuid.UUID) func(context.Context) tea.Msg {
	return func(ctx context.Context) tea.Msg {
		t, err := client.GetTicket(ctx, account, id)
		if err != nil {
			err = fmt.Errorf("get ticket %s: %w", id, err)
		}
		return detailMsg{req: req, account: account, id: id, ticket: t, err: err}
	}
}

// refreshTickets fetches the given tickets, four at a time.
func refreshTickets(client api.Service, screen, gen uint64, account uuid.UUID, ids []uuid.UUID) func(context.Context) tea.Msg {
	return func(ctx context.Context) tea.Msg {
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
