package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

// ListAccesses lists the sub-accesses of the business account, filtered by
// creation time (Unix seconds, createdAfter inclusive).
func (c *Client) ListAccesses(ctx context.Context, f AccessFilter) ([]Access, error) {
	q := newQuery().unix("createdAfter", f.CreatedAfter).unix("createdBefore", f.CreatedBefore)
	return list[Access](ctx, c, call{method: http.MethodGet, path: pathAccesses, query: q.values()}, keyAccesses)
}

// AccessInfo reads the caller's own access: permissions, frozen state,
// blacklist.
func (c *Client) AccessInfo(ctx context.Context) (*AccessInfo, error) {
	var out AccessInfo
	if err := c.json(ctx, call{method: http.MethodGet, path: pathAccessInfo}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListAccounts lists every account the access may operate, main first.
func (c *Client) ListAccounts(ctx context.Context) ([]Account, error) {
	return list[Account](ctx, c, call{method: http.MethodGet, path: pathAccounts}, keyAccounts)
}

// ListSubAccounts returns one page of sub-accounts; Name matches a part of
// the name.
func (c *Client) ListSubAccounts(ctx context.Context, f SubAccountFilter) (Page[SubAccount], error) {
	q := newQuery().str("name", f.Name).cursor(f.Cursor)
	return page[SubAccount](ctx, c, call{method: http.MethodGet, path: pathSubAccounts, query: q.values()}, keySubAccounts)
}

// CreateSubAccount creates a sub-account (there is no way to delete one).
func (c *Client) CreateSubAccount(ctx context.Context, req CreateSubAccountRequest) (uuid.UUID, error) {
	if strings.TrimSpace(req.Name) == "" {
		return uuid.Nil, errors.New("create sub-account: give a name")
	}
	return c.createID(ctx, call{method: http.MethodPost, path: pathSubAccounts, body: req})
}

// Balances reads the balances of the operated account, by currency.
func (c *Client) Balances(ctx context.Context, subAccountID uuid.UUID) (Balances, error) {
	var out Balances
	if err := c.envelope(ctx, call{method: http.MethodGet, path: pathBalances, query: newQuery().sub(subAccountID).values()}, keyBalances, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = Balances{}
	}
	return out, nil
}

// createID sends a creation whose answer is {id}.
func (c *Client) createID(ctx context.Context, cl call) (uuid.UUID, error) {
	var id uuid.UUID
	if err := c.envelope(ctx, cl, keyID, &id); err != nil {
		return uuid.Nil, err
	}
	return id, nil
}

// noContent sends a call whose answer body does not matter.
func (c *Client) noContent(ctx context.Context, cl call) error {
	return c.json(ctx, cl, nil)
}
