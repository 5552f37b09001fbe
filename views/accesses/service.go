package accesses

import (
	"context"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the screen asks of the service.
type Service interface {
	ListAccesses(ctx context.Context, f api.AccessFilter) ([]api.Access, error)
}
