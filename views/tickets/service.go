package tickets

import (
	"context"
	"iter"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the ticket browser asks of the service.
type Service interface {
	ListTickets(ctx context.Context, q api.TicketFilter) (api.Page[api.Ticket], error)
	// TicketPages reads the pages of q from its cursor to the last, each
	// asked for before the one before it is decoded (G's loading to the
	// end).
	TicketPages(ctx context.Context, q api.TicketFilter) iter.Seq2[api.Page[api.Ticket], error]
	GetTicket(ctx context.Context, account, id uuid.UUID) (*api.Ticket, error)
	TicketReceipt(ctx context.Context, account, id uuid.UUID) ([]byte, error)
	// CancelTicket cancels an UNPAID ticket; any other state is refused
	// (409 NOT_CANCELABLE).
	CancelTicket(ctx context.Context, account, id uuid.UUID) (*api.Ticket, error)
	// ListWebhookEvents lists recorded events; filtered by a ticket's id,
	// they are its history of transitions.
	ListWebhookEvents(ctx context.Context, f api.WebhookEventFilter) (api.Page[api.WebhookEvent], error)
}
