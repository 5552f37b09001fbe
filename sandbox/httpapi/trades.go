package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// GET /v2/account/eod/trades?status=&settlementDate=&createdAfter=&createdBefore=&cursor=
func (s *Server) listTrades(c *call) error {
	match, err := tradeMatcher(c)
	if err != nil {
		return err
	}
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	items, next, err := s.eng.TradePage(c.caller(), w, c.query.Get("cursor"), match)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"trades": items, "cursor": next})
}

// tradeMatcher reads the status and settlementDate filters. settlementDate
// is either a calendar date YYYY-MM-DD, matching every trade that settles
// on that UTC day, or an RFC 3339 date-time, matching the trades whose
// settlement date is that exact instant (as a previous answer printed it).
func tradeMatcher(c *call) (func(*records.Trade) bool, error) {
	var status records.TradeStatus
	if raw := c.query.Get("status"); raw != "" {
		status = records.TradeStatus(raw)
		if !slices.Contains([]records.TradeStatus{records.TradePending, records.TradeSettled, records.TradeCancelled}, status) {
			return nil, badRequest(codeInvalidField, "status: %q is not a trade state; use PENDING, SETTLED or CANCELLED", truncate(raw, 20))
		}
	}
	var day string
	var instant time.Time
	if raw := strings.TrimSpace(c.query.Get("settlementDate")); raw != "" {
		if len(raw) == len(time.DateOnly) {
			d, err := validate.Date(raw)
			if err != nil {
				return nil, badRequest(codeInvalidField, "settlementDate: %v", err)
			}
			day = d.Format(time.DateOnly)
		} else {
			t, err := time.Parse(time.RFC3339Nano, raw)
			if err != nil {
				return nil, badRequest(codeInvalidField, "settlementDate: %q is neither a date YYYY-MM-DD nor an RFC 3339 date-time such as 2026-11-23T21:00:00Z", truncate(raw, 40))
			}
			instant = t
		}
	}
	if status == "" && day == "" && instant.IsZero() {
		return nil, nil
	}
	return func(t *records.Trade) bool {
		if status != "" && t.Status != status {
			return false
		}
		if day != "" && t.SettlementDate.UTC().Format(time.DateOnly) != day {
			return false
		}
		if !instant.IsZero() && !t.SettlementDate.Equal(instant) {
			return false
		}
		return true
	}, nil
}
