package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/tesouro-treasury/tesouro/money"
)

// Quote asks for a fixed-rate quote. Exactly one of InputAmount and
// OutputAmount must be set; the third-party flags are always sent (the
// service requires them), the markup fields only when set. A token input
// always names its send method, PERMIT unless the request says otherwise:
// the service refuses a token-input quote without one (service.md §8.4).
func (c *Client) Quote(ctx context.Context, req QuoteRequest) (*Quote, error) {
	if req.InputAmount.Valid && req.OutputAmount.Valid || !req.InputAmount.Valid && !req.OutputAmount.Valid && req.OutputBrCode == "" {
		return nil, errors.New("quote: give exactly one of the input amount and the output amount (or a BR Code carrying its amount)")
	}
	q := newQuote(req)
	var out Quote
	if err := c.json(ctx, call{method: http.MethodGet, path: pathQuote, query: q.values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func newQuote(req QuoteRequest) query {
	if req.BlockchainSendMethod == "" && money.IsToken(req.InputCurrency) {
		req.BlockchainSendMethod = SendPermit
	}
	return newQuery().
		sub(req.SubAccountID).
		str("inputCurrency", req.InputCurrency).
		str("inputPaymentMethod", req.InputPaymentMethod).
		str("outputCurrency", req.OutputCurrency).
		str("outputPaymentMethod", req.OutputPaymentMethod).
		boolean("inputThirdParty", req.InputThirdParty).
		boolean("outputThirdParty", req.OutputThirdParty).
		str("blockchainSendMethod", req.BlockchainSendMethod).
		str("markupCurrency", req.MarkupCurrency).
		decimal("inputAmount", req.InputAmount).
		decimal("outputAmount", req.OutputAmount).
		decimal("markupFloatingFee", req.MarkupFloatingFee).
		decimal("markupInputFixedFee", req.MarkupInputFixedFee).
		decimal("markupOutputFixedFee", req.MarkupOutputFixedFee).
		str("outputBrCode", req.OutputBrCode).
		str("ticketRefundId", req.TicketRefundID)
}
