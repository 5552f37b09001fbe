package webhooks

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// ListWebhookEvents pages the fake's events 50 at a time, the cursor being
// the index of the next one.
func (f *fakeService) ListWebhookEvents(_ context.Context, q api.WebhookEventFilter) (api.Page[api.WebhookEvent], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.eventQs = append(f.eventQs, q)
	var match []api.WebhookEvent
	for _, e := range f.events {
		if q.Subscription == "" || e.Subscription == q.Subscription {
			match = append(match, e)
		}
	}
	start, _ := strconv.Atoi(q.Cursor)
	end := min(start+50, len(match))
	p := api.Page[api.WebhookEvent]{Items: slices.Clone(match[start:end])}
	if end < len(match) {
		p.Cursor = strconv.Itoa(end)
	}
	return p, nil
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
