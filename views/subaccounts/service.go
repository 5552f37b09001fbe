package subaccounts

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
)

// Service is what the screen asks of the service.
type Service interface {
	ListSubAccounts(ctx context.Context, f api.SubAccountFilter) (api.Page[api.SubAccount], error)
	CreateSubAccount(ctx context.Context, req api.CreateSubAccountRequest) (uuid.UUID, error)
	// Moving funds: the quote, both accounts' balances, and the ticket,
	// sent once through the payment core.
	Quote(ctx context.Context, req api.QuoteRequest) (*api.Quote, error)
	Balances(ctx context.Context, subAccountID uuid.UUID) (api.Balances, error)
	payment.Service
}
