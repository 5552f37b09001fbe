package sandbox

import (
	"net/http"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// GET /v2/account/limits[?subAccountId]: the monthly limits of the
// operated account, one per catalogue currency (engine.Limits).
func (s *Server) limits(c *call) error {
	acct, limits, err := s.eng.Limits(c.caller())
	if err != nil {
		return err
	}
	info := LimitInfo{CreatedAt: engine.NewTime(acct.CreatedAt), Limits: []Limit{}}
	for _, l := range limits {
		u := l.Used
		info.Limits = append(info.Limits, Limit{
			Currency: l.Currency, MaxFiatIn: l.Max, MaxFiatOut: l.Max, MaxChainIn: l.Max, MaxChainOut: l.Max,
			UsedLimit: UsedLimit{Year: u.Year, Month: u.Month, UsedFiatIn: u.FiatIn, UsedFiatOut: u.FiatOut, UsedChainIn: u.ChainIn, UsedChainOut: u.ChainOut},
		})
	}
	return c.reply(http.StatusOK, AccountLimits{LimitInfo: info})
}
