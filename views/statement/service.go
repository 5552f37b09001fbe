package statement

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the Statement asks of the service.
type Service interface {
	Statement(ctx context.Context, f api.StatementFilter) (api.Page[api.StatementLog], error)
	Balances(ctx context.Context, subAccount uuid.UUID) (api.Balances, error)
}
