package httpapi

import (
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// GET /v2/account/limits[?subAccountId]: the monthly limits of the
// operated account, one per catalogue currency (engine.Limits).
func (s *Server) limits(c *call) error {
	acct, limits, err := s.eng.Limits(c.caller())
	if err != nil {
		return err
	}
	info := LimitInfo{CreatedAt: records.NewTime(acct.CreatedAt), Limits: []Limit{}}
	for _, l := range limits {
		u := l.Used
		info.Limits = append(info.Limits, Limit{
			Currency: l.Currency, MaxFiatIn: l.Max, MaxFiatOut: l.Max, MaxChainIn: l.Max, MaxChainOut: l.Max,
			UsedLimit: UsedLimit{Year: u.Year, Month: u.Month, UsedFiatIn: u.FiatIn, UsedFiatOut: u.FiatOut, UsedChainIn: u.ChainIn, UsedChainOut: u.ChainOut},
		})
	}
	return c.reply(http.StatusOK, AccountLimits{LimitInfo: info})
}

// AccountLimits is GET /v2/account/limits (§7.4).
type AccountLimits struct {
	LimitInfo LimitInfo `json:"limitInfo"`
}

// LimitInfo is an account's limits.
type LimitInfo struct {
	Blocked   bool         `json:"blocked"`
	CreatedAt records.Time `json:"createdAt"`
	Limits    []Limit      `json:"limits"`
}

// Limit is the monthly limit of one currency and what is used of it.
type Limit struct {
	Currency    string          `json:"currency"`
	MaxFiatIn   decimal.Decimal `json:"maxFiatIn"`
	MaxFiatOut  decimal.Decimal `json:"maxFiatOut"`
	MaxChainIn  decimal.Decimal `json:"maxChainIn"`
	MaxChainOut decimal.Decimal `json:"maxChainOut"`
	UsedLimit   UsedLimit       `json:"usedLimit"`
}

// UsedLimit is what the month's tickets used of a limit.
type UsedLimit struct {
	Year         int             `json:"year"`
	Month        int             `json:"month"`
	UsedFiatIn   decimal.Decimal `json:"usedFiatIn"`
	UsedFiatOut  decimal.Decimal `json:"usedFiatOut"`
	UsedChainIn  decimal.Decimal `json:"usedChainIn"`
	UsedChainOut decimal.Decimal `json:"usedChainOut"`
}
