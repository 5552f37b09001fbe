package trades

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

func amount(d decimal.Decimal, cur string) string {
	return money.Format(d, cur) + " " + cur
}

func when(t time.Time, loc *time.Location, layout string) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(layout)
}

func (m *Model) countText() string { return m.list.Count() }

// View implements ui.Screen.
func (m *Model) View() string {
	return m.list.Frame(m.width, m.height, "Filter trades (sent to the service)", m.countText(), func() string {
		if t := m.detail.Open; t != nil {
			return m.detail.Pane(m.s.Styles(), "Trade "+t.ID.String(), tradeLines(t, m.s.Styles(), m.width, m.loc()), m.width, m.height)
		}
		return m.list.View(listing.Filters(m.bar))
	})
}

// tradeLines renders every field of a trade.
func tradeLines(t *api.Trade, th *ui.Theme, width int, loc *time.Location) []string {
	s := listing.NewSheet(th, width)
	ts := func(x api.Time) string { return when(x.Time, loc, "2006-01-02 15:04:05") }

	s.Title("Trade")
	s.KV("ID", t.ID.String())
	s.KV("Status", th.StatusWord(t.Status.Meaning(), string(t.Status)))
	s.KV("Created", ts(t.CreatedAt))
	s.KV("Terms", t.SettlementTerms)
	if !t.SettlementDate.IsZero() {
		s.KV("Settles on", t.SettlementDate.UTC().Format("2006-01-02 15:04 UTC"))
	}
	s.KV("Settled at", ts(t.SettledAt))
	if t.SettlementTicketID != nil && *t.SettlementTicketID != uuid.Nil {
		s.KV("Ticket", t.SettlementTicketID.String()+th.Muted.Render("  (t opens it)"))
	} else {
		s.KV("Ticket", th.Muted.Render("no settlement ticket yet"))
	}

	s.Title("Conversion")
	s.KV("Input", amount(t.InputAmount, t.InputCurrency)+" via "+t.InputPaymentMethod)
	s.KV("Output", amount(t.OutputAmount, t.OutputCurrency)+" via "+t.OutputPaymentMethod)
	// A trade names no pair: the price is read by the market-pair rule.
	if p := payment.PriceOf("", t.BasePrice, t.InputCurrency, t.OutputCurrency); p.Known() {
		s.KV("Price", p.String())
		if p.Base != p.Quote {
			s.KV("Inverse", p.Inverse().String())
		}
	}
	if t.QuoteTokenID != uuid.Nil {
		s.KV("Quote token", t.QuoteTokenID.String())
	}

	s.Title("Fees")
	if len(t.AppliedFees) == 0 {
		s.Text(th.Muted.Render("no fees applied"))
	}
	for _, f := range t.AppliedFees {
		v := amount(f.Amount, f.Currency)
		if f.Description != "" {
			v += th.Muted.Render("  " + f.Description)
		}
		s.KV(f.Type, v)
	}
	return s.Lines
}
