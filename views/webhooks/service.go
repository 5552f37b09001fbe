package webhooks

import (
	"context"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the webhooks screen asks of the service. Webhooks belong
// to the main account, as in the live catalogue: none of these calls names
// a sub-account.
type Service interface {
	ListWebhookAttempts(ctx context.Context, q api.AttemptFilter) (api.Page[api.WebhookAttempt], error)
	GetWebhookAttempt(ctx context.Context, id string) (*api.WebhookAttempt, error)
	AcknowledgeWebhookAttempts(ctx context.Context, ids []string) error
	ListWebhooks(ctx context.Context) ([]api.Webhook, error)
	UpdateWebhook(ctx context.Context, req api.UpdateWebhookRequest) error
	ListWebhookEvents(ctx context.Context, q api.WebhookEventFilter) (api.Page[api.WebhookEvent], error)
}
