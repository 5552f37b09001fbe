package trades

import (
	"context"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service is what the trades screen asks of the service.
type Service interface {
	ListTrades(ctx context.Context, q api.TradeFilter) (api.Page[api.Trade], error)
}
