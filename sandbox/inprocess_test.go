package sandbox

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// A sandbox served in process answers its own client over HTTP as one on
// a socket does: signed requests pass the operator key's allow-list (the
// client is on this machine), concurrent requests each get their answer,
// and once it is closed a request fails at once instead of waiting.
func TestInProcessSandboxAnswersItsClient(t *testing.T) {
	r, err := StartInProcess(Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	c := operatorClient(t, r.BaseURL, r.Creds, api.WithHTTPClient(r.HTTPClient()))

	page, err := c.ListTickets(t.Context(), api.TicketFilter{})
	if err != nil {
		t.Fatalf("list the tickets in process: %v", err)
	}
	if len(page.Items) == 0 {
		t.Fatal("the demo history has no ticket")
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			tk, err := c.GetTicket(t.Context(), uuid.Nil, page.Items[i%len(page.Items)].ID)
			if err == nil && tk.ID != page.Items[i%len(page.Items)].ID {
				err = errors.New("another ticket's answer")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("concurrent reads: %v", err)
	}

	if err := r.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if _, err := c.ListTickets(t.Context(), api.TicketFilter{}); err == nil {
		t.Fatal("a closed in-process sandbox still answered")
	}
}

// The embedded dashboard holds the demo history until its first frame; a
// window closed before drawing one never releases it, and the sandbox
// still closes.
func TestAHeldHistoryDoesNotHoldClose(t *testing.T) {
	r, err := StartInProcess(Config{Seed: 7, AnswerBeforeHistory: true, HoldHistory: make(chan struct{})})
	if err != nil {
		t.Fatal(err)
	}
	c := operatorClient(t, r.BaseURL, r.Creds, api.WithHTTPClient(r.HTTPClient()))
	if _, err := c.Balances(t.Context(), uuid.Nil); err != nil {
		t.Fatalf("the balances before the history: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a history nobody released")
	}
}
