package statement

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// layouts of the list by width: from 96 cells every column, amounts up
// to "-1,000,000,000.000000" whole; below, the change (with its token), the
// balance and the time, which must never be cut; below 60 a shorter time.
var layouts = listing.Layouts{
	FullWidth: 96, NarrowWidth: 60,
	Full: []widget.Column{
		{Title: "Time", Width: 16},
		{Title: "Token", Width: 5},
		{Title: "Change", Width: 22, Right: true},
		{Title: "Balance", Width: 22, Right: true},
		{Title: "Description"},
	},
	Narrow: []widget.Column{{Title: "Time", Width: 11}, {Title: "Change", Right: true}, {Title: "Balance", Right: true}},
	Tiny:   []widget.Column{{Title: "Change", Right: true}, {Title: "Balance", Right: true}},
}

// signed is an amount with its sign: + for a credit, - for a debit.
func signed(d decimal.Decimal, cur string) string {
	s := money.Format(d, cur)
	if d.IsPositive() {
		s = "+" + s
	}
	return s
}

func (m *Model) row(l api.StatementLog) widget.Row {
	loc := m.loc()
	cells := []string{
		stamp(l.CreatedAt, loc, "2006-01-02 15:04"),
		l.Token,
		signed(l.BalanceChange, l.Token),
		money.Format(l.FinalBalance, l.Token),
		l.Description,
	}
	if m.layout != listing.LayoutFull {
		// The full cells follow the shown ones: the / filter still
		// matches the description.
		shown := []string{stamp(l.CreatedAt, loc, "01-02 15:04"), signed(l.BalanceChange, l.Token) + " " + l.Token, money.Format(l.FinalBalance, l.Token)}
		if m.layout == listing.LayoutTiny {
			shown = shown[1:]
		}
		cells = append(shown, cells...)
	}
	return widget.Row{Cells: cells}
}

// View implements ui.Screen.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return m.list.Frame(m.width, m.height, "Filter the statement (dates sent to the service)", m.list.Count(), func() string {
		if e := m.detail.Open; e != nil {
			return m.detail.Pane(m.s.Styles(), "Entry "+e.ID, m.detailLines(), m.width, m.height)
		}
		var notes []string
		if m.note != "" {
			notes = append(notes, m.note)
		}
		return m.tabsLine() + "\n" + m.list.View(listing.Filters(m.bar), notes...)
	})
}

// tabsLine shows the tokens, the one on screen marked; on a narrow
// terminal the tabs before it are dropped first.
func (m *Model) tabsLine() string {
	t := m.s.Styles()
	names := make([]string, len(m.tokens))
	for i, c := range m.tokens {
		if c == "" {
			c = "All"
		}
		names[i] = c
	}
	from := 0
	for from < m.tok && lipglossWidth(names[from:]) > m.width {
		from++
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString(t.Muted.Render("‹ "))
	}
	for i := from; i < len(names); i++ {
		if i == m.tok {
			b.WriteString(t.Title.Render("[" + names[i] + "]"))
		} else {
			b.WriteString(t.Muted.Render(" " + names[i] + " "))
		}
		b.WriteString(" ")
	}
	return ui.Fit(b.String(), m.width, 1)
}

func lipglossWidth(names []string) int {
	n := 0
	for _, s := range names {
		n += len(s) + 3
	}
	return n
}

// summaryLines are the lines over the table: for one token, the balances
// the loaded entries span and whether they add up; the account's balance
// now when the range reaches today.
func (m *Model) summaryLines(w, _ int) []string {
	t := m.s.Styles()
	tok := m.token()
	items := m.list.Items()
	if tok == "" {
		if len(m.tokens) > 1 {
			return []string{ui.Fit(t.Muted.Render("every token · ←/→ shows one with its opening and closing balance"), w, 1)}
		}
		return nil
	}
	if len(items) == 0 {
		return nil
	}
	sum := decimal.Zero
	for _, l := range items {
		sum = sum.Add(l.BalanceChange)
	}
	newest, oldest := items[0], items[len(items)-1]
	closing := newest.FinalBalance
	opening := oldest.FinalBalance.Sub(oldest.BalanceChange)
	scope := "all"
	if m.list.More {
		scope = "loaded so far"
	}
	line := fmt.Sprintf("%s %s · opening %s · changes %s · closing %s", tok, scope,
		money.Format(opening, tok), signed(sum, tok), money.Format(closing, tok))
	var check string
	if closing.Sub(opening).Equal(sum) {
		check = t.Good.Render(" ✓ adds up")
	} else {
		check = t.Bad.Render(" ✗ does not add up: the balances moved " + signed(closing.Sub(opening), tok))
	}
	lines := []string{ui.Fit(t.Value.Render(line)+check, w, 1)}
	if m.bar.Value(listing.ToKey) == "" && m.balErr == nil && m.balances != nil {
		now, ok := m.balances[tok]
		switch {
		case !ok:
		case now.Equal(closing):
			lines = append(lines, ui.Fit(t.Muted.Render("balance now "+money.Format(now, tok)+" "+tok)+t.Good.Render(" ✓ equals the closing balance"), w, 1))
		default:
			lines = append(lines, ui.Fit(t.Muted.Render("balance now "+money.Format(now, tok)+" "+tok)+t.Warn.Render(" ≠ the closing balance (r reloads)"), w, 1))
		}
	}
	return lines
}

// detailLines are every field of the open entry.
func (m *Model) detailLines() []string {
	l := m.detail.Open
	th := m.s.Styles()
	s := listing.NewSheet(th, m.width)
	s.Title("Ledger entry")
	s.KV("ID", l.ID)
	s.KV("Time", stamp(l.CreatedAt, m.loc(), "2006-01-02 15:04:05"))
	s.KV("Token", l.Token)
	s.KV("Change", signed(l.BalanceChange, l.Token)+" "+l.Token)
	s.KV("Balance after", money.Format(l.FinalBalance, l.Token)+" "+l.Token)
	s.KV("Balance before", money.Format(l.FinalBalance.Sub(l.BalanceChange), l.Token)+" "+l.Token)
	s.KV("Description", l.Description)
	if l.TicketID != "" {
		s.KV("Ticket", l.TicketID+th.Muted.Render("  (t opens it)"))
	}
	return s.Lines
}
