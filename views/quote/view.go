package quote

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
)

// labelW is the width of the labels of the panels.
const labelW = 14

// row is one "label  value" line of a panel.
func (th theme) row(label, value string) string {
	return th.label.Render(padRight(label, labelW)) + " " + value
}

// rowIn is "label  value" in w cells, the label lw wide, the value
// continuing under itself (never back at the left edge) when it is long:
// an id cut in two still reads as one.
func (th theme) rowIn(label string, lw int, value string, w int) []string {
	head := th.label.Render(padRight(label, lw)) + " "
	var out []string
	for i, l := range wrap(value, max(w-lw-1, 4)) {
		if i > 0 {
			head = strings.Repeat(" ", lw+1)
		}
		out = append(out, head+l)
	}
	return out
}

// View implements ui.Screen: the stage's own view.
func (m *Screen) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	switch m.stage {
	case stageDetails:
		return m.details.View()
	case stageConfirm, stageSending:
		return m.confirm.View()
	case stageResult:
		return m.res.View()
	}
	return m.entry.View()
}

// scrolled fits lines to w×h from offset, moved as little as possible to
// keep the lines first..last (the focused field; -1: none) in view.
func scrolled(lines []string, offset *int, first, last, w, h int) string {
	if first >= 0 {
		*offset = scrollTo(*offset, min(last, len(lines)-1), h)
		*offset = scrollTo(*offset, first, h)
	}
	if *offset > len(lines)-h {
		*offset = max(len(lines)-h, 0)
	}
	return fit(lines, *offset, w, h)
}

func (m *Screen) accountText() string {
	if m.s.Account.Main() {
		name := m.s.Account.Name
		for _, a := range m.s.Accounts {
			if name == "" && a.MainAccountID == "" {
				name = a.Name
			}
		}
		return nonEmpty(name, "Main account") + " (main)"
	}
	return nonEmpty(m.s.Account.Name, "sub-account") + " (" + m.s.Account.ID.String() + ")"
}

func (m *Screen) badge() string {
	if m.s.Env == ui.EnvProduction {
		return m.th.badgeProduction.Render(" PRODUCTION ")
	}
	return m.th.badgeSandbox.Render(" " + strings.ToUpper(nonEmpty(string(m.s.Env), "sandbox")) + " ")
}

// View is the form and the quote panel, side by side when wide enough.
func (e *entry) View() string {
	m := e.m
	e.setAccess(m.denied(payment.Needs{Markup: true}))
	th := m.th
	head := []string{th.title.Render("Quote builder") + th.dim.Render(" · operating "+m.accountText())}
	if e.info != "" {
		head = append(head, wrapAll([]string{th.warn.Render("! " + e.info)}, e.w)...)
	}
	head = append(head, wrapAll([]string{th.dim.Render(hintsOf(e.KeyMap()))}, e.w)...)
	formW := e.w
	wide := e.w >= 96
	if wide {
		formW = 52
	}
	formLines, first, last := e.form.Lines(formW)
	formLines = wrapAll(formLines, formW)
	panelW := e.w
	if wide {
		panelW = e.w - formW - 3
	}
	panel := m.panelLines(panelW)
	var lines []string
	switch {
	case wide:
		lines = append(head, sideBySide(formLines, panel, formW, 3)...)
	case m.quote != nil && !e.editing:
		// Narrow: the quote first, it is what the user watches.
		lines = append(append(head, panel...), append([]string{""}, formLines...)...)
		first = -1
	default:
		lines = append(append(head, formLines...), append([]string{""}, panel...)...)
	}
	if first >= 0 {
		first, last = first+len(head), last+len(head)
	}
	return scrolled(lines, &e.offset, first, last, e.w, e.h)
}

// panelLines is the quote as the service gave it.
func (m *Screen) panelLines(w int) []string {
	th := m.th
	var out []string
	add := func(label, value string) {
		out = append(out, th.row(label, value))
	}
	q := m.quote
	switch {
	case q == nil && m.quoting.Waiting():
		return []string{th.title.Render("Quote"), th.dim.Render("getting a quote…")}
	case q == nil && m.quoteErr != "":
		return wrapAll([]string{th.title.Render("Quote"), th.err.Render("✗ " + m.quoteErr)}, w)
	case q == nil:
		return []string{th.title.Render("Quote"), th.dim.Render("no quote yet")}
	}
	now := m.s.Now()
	out = append(out, th.title.Render("Quote")+th.dim.Render(" · pair "+q.PairName))
	if m.countdown.Expired(now) {
		add("Valid", th.err.Render("✗ expired"))
	} else {
		add("Valid", m.countdown.View(now, max(w-labelW-1, 6)))
	}
	out = append(out, m.amountLines(q)...)
	if m.quoting.Waiting() {
		out = append(out, th.dim.Render("re-quoting…"))
	}
	if m.quoteErr != "" {
		out = append(out, th.err.Render("✗ "+m.quoteErr))
	}
	auto := "off"
	if m.auto {
		auto = "on: a new quote when this one expires"
	}
	add("Auto re-quote", auto)
	switch why := m.continueDenied(); {
	case why != "":
		out = append(out, th.err.Render("✗ Cannot continue: "+why))
	case m.countdown.Expired(now):
		out = append(out, th.warn.Render("The quote expired: it cannot become a ticket."))
	default:
		out = append(out, th.ok.Render("✓ ready to become a ticket"))
	}
	return wrapAll(out, w)
}

// amountLines shows both amounts, the base price, every fee and markup.
func (m *Screen) amountLines(q *api.Quote) []string {
	th := m.th
	var out []string
	add := func(label, value string) {
		out = append(out, th.row(label, value))
	}
	add("You send", th.value.Render(money.Format(q.InputAmount, q.InputCurrency)+" "+q.InputCurrency)+" via "+q.InputPaymentMethod)
	add("They receive", th.value.Render(money.Format(q.OutputAmount, q.OutputCurrency)+" "+q.OutputCurrency)+" via "+q.OutputPaymentMethod)
	// The price of the market pair the service names, both ways (§8.1),
	// and what one unit sent buys once every fee is paid.
	price := payment.QuotePrice(q)
	add("Price", price.String())
	if price.Base != price.Quote {
		add("", th.dim.Render(price.Inverse().String()))
	}
	if e := payment.Effective(q); e != "" {
		add("After fees", e)
	}
	if len(q.AppliedFees) == 0 {
		add("Fees", "none")
	}
	for i, f := range q.AppliedFees {
		label := ""
		if i == 0 {
			label = "Fees"
		}
		add(label, padRight(f.Type, 15)+" "+money.Format(f.Amount, f.Currency)+" "+f.Currency)
	}
	if payment.HasMarkup(q) {
		add("Markup", money.Format(q.MarkupAmount.Decimal, q.MarkupCurrency)+" "+q.MarkupCurrency)
	}
	if q.BlockchainSendMethod != "" {
		add("Send method", q.BlockchainSendMethod)
	}
	if q.InputThirdParty || q.OutputThirdParty {
		add("Third party", fmt.Sprintf("input %s · output %s", yesNo(q.InputThirdParty), yesNo(q.OutputThirdParty)))
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// View is the details under the quote they are for: its summary, the
// seconds left, what the quote needs said, then the fields.
func (d *details) View() string {
	m := d.m
	th := m.th
	now := m.s.Now()
	out := []string{th.title.Render("Ticket details") + th.dim.Render(" · exactly what this quote needs")}
	out = append(out, wrapAll([]string{summary(m.quote)}, d.w)...)
	if m.countdown.Expired(now) {
		out = append(out, wrapAll([]string{th.warn.Render(m.renewalNote())}, d.w)...)
	} else {
		out = append(out, th.row("Quote valid", m.countdown.View(now, max(d.w-labelW-1, 6))))
	}
	for _, n := range d.need.Notes {
		out = append(out, wrapAll([]string{th.warn.Render("! " + n)}, d.w)...)
	}
	if e := d.form.FormError(); e != "" {
		out = append(out, wrapAll([]string{th.err.Render("✗ " + e)}, d.w)...)
	}
	out = append(out, wrapAll([]string{th.dim.Render(hintsOf(d.KeyMap()))}, d.w)...)
	fields, first, last := d.form.Lines(d.w)
	base := len(out)
	out = append(out, wrapAll(fields, d.w)...)
	if first >= 0 {
		first, last = first+base, last+base
	}
	return scrolled(out, &d.offset, first, last, d.w, d.h)
}

// summary is the one-line description of a quote ("500.00 BRL PIX →
// 497.500000 BRLA POLYGON").
func summary(q *api.Quote) string {
	return money.Format(q.InputAmount, q.InputCurrency) + " " + q.InputCurrency + " " + q.InputPaymentMethod + " → " +
		money.Format(q.OutputAmount, q.OutputCurrency) + " " + q.OutputCurrency + " " + q.OutputPaymentMethod
}

// compareLines puts an expired quote and its renewal side by side.
func compareLines(th theme, old, cur *api.Quote) []string {
	row := func(label, a, b string) string {
		mark := "  "
		if a != b {
			mark = th.warn.Render("≠ ")
		}
		return mark + th.label.Render(padRight(label, 12)) + " " + padRight(a, 28) + " " + b
	}
	out := []string{"  " + padRight("", 12) + " " + th.dim.Render(padRight("Before", 28)) + " " + th.dim.Render("Now")}
	out = append(out, row("You send", money.Format(old.InputAmount, old.InputCurrency)+" "+old.InputCurrency, money.Format(cur.InputAmount, cur.InputCurrency)+" "+cur.InputCurrency))
	out = append(out, row("They receive", money.Format(old.OutputAmount, old.OutputCurrency)+" "+old.OutputCurrency, money.Format(cur.OutputAmount, cur.OutputCurrency)+" "+cur.OutputCurrency))
	out = append(out, row("Price", payment.QuotePrice(old).String(), payment.QuotePrice(cur).String()))
	ot, ct := feeTotals(old), feeTotals(cur)
	out = append(out, row("Fees", ot, ct))
	return out
}

// feeTotals sums the fees per currency ("3.50 BRL").
func feeTotals(q *api.Quote) string {
	sums := map[string]decimal.Decimal{}
	var order []string
	for _, f := range q.AppliedFees {
		if _, ok := sums[f.Currency]; !ok {
			order = append(order, f.Currency)
		}
		sums[f.Currency] = sums[f.Currency].Add(f.Amount)
	}
	if len(order) == 0 {
		return "none"
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = money.Format(sums[c], c) + " " + c
	}
	return strings.Join(parts, " + ")
}

// KeyMap implements ui.Screen: the bindings live in the current stage,
// and only those (a key that would do nothing now is not offered). The
// footer and the hint lines inside the screen both come from here.
func (m *Screen) KeyMap() []key.Binding {
	switch m.stage {
	case stageForm:
		return m.entry.KeyMap()
	case stageDetails:
		return m.details.KeyMap()
	case stageConfirm:
		return m.confirm.KeyMap()
	case stageResult:
		if m.res != nil {
			return m.res.KeyMap()
		}
	}
	return nil
}

// hint is one binding as the hint lines show it ("r re-quote"), or ""
// when it is off.
func hint(b key.Binding) string {
	if !b.Enabled() || b.Help().Key == "" {
		return ""
	}
	return b.Help().Key + " " + b.Help().Desc
}

// hintsOf is a hint line: the live bindings, as the footer has them.
func hintsOf(bs []key.Binding) string {
	var parts []string
	for _, b := range bs {
		if h := hint(b); h != "" {
			parts = append(parts, h)
		}
	}
	return strings.Join(parts, " · ")
}

// hints is the hint line of the stage.
func (m *Screen) hints() string { return hintsOf(m.KeyMap()) }
