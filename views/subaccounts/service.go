package subaccounts

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the screen asks of the service.
type Service interface {
	ListSubAccounts(ctx context.Context, f api.SubAccountFilter) (api.Page[api.SubAccount], error)
	CreateSubAccount(ctx context.Context, req api.CreateSubAccountRequest) (uuid.UUID, error)
}
