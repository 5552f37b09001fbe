package approvals

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the screen asks of the service.
type Service interface {
	ListApproverOperations(ctx context.Context, cursor string) (api.Page[api.Operation], error)
	GetOperation(ctx context.Context, id uuid.UUID) (*api.Operation, error)
	ApproveOperation(ctx context.Context, id uuid.UUID) (*api.Operation, error)
	RejectOperation(ctx context.Context, id uuid.UUID, reason string) (*api.Operation, error)
}
