package api

import (
	"context"
	"errors"
	"net/http"
)

// The webhook calls below take no subAccountId: the live catalogue has none
// for them (spec/service.md §7.4). Webhooks belong to the caller's main
// account and hear its sub-accounts too; each event names its sub-account.

// ListWebhookAttempts returns one page of webhook delivery attempts.
func (c *Client) ListWebhookAttempts(ctx context.Context, f AttemptFilter) (Page[WebhookAttempt], error) {
	q := newQuery().unix("createdAfter", f.CreatedAfter).unix("createdBefore", f.CreatedBefore).
		cursor(f.Cursor).str("webhookEventId", f.WebhookEventID)
	if f.UnackedOnly {
		q.boolean("unackedOnly", true)
	}
	return page[WebhookAttempt](ctx, c, call{method: http.MethodGet, path: pathWebhookAttempts, query: q.values()}, keyAttempts)
}

// GetWebhookAttempt reads one delivery attempt.
func (c *Client) GetWebhookAttempt(ctx context.Context, id string) (*WebhookAttempt, error) {
	if id == "" {
		return nil, errors.New("webhook attempt: empty id")
	}
	cl := call{method: http.MethodGet, path: item(pathWebhookAttempts+"/", id)}
	return object[WebhookAttempt](ctx, c, cl, keyEventAttempt)
}

// AcknowledgeWebhookAttempts marks delivery attempts as acknowledged.
func (c *Client) AcknowledgeWebhookAttempts(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return errors.New("acknowledge: no attempt ids given")
	}
	return c.noContent(ctx, call{method: http.MethodPatch, path: pathWebhookAttempts, body: ackBody{IDs: ids}})
}

// ListWebhooks lists the registered webhooks (at most three).
func (c *Client) ListWebhooks(ctx context.Context) ([]Webhook, error) {
	return list[Webhook](ctx, c, call{method: http.MethodGet, path: pathWebhooks}, keyWebhooks)
}

// RegisterWebhook registers a webhook and returns its id.
func (c *Client) RegisterWebhook(ctx context.Context, req RegisterWebhookRequest) (string, error) {
	var id string
	if err := c.envelope(ctx, call{method: http.MethodPost, path: pathWebhooks, body: req}, keyWebhookID, &id); err != nil {
		return "", err
	}
	return id, nil
}

// DeleteWebhook removes a webhook.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	if id == "" {
		return errors.New("delete webhook: empty id")
	}
	return c.noContent(ctx, call{method: http.MethodDelete, path: item(pathWebhooks, id)})
}

// PublicKey fetches the PEM public key that verifies webhook deliveries
// (no credentials needed; it may rotate, so fetch rather than pin).
func (c *Client) PublicKey(ctx context.Context) (string, error) {
	var k string
	if err := c.envelope(ctx, call{method: http.MethodGet, path: pathPublicKey, public: true}, keyPublicKey, &k); err != nil {
		return "", err
	}
	return k, nil
}
