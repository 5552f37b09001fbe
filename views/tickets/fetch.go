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

// The live refresh of the tickets that are still moving.
const (
	refreshEvery = 5 * time.Second
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
