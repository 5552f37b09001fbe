package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"
)

// CreateUBO records an ultimate beneficial owner.
func (c *Client) CreateUBO(ctx context.Context, subAccountID uuid.UUID, req CreateUBORequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathUBOs, query: newQuery().sub(subAccountID).values(), body: req})
}

// ListUBOs returns one page of ultimate beneficial owners.
func (c *Client) ListUBOs(ctx context.Context, subAccountID uuid.UUID, cursor string) (Page[UBO], error) {
	return page[UBO](ctx, c, call{method: http.MethodGet, path: pathUBOs, query: newQuery().sub(subAccountID).cursor(cursor).values()}, keyUBOs)
}

// SubmitW8BEN submits a W-8BEN form; the answer links the generated form.
func (c *Client) SubmitW8BEN(ctx context.Context, subAccountID uuid.UUID, req W8BENRequest) (*W8BEN, error) {
	var out W8BEN
	if err := c.json(ctx, call{method: http.MethodPost, path: pathW8BEN, query: newQuery().sub(subAccountID).values(), body: req}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListW8BENs lists the submitted W-8BEN forms.
func (c *Client) ListW8BENs(ctx context.Context, subAccountID uuid.UUID) ([]W8BEN, error) {
	return list[W8BEN](ctx, c, call{method: http.MethodGet, path: pathW8BEN, query: newQuery().sub(subAccountID).values()}, keyW8BENs)
}

// ListProofOfAddressAttempts returns one page of proof-of-address attempts
// (time filters in Unix seconds, createdAfter inclusive).
func (c *Client) ListProofOfAddressAttempts(ctx context.Context, f TimeRangeFilter) (Page[ProofOfAddressAttempt], error) {
	q := newQuery().sub(f.SubAccountID).unix("createdAfter", f.CreatedAfter).unix("createdBefore", f.CreatedBefore).cursor(f.Cursor)
	return page[ProofOfAddressAttempt](ctx, c, call{method: http.MethodGet, path: pathPoAAttempts, query: q.values()}, keyAttempts)
}
