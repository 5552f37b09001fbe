package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// pathPixInfo resolves a PIX key to its holder. It lives here rather than in
// wire.go's table because it is this file's only path.
const pathPixInfo = "/v2/account/bank-accounts/brl/pix-info"

// PixInfo is who a PIX key pays, as the PIX directory names them. TaxID is
// masked by the service (e.g. ***.982.247-**): it identifies the holder to a
// person, it is not a document to store.
type PixInfo struct {
	Name     string `json:"name"`
	TaxID    string `json:"taxId"`
	BankName string `json:"bankName"`
}

// PixInfo asks who holds a PIX key, so that an operator sees the name before
// paying it. The key is sent as typed (validate it first); decodePixKey is
// always true, as the live integrations send it. An unknown key is a
// *Error with status 404.
func (c *Client) PixInfo(ctx context.Context, pixKey string) (*PixInfo, error) {
	if strings.TrimSpace(pixKey) == "" {
		return nil, errors.New("pix info: empty PIX key")
	}
	q := newQuery().str("pixKey", pixKey).boolean("decodePixKey", true)
	var out PixInfo
	if err := c.json(ctx, call{method: http.MethodGet, path: pathPixInfo, query: q.values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
