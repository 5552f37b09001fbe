package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// pathLimits is the account's monthly limits (one path, kept with its
// method).
const pathLimits = "/v2/account/limits"

// AccountLimits is the answer of GET /v2/account/limits.
type AccountLimits struct {
	LimitInfo LimitInfo `json:"limitInfo"`
}

// LimitInfo says whether the account may move money at all and how much
// per currency and month.
type LimitInfo struct {
	Blocked   bool    `json:"blocked"`
	CreatedAt Time    `json:"createdAt"`
	Limits    []Limit `json:"limits"`
}

// Limit is the monthly ceiling of one currency, by direction and rail kind
// (fiat rails such as PIX, or chains), with what this month used of it.
type Limit struct {
	Currency    string          `json:"currency"`
	MaxFiatIn   decimal.Decimal `json:"maxFiatIn"`
	MaxFiatOut  decimal.Decimal `json:"maxFiatOut"`
	MaxChainIn  decimal.Decimal `json:"maxChainIn"`
	MaxChainOut decimal.Decimal `json:"maxChainOut"`
	UsedLimit   UsedLimit       `json:"usedLimit"`
}

// UsedLimit is what the month (Year, Month) has used of a Limit.
type UsedLimit struct {
	Year         int             `json:"year"`
	Month        int             `json:"month"`
	UsedFiatIn   decimal.Decimal `json:"usedFiatIn"`
	UsedFiatOut  decimal.Decimal `json:"usedFiatOut"`
	UsedChainIn  decimal.Decimal `json:"usedChainIn"`
	UsedChainOut decimal.Decimal `json:"usedChainOut"`
}

// Limit returns the entry of a currency, if the account has one.
func (l LimitInfo) Limit(currency string) (Limit, bool) {
	for _, x := range l.Limits {
		if x.Currency == currency {
			return x, true
		}
	}
	return Limit{}, false
}

// FiatOutLeft is what the month still allows out through fiat rails.
func (l Limit) FiatOutLeft() decimal.Decimal {
	return decimal.Max(decimal.Zero, l.MaxFiatOut.Sub(l.UsedLimit.UsedFiatOut))
}

// ChainOutLeft is what the month still allows out to chains.
func (l Limit) ChainOutLeft() decimal.Decimal {
	return decimal.Max(decimal.Zero, l.MaxChainOut.Sub(l.UsedLimit.UsedChainOut))
}

// Limits reads the monthly limits of the operated account and what this
// month used of them.
func (c *Client) Limits(ctx context.Context, subAccountID uuid.UUID) (*AccountLimits, error) {
	var out AccountLimits
	if err := c.json(ctx, call{method: http.MethodGet, path: pathLimits, query: newQuery().sub(subAccountID).values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
