package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"
)

// ListWallets returns one page of beneficiary wallets.
func (c *Client) ListWallets(ctx context.Context, f WalletFilter) (Page[Wallet], error) {
	q := newQuery().sub(f.SubAccountID).str("alias", f.Alias).str("walletAddress", f.WalletAddress).str("walletChain", f.WalletChain).cursor(f.Cursor)
	return page[Wallet](ctx, c, call{method: http.MethodGet, path: pathWallets, query: q.values()}, keyWallets)
}

// CreateWallet registers a beneficiary wallet.
func (c *Client) CreateWallet(ctx context.Context, subAccountID uuid.UUID, req CreateWalletRequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathWallets, query: newQuery().sub(subAccountID).values(), body: req})
}

// GetWallet reads one beneficiary wallet.
func (c *Client) GetWallet(ctx context.Context, subAccountID, id uuid.UUID) (*Wallet, error) {
	return lenientObject[Wallet](ctx, c, call{method: http.MethodGet, path: itemUUID(pathWallets, id), query: newQuery().sub(subAccountID).values()}, keyWallet)
}

// DeleteWallet removes a beneficiary wallet.
func (c *Client) DeleteWallet(ctx context.Context, subAccountID, id uuid.UUID) error {
	return c.noContent(ctx, call{method: http.MethodDelete, path: itemUUID(pathWallets, id), query: newQuery().sub(subAccountID).values()})
}

// ListBRLAccounts returns one page of BRL beneficiaries (PIX keys and bank
// accounts).
func (c *Client) ListBRLAccounts(ctx context.Context, f BeneficiaryFilter) (Page[BRLAccount], error) {
	q := newQuery().sub(f.SubAccountID).str("alias", f.Alias).cursor(f.Cursor)
	return page[BRLAccount](ctx, c, call{method: http.MethodGet, path: pathBRLAccounts, query: q.values()}, keyBRLAccounts)
}

// CreateBRLAccount registers a BRL beneficiary.
func (c *Client) CreateBRLAccount(ctx context.Context, subAccountID uuid.UUID, req CreateBRLAccountRequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathBRLAccounts, query: newQuery().sub(subAccountID).values(), body: req})
}

// GetBRLAccount reads one BRL beneficiary.
func (c *Client) GetBRLAccount(ctx context.Context, subAccountID, id uuid.UUID) (*BRLAccount, error) {
	return lenientObject[BRLAccount](ctx, c, call{method: http.MethodGet, path: itemUUID(pathBRLAccounts, id), query: newQuery().sub(subAccountID).values()}, keyBRLAccount)
}

// DeleteBRLAccount removes a BRL beneficiary.
func (c *Client) DeleteBRLAccount(ctx context.Context, subAccountID, id uuid.UUID) error {
	return c.noContent(ctx, call{method: http.MethodDelete, path: itemUUID(pathBRLAccounts, id), query: newQuery().sub(subAccountID).values()})
}

// ListUSDAccounts returns one page of USD bank-account beneficiaries.
func (c *Client) ListUSDAccounts(ctx context.Context, f BeneficiaryFilter) (Page[USDAccount], error) {
	q := newQuery().sub(f.SubAccountID).cursor(f.Cursor).str("alias", f.Alias)
	return page[USDAccount](ctx, c, call{method: http.MethodGet, path: pathUSDAccounts, query: q.values()}, keyUSDAccounts)
}

// CreateUSDAccount registers a USD bank-account beneficiary.
func (c *Client) CreateUSDAccount(ctx context.Context, subAccountID uuid.UUID, req CreateUSDAccountRequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathUSDAccounts, query: newQuery().sub(subAccountID).values(), body: req})
}

// GetUSDAccount reads one USD bank-account beneficiary.
func (c *Client) GetUSDAccount(ctx context.Context, subAccountID, id uuid.UUID) (*USDAccount, error) {
	return lenientObject[USDAccount](ctx, c, call{method: http.MethodGet, path: itemUUID(pathUSDAccounts, id), query: newQuery().sub(subAccountID).values()}, keyUSDAccount)
}

// ListCOPAccounts returns one page of COP bank-account beneficiaries.
func (c *Client) ListCOPAccounts(ctx context.Context, f BeneficiaryFilter) (Page[COPAccount], error) {
	q := newQuery().sub(f.SubAccountID).str("alias", f.Alias).cursor(f.Cursor)
	return page[COPAccount](ctx, c, call{method: http.MethodGet, path: pathCOPAccounts, query: q.values()}, keyCOPAccounts)
}

// CreateCOPAccount registers a COP bank-account beneficiary (with a Bre-B
// key, bank fields, or both).
func (c *Client) CreateCOPAccount(ctx context.Context, subAccountID uuid.UUID, req CreateCOPAccountRequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathCOPAccounts, query: newQuery().sub(subAccountID).values(), body: req})
}
