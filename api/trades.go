package api

import (
	"context"
	"net/http"
)

// ListTrades returns one page of end-of-day trades (time filters in Unix
// seconds, createdAfter inclusive).
func (c *Client) ListTrades(ctx context.Context, f TradeFilter) (Page[Trade], error) {
	q := newQuery().sub(f.SubAccountID).str("status", f.Status).str("settlementDate", f.SettlementDate).
		unix("createdAfter", f.CreatedAfter).unix("createdBefore", f.CreatedBefore).cursor(f.Cursor)
	return page[Trade](ctx, c, call{method: http.MethodGet, path: pathTrades, query: q.values()}, keyTrades)
}
