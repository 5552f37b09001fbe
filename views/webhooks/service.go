package webhooks

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the webhooks screen asks of the service.
type Service interface {
	ListWebhookAttempts(ctx context.Context, q api.AttemptFilter) (api.Page[api.WebhookAttempt], error)
	GetWebhookAttempt(ctx context.Context, account uuid.UUID, id string) (*api.WebhookAttempt, error)
	AcknowledgeWebhookAttempts(ctx context.Context, account uuid.UUID, ids []string) error
	ListWebhooks(ctx context.Context, account uuid.UUID) ([]api.Webhook, error)
	UpdateWebhook(ctx context.Context, req api.UpdateWebhookRequest) error
	ListWebhookEvents(ctx context.Context, q api.WebhookEventFilter) (api.Page[api.WebhookEvent], error)
}
