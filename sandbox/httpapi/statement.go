package httpapi

import (
	"net/http"
	"strconv"
	"strings"
)

// GET /v2/account/statement?createdAfter&createdBefore&cursor: the ledger
// of the operated account, newest first: every balance change with the
// balance it left (spec/service.md §7.4). The cursor is the last id shown.
func (s *Server) statement(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	lines, next, err := s.eng.Statement(c.caller(), w, c.query.Get("cursor"))
	if err != nil {
		return err
	}
	type logLine struct {
		ID            string `json:"id"`
		Token         string `json:"token"`
		BalanceChange string `json:"balanceChange"`
		FinalBalance  string `json:"finalBalance"`
		Description   string `json:"description"`
		TicketID      string `json:"ticketId,omitempty"`
		CreatedAt     string `json:"createdAt"`
	}
	out := []logLine{}
	for _, l := range lines {
		side := "[CREDIT]"
		if strings.HasPrefix(l.Amount, "-") {
			side = "[DEBIT]"
		}
		out = append(out, logLine{ID: strconv.FormatInt(l.ID, 10), Token: l.Currency, BalanceChange: l.Amount, FinalBalance: l.BalanceAfter,
			Description: side + " " + l.Reason, TicketID: l.TicketID, CreatedAt: fmtTime(l.At)})
	}
	return c.reply(http.StatusOK, map[string]any{"logs": out, "cursor": next})
}
