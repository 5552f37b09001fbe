package sandbox

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/store"

	"github.com/tesouro-treasury/tesouro/money"
)

// Monthly limits [decided: the live service documents the shape, not the
// values]. Every account has an entry per catalogue currency; the main
// account's ceilings are those of monthlyCeilings, a sub-account's a tenth
// of them. A ceiling applies to each of the four directions (fiat in, fiat
// out, chain in, chain out).
//
// What counts as used: the tickets created this calendar month (UTC, on
// the sandbox clock) that did not fail or get cancelled or expire. A
// ticket's input side counts in its input currency (fiat in for a fiat
// rail such as PIX, chain in for a chain, nothing for INTERNAL, which does
// not cross the service's edge), its output side likewise in its output
// currency. Usage is computed from the tickets at each request, so it can
// never drift from them.
var monthlyCeilings = map[string]int64{
	"BRL": 1_000_000, "BRLA": 1_000_000,
	"USD": 200_000, "USDC": 200_000, "USDT": 200_000, "USDM": 200_000, "USDCe": 200_000,
	"EUR": 200_000, "EURC": 200_000,
	"COP": 800_000_000, "ARS": 200_000_000,
}

// routeLimits registers the account limits endpoint.
func (s *Server) routeLimits(r *router) {
	r.handle(http.MethodGet, "/v2/account/limits", authAccess, s.limits)
}

// GET /v2/account/limits[?subAccountId]
func (s *Server) limits(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	start := time.Date(c.now.Year(), c.now.Month(), 1, 0, 0, 0, 0, time.UTC)
	used, err := s.monthUsage(acct, start)
	if err != nil {
		return err
	}
	info := LimitInfo{CreatedAt: NewTime(acct.CreatedAt), Limits: []Limit{}}
	for _, cur := range money.Currencies() {
		max := decimal.NewFromInt(monthlyCeilings[cur])
		if !acct.Main {
			max = max.Div(decimal.NewFromInt(10))
		}
		u := used[cur]
		u.Year, u.Month = start.Year(), int(start.Month())
		info.Limits = append(info.Limits, Limit{Currency: cur, MaxFiatIn: max, MaxFiatOut: max, MaxChainIn: max, MaxChainOut: max, UsedLimit: u})
	}
	return c.reply(http.StatusOK, AccountLimits{LimitInfo: info})
}

// notCounted are the ticket states whose money never moved.
var notCounted = map[TicketStatus]bool{"FAILED": true, "CANCELED": true, "CANCELLED": true, "EXPIRED": true}

// monthUsage adds up the tickets of acct created since start, by currency.
// The caller holds s.mu.
func (s *Server) monthUsage(acct *account, start time.Time) (map[string]UsedLimit, error) {
	used := map[string]UsedLimit{}
	add := func(cur, method string, amount decimal.Decimal, in bool) {
		if method == "INTERNAL" || method == "" {
			return
		}
		u := used[cur]
		chain := money.IsChain(method)
		switch {
		case in && chain:
			u.UsedChainIn = u.UsedChainIn.Add(amount)
		case in:
			u.UsedFiatIn = u.UsedFiatIn.Add(amount)
		case chain:
			u.UsedChainOut = u.UsedChainOut.Add(amount)
		default:
			u.UsedFiatOut = u.UsedFiatOut.Add(amount)
		}
		used[cur] = u
	}
	cursor := ""
	for {
		rows, next, err := s.ticketPage(acct, store.TicketFilter{From: start}, cursor, 500)
		if err != nil {
			return nil, err
		}
		for _, raw := range rows {
			var t Ticket
			if err := json.Unmarshal(raw, &t); err != nil {
				return nil, err
			}
			if notCounted[t.Status] {
				continue
			}
			q := t.Quote
			add(q.InputCurrency, q.InputPaymentMethod, q.InputAmount, true)
			add(q.OutputCurrency, q.OutputPaymentMethod, q.OutputAmount, false)
		}
		if next == "" {
			return used, nil
		}
		cursor = next
	}
}
