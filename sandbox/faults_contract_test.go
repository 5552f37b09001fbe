package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// TestNoDuplicateOrLostTicketsUnderFaults makes several hundred ticket
// creations through the api client while the sandbox drops answers after
// committing and fails with 500s, and checks that every intent ends with
// exactly one ticket: none created twice, none created without its caller
// knowing.
func TestNoDuplicateOrLostTicketsUnderFaults(t *testing.T) {
	const intents = 300
	e := newEnv(t, sandbox.Config{Seed: 15, Faults: "dropAfterCommit=0.2,error500=0.15"})
	fast := []api.Option{
		api.WithRetryPolicy(api.RetryPolicy{MaxRetries: 8, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, MaxRetryAfter: time.Second}),
		api.WithReconcilePolicy(api.ReconcilePolicy{Delays: []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond}, Timeout: 10 * time.Second}),
	}
	op := e.as("operator", fast...)

	var reconciled, unknown, failedAttempts atomic.Int64
	reported := make([]uuid.UUID, intents)
	ext := make([]string, intents)
	var wg sync.WaitGroup
	jobs := make(chan int)
	errs := make(chan error, intents)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				ext[i] = uuid.NewString() // one per intent, kept across tries
				var done bool
				for try := 0; try < 20 && !done; try++ {
					q, err := op.Quote(ctx(t), pixQuote(fmt.Sprintf("%d.%02d", 10+i, try)))
					if err != nil {
						failedAttempts.Add(1)
						continue
					}
					res, err := op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: ext[i]})
					switch {
					case err == nil:
						if res.Reconciled {
							reconciled.Add(1)
						}
						reported[i] = res.Ticket.ID
						done = true
					case errors.Is(err, api.ErrOutcomeUnknown):
						// What a careful caller does: look again, and only
						// then try the intent anew.
						unknown.Add(1)
						found, ferr := findByExternal(t, op, ext[i])
						if ferr != nil {
							failedAttempts.Add(1)
							continue
						}
						if found != nil {
							reported[i] = found.ID
							done = true
						}
					default:
						failedAttempts.Add(1)
					}
				}
				if !done {
					errs <- fmt.Errorf("intent %d never completed", i)
				}
			}
		}()
	}
	for i := 0; i < intents; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// Audit with the faults out of the way: a fresh client on the same
	// sandbox, reading until the faults let it through.
	counts := map[string]int{}
	byID := map[uuid.UUID]string{}
	for tk, err := range api.All(ctx(t), func(cx context.Context, cursor string) (api.Page[api.Ticket], error) {
		return op.ListTickets(cx, api.TicketFilter{Cursor: cursor})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		if tk.ExternalID != "" {
			counts[tk.ExternalID]++
			byID[tk.ID] = tk.ExternalID
		}
	}
	for i := 0; i < intents; i++ {
		switch n := counts[ext[i]]; {
		case n == 0:
			t.Errorf("intent %d: no ticket (lost)", i)
		case n > 1:
			t.Errorf("intent %d: %d tickets (duplicate)", i, n)
		}
		if byID[reported[i]] != ext[i] {
			t.Errorf("intent %d: the ticket reported to the caller is not the one created", i)
		}
	}
	t.Logf("%d intents: %d reconciled after a lost answer, %d outcomes unknown then settled, %d failed tries retried", intents, reconciled.Load(), unknown.Load(), failedAttempts.Load())
	if reconciled.Load() == 0 {
		t.Error("no answer was lost: the faults did not fire")
	}
}

func findByExternal(t *testing.T, c *api.Client, ext string) (*api.Ticket, error) {
	p, err := c.ListTickets(ctx(t), api.TicketFilter{ExternalID: ext})
	if err != nil {
		return nil, err
	}
	switch len(p.Items) {
	case 0:
		return nil, nil
	case 1:
		return &p.Items[0], nil
	}
	return nil, fmt.Errorf("externalId %s has %d tickets", ext, len(p.Items))
}
