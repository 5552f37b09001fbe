package trades

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"tesouro/api"
	"tesouro/money"
	"tesouro/ui"
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

func (m *Model) countText() string {
	n := len(m.trades)
	var s string
	switch {
	case !m.started || (m.loading && n == 0):
		s = "loading trades…"
	case m.loading:
		s = fmt.Sprintf("%d loaded · loading more…", n)
	case m.more:
		s = fmt.Sprintf("%d loaded · more available", n)
	default:
		s = fmt.Sprintf("all %d loaded", n)
	}
	if q := m.table.Filter(); q != "" {
		s += fmt.Sprintf(" · %d match /%s", m.table.Visible(), q)
	}
	return s
}

// View implements ui.Screen.
func (m *Model) View() string {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	th := m.s.Styles()
	var b strings.Builder
	switch {
	case m.bar.Active():
		b.WriteString(ui.Spread(th.Title.Render("Filter trades (sent to the service)"), th.Muted.Render(m.countText()), w))
		b.WriteString("\n")
		b.WriteString(m.bar.View(h - 1))
	case m.detail != nil:
		b.WriteString(m.detailView(w, h))
	default:
		filters := "no filters (f)"
		if s := m.bar.Summary(); s != "" {
			filters = "filters: " + s
		}
		count := m.countText()
		b.WriteString(ui.Spread(th.Value.Render(count), th.Muted.Render(ui.Truncate(filters, max(w-lipgloss.Width(count)-2, 0))), w))
		if m.headerLines() == 2 {
			b.WriteString("\n" + th.Error.Render("✗ "+m.err.Error()+" — press r to retry"))
		}
		if h > m.headerLines() {
			b.WriteString("\n" + m.table.View())
		}
	}
	return ui.Fit(b.String(), w, h)
}

func (m *Model) detailView(w, h int) string {
	th := m.s.Styles()
	body := tradeLines(m.detail, th, w, m.loc())
	room := max(h-1, 0)
	m.offset = max(min(m.offset, len(body)-room), 0)
	pos := ""
	if len(body) > room {
		pos = fmt.Sprintf("%d–%d of %d lines", m.offset+1, min(m.offset+room, len(body)), len(body))
	}
	lines := []string{ui.Spread(th.Title.Render("Trade "+m.detail.ID.String()), th.Muted.Render(pos), w)}
	lines = append(lines, body[m.offset:min(m.offset+room, len(body))]...)
	return strings.Join(lines, "\n")
}

// tradeLines renders every field of a trade.
func tradeLines(t *api.Trade, th *ui.Theme, width int, loc *time.Location) []string {
	var lines []string
	lw := min(20, max(width/3, 8))
	kv := func(label, value string) {
		if value == "" {
			return
		}
		l := ui.Truncate(label, lw)
		pad := strings.Repeat(" ", lw-lipgloss.Width(l))
		for i, part := range strings.Split(ansi.Hardwrap(value, max(width-lw-3, 8), true), "\n") {
			if i == 0 {
				lines = append(lines, "  "+th.Label.Render(l)+pad+" "+th.Value.Render(part))
			} else {
				lines = append(lines, "  "+strings.Repeat(" ", lw)+" "+th.Value.Render(part))
			}
		}
	}
	title := func(s string) {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, th.Title.Render(s))
	}
	ts := func(x api.Time) string { return when(x.Time, loc, "2006-01-02 15:04:05") }

	title("Trade")
	kv("ID", t.ID.String())
	status := string(t.Status)
	switch t.Status {
	case api.TradeSettled:
		status = th.Good.Render("✓ SETTLED")
	case api.TradeCancelled:
		status = th.Muted.Render("✗ CANCELLED")
	case api.TradePending:
		status = th.Warn.Render("PENDING")
	}
	kv("Status", status)
	kv("Created", ts(t.CreatedAt))
	kv("Terms", t.SettlementTerms)
	if !t.SettlementDate.IsZero() {
		kv("Settles on", t.SettlementDate.UTC().Format("2006-01-02 15:04 UTC"))
	}
	kv("Settled at", ts(t.SettledAt))
	if t.SettlementTicketID != nil && *t.SettlementTicketID != uuid.Nil {
		kv("Ticket", t.SettlementTicketID.String()+th.Muted.Render("  (t opens it)"))
	} else {
		kv("Ticket", th.Muted.Render("no settlement ticket yet"))
	}

	title("Conversion")
	kv("Input", amount(t.InputAmount, t.InputCurrency)+" via "+t.InputPaymentMethod)
	kv("Output", amount(t.OutputAmount, t.OutputCurrency)+" via "+t.OutputPaymentMethod)
	if !t.BasePrice.IsZero() {
		kv("Base price", t.BasePrice.String()+" "+t.OutputCurrency+" per "+t.InputCurrency)
	}
	if t.QuoteTokenID != uuid.Nil {
		kv("Quote token", t.QuoteTokenID.String())
	}

	title("Fees")
	if len(t.AppliedFees) == 0 {
		lines = append(lines, "  "+th.Muted.Render("no fees applied"))
	}
	for _, f := range t.AppliedFees {
		v := amount(f.Amount, f.Currency)
		if f.Description != "" {
			v += th.Muted.Render("  " + f.Description)
		}
		kv(f.Type, v)
	}
	return lines
}
