package webhooks

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// fakeService is the webhooks service the screen tests drive: attempts,
// registered webhooks and events, and what the screen asked of each.
type fakeService struct {
	mu       sync.Mutex
	attempts []api.WebhookAttempt
	hooks    []api.Webhook
	queries  []api.AttemptFilter
	gets     []string
	acks     [][]string
	ackErr   error

	events    []api.WebhookEvent
	eventQs   []api.WebhookEventFilter
	updates   []api.UpdateWebhookRequest
	updateErr error
}

func (f *fakeService) ListWebhookAttempts(_ context.Context, q api.AttemptFilter) (api.Page[api.WebhookAttempt], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	return fakeservice.Page(f.attempts, func(a api.WebhookAttempt) bool {
		return !(q.UnackedOnly && a.Acknowledged) && (q.WebhookEventID == "" || a.WebhookEventID == q.WebhookEventID)
	}, q.Cursor, 0), nil
}

func (f *fakeService) GetWebhookAttempt(_ context.Context, id string) (*api.WebhookAttempt, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets = append(f.gets, id)
	for _, a := range f.attempts {
		if a.ID == id {
			return &a, nil
		}
	}
	return nil, fmt.Errorf("%w: attempt %s", api.ErrNotFound, id)
}

func (f *fakeService) AcknowledgeWebhookAttempts(_ context.Context, ids []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ackErr != nil {
		return f.ackErr
	}
	f.acks = append(f.acks, ids)
	for i := range f.attempts {
		for _, id := range ids {
			if f.attempts[i].ID == id {
				f.attempts[i].Acknowledged = true
			}
		}
	}
	return nil
}

func (f *fakeService) ListWebhooks(context.Context) ([]api.Webhook, error) {
	return f.hooks, nil
}

// ListWebhookEvents pages the fake's events 50 at a time, the cursor being
// the index of the next one.
func (f *fakeService) ListWebhookEvents(_ context.Context, q api.WebhookEventFilter) (api.Page[api.WebhookEvent], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.eventQs = append(f.eventQs, q)
	return fakeservice.Page(f.events, func(e api.WebhookEvent) bool { return q.Subscription == "" || e.Subscription == q.Subscription }, q.Cursor, 0), nil
}

// UpdateWebhook changes the fake's webhook, unless updateErr is set.
func (f *fakeService) UpdateWebhook(_ context.Context, req api.UpdateWebhookRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.updates = append(f.updates, req)
	if f.updateErr != nil {
		return f.updateErr
	}
	for i, h := range f.hooks {
		if h.ID == req.WebhookID {
			f.hooks[i] = api.Webhook{ID: h.ID, URL: req.WebhookURL, Subscriptions: slices.Clone(req.Subscriptions)}
			return nil
		}
	}
	return fmt.Errorf("%w: webhook %s", api.ErrNotFound, req.WebhookID)
}

// makeEvents are n ticket events, newest first, then n/3 KYC ones.
func makeEvents(n int) []api.WebhookEvent {
	var out []api.WebhookEvent
	for i := range n {
		out = append(out, api.WebhookEvent{ID: fmt.Sprintf("ev-%03d", i), Subscription: "TICKET",
			Data:      map[string]any{"ticketId": uuid.NewSHA1(uuid.Nil, []byte{byte(i)}).String(), "status": "PAID"},
			CreatedAt: api.NewTime(now.Add(-time.Duration(i) * time.Minute))})
	}
	for i := range n / 3 {
		out = append(out, api.WebhookEvent{ID: fmt.Sprintf("kyc-%03d", i), Subscription: "KYC",
			Data: map[string]any{"attemptId": fmt.Sprintf("att-%d", i), "status": "COMPLETED"}, CreatedAt: api.NewTime(now.Add(-time.Hour))})
	}
	return out
}
