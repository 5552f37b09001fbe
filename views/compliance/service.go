package compliance

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the Compliance screen asks of the service.
type Service interface {
	ListUBOs(ctx context.Context, account uuid.UUID, cursor string) (api.Page[api.UBO], error)
	CreateUBO(ctx context.Context, account uuid.UUID, req api.CreateUBORequest) (uuid.UUID, error)
	ListW8BENs(ctx context.Context, account uuid.UUID) ([]api.W8BEN, error)
	SubmitW8BEN(ctx context.Context, account uuid.UUID, req api.W8BENRequest) (*api.W8BEN, error)
	ListProofOfAddressAttempts(ctx context.Context, q api.TimeRangeFilter) (api.Page[api.ProofOfAddressAttempt], error)
}
