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

// AccountMetadata is GET /v2/account/metadata: which fiat rails the
// operated account may use (service.md §8.7). A quote or ticket on a
// locked rail is refused with 403 RAIL_LOCKED.
type AccountMetadata struct {
	BrlUnlocked bool `json:"brlUnlocked"`
	UsdUnlocked bool `json:"usdUnlocked"`
	EurUnlocked bool `json:"eurUnlocked"`
	ArsUnlocked bool `json:"arsUnlocked"`
	CopUnlocked bool `json:"copUnlocked"`
}

// FiatRails are the fiat currencies whose rails the metadata names, in
// the catalogue's order.
var FiatRails = []string{"BRL", "USD", "EUR", "COP", "ARS"}

// Unlocked reports whether the rail of a fiat currency is open; a token
// (no fiat rail) is always open.
func (m AccountMetadata) Unlocked(currency string) bool {
	switch currency {
	case "BRL":
		return m.BrlUnlocked
	case "USD":
		return m.UsdUnlocked
	case "EUR":
		return m.EurUnlocked
	case "ARS":
		return m.ArsUnlocked
	case "COP":
		return m.CopUnlocked
	}
	return true
}

// Metadata reads which fiat rails the operated account may use.
func (c *Client) Metadata(ctx context.Context, subAccountID uuid.UUID) (*AccountMetadata, error) {
	var out AccountMetadata
	if err := c.json(ctx, call{method: http.MethodGet, path: pathMetadata, query: newQuery().sub(subAccountID).values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
