package approvals

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the screen asks of the service: the approver's
// operations, the decisions, and who a PIX key pays (shown before approving).
type Service interface {
	ListApproverOperations(ctx context.Context, cursor string) (api.Page[api.Operation], error)
	GetOperation(ctx context.Context, id uuid.UUID) (*api.Operation, error)
	ApproveOperation(ctx context.Context, id uuid.UUID) (*api.Operation, error)
	RejectOperation(ctx context.Context, id uuid.UUID, reason string) (*api.Operation, error)
	PixInfo(ctx context.Context, pixKey string) (*api.PixInfo, error)
	// Quote prices a parked operation today, for the approval's
	// confirmation (see price.go).
	Quote(ctx context.Context, req api.QuoteRequest) (*api.Quote, error)
	// GetTicket follows the ticket a request executed (My requests).
	GetTicket(ctx context.Context, subAccountID, id uuid.UUID) (*api.Ticket, error)
}
