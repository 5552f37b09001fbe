package overview

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the Overview asks of the service.
type Service interface {
	Balances(ctx context.Context, subAccount uuid.UUID) (api.Balances, error)
	ListTickets(ctx context.Context, f api.TicketFilter) (api.Page[api.Ticket], error)
	ListApproverOperations(ctx context.Context, cursor string) (api.Page[api.Operation], error)
	AccountDetails(ctx context.Context, subAccount uuid.UUID) (*api.AccountDetails, error)
	Limits(ctx context.Context, subAccount uuid.UUID) (*api.AccountLimits, error)
	Metadata(ctx context.Context, subAccount uuid.UUID) (*api.AccountMetadata, error)
	StaticBrCode(ctx context.Context, subAccount uuid.UUID, amount, referenceLabel, additionalData string) (string, error)
	OwnBRLAccount(ctx context.Context, subAccount uuid.UUID) (*api.OwnBRLAccount, error)
}
