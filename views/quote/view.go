package quote

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
)

// labelW is the width of the labels of the panels.
const labelW = 14

// row is one "label  value" line of a panel.
func (th theme) row(label, value string) string {
	return th.label.Render(padRight(label, labelW)) + " " + value
}

// View implements ui.Screen.
func (m *Screen) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	now := m.s.Now()
	var lines []string
	focus, focusEnd := -1, -1
	switch m.stage {
	case stageForm:
		lines, focus = m.formView()
		// Show the line under the focused one too (its note or error).
		focusEnd = focus + 1
	case stageDetails:
		lines, focus, focusEnd = m.detailsView()
	case stageConfirm, stageSending:
		return m.confirmLayout(now)
	case stageResult:
		lines = m.res.lines(m.th, now, m.w, m.h, m.hints())
	}
	if focus >= 0 {
		m.offset = scrollTo(m.offset, min(focusEnd, len(lines)-1), m.h)
		m.offset = scrollTo(m.offset, focus, m.h)
	}
	if m.offset > len(lines)-m.h {
		m.offset = max(len(lines)-m.h, 0)
	}
	return fit(lines, m.offset, m.w, m.h)
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

// formView is the form and the quote panel, side by side when wide enough.
func (m *Screen) formView() ([]string, int) {
	m.form.setMarkupDenied(m.denied(ui.ActMarkup))
	head := []string{m.th.title.Render("Quote builder") + m.th.dim.Render(" · operating "+m.accountText())}
	if m.info != "" {
		head = append(head, wrapAll([]string{m.th.warn.Render("! " + m.info)}, m.w)...)
	}
	head = append(head, wrapAll([]string{m.th.dim.Render(m.hints())}, m.w)...)
	formW := m.w
	wide := m.w >= 96
	if wide {
		formW = 52
	}
	formLines, focus := m.formLines(formW)
	panel := m.panelLines(map[bool]int{true: m.w - formW - 3, false: m.w}[wide])
	if wide {
		body := sideBySide(formLines, panel, formW, 3)
		if focus >= 0 {
			focus += len(head)
		}
		return append(head, body...), focus
	}
	if m.quote != nil && !m.editing {
		// Narrow: the quote first, it is what the user watches.
		return append(append(head, panel...), append([]string{""}, formLines...)...), -1
	}
	if focus >= 0 {
		focus += len(head)
	}
	return append(append(head, formLines...), append([]string{""}, panel...)...), focus
}

func (m *Screen) formLines(w int) ([]string, int) {
	var out []string
	focus := -1
	for _, f := range m.form.visibleFields() {
		focused := m.editing && f == m.form.focused()
		if focused {
			focus = len(out)
		}
		lines := f.ValueLines(m.th.lines(), focused, 16, w)
		// Notes only under the focused field (and the amount's reading of
		// what was typed), errors always.
		if focused || f.Err != "" || f.ID == fAmount {
			lines = append(lines, f.MessageLines(m.th.lines(), w)...)
		}
		out = append(out, wrapAll(lines, w)...)
	}
	return out, focus
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
	add("Base price", "1 "+q.InputCurrency+" = "+q.BasePrice.String()+" "+q.OutputCurrency)
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
	if HasMarkup(q) {
		add("Markup", money.Format(q.MarkupAmount, q.MarkupCurrency)+" "+q.MarkupCurrency)
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

func (m *Screen) detailsView() (lines []string, first, last int) {
	th := m.th
	now := m.s.Now()
	out := []string{th.title.Render("Ticket details") + th.dim.Render(" · exactly what this quote needs")}
	out = append(out, wrapAll([]string{summary(m.quote)}, m.w)...)
	if m.countdown.Expired(now) {
		out = append(out, wrapAll([]string{th.warn.Render(m.renewalNote())}, m.w)...)
	} else {
		out = append(out, th.row("Quote valid", m.countdown.View(now, max(m.w-labelW-1, 6))))
	}
	for _, n := range m.details.req.Notes {
		out = append(out, wrapAll([]string{th.warn.Render("! " + n)}, m.w)...)
	}
	out = append(out, wrapAll([]string{th.dim.Render(m.hints())}, m.w)...)
	fields, first, last := m.details.render(th, m.w)
	base := len(out)
	out = append(out, fields...)
	return out, base + first, base + last
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
	out = append(out, row("Base price", "1 "+old.InputCurrency+" = "+old.BasePrice.String()+" "+old.OutputCurrency, "1 "+cur.InputCurrency+" = "+cur.BasePrice.String()+" "+cur.OutputCurrency))
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
	k := m.keys
	switch m.stage {
	case stageForm:
		if m.editing {
			return []key.Binding{k.Move, k.Choose, k.GetQuote, k.Done}
		}
		get, requote := k.GetQuote, k.Requote
		if m.quote != nil {
			// With a quote on screen enter continues, as c does: one
			// binding, one hint.
			get = k.Continue
			get.SetEnabled(m.continueDenied() == "")
		}
		switch {
		case m.quote != nil:
		case m.quoteErr != "":
			requote.SetHelp("r", "try again")
		default:
			requote.SetEnabled(false)
		}
		return []key.Binding{k.Edit, get, requote, k.Auto}
	case stageDetails:
		unlock := k.Unlock
		unlock.SetEnabled(m.details != nil && m.details.externalLocked())
		return []key.Binding{k.Move, k.Submit, unlock, k.Back}
	case stageConfirm:
		confirm, cancel := m.confirmBindings()
		requote := k.Requote
		requote.SetEnabled(!m.quoting.Waiting())
		return []key.Binding{confirm, requote, cancel, k.Scroll}
	case stageResult:
		copyK, fund, appr, tick := k.Copy, k.Fund, k.Approvals, k.Tickets
		r := m.res
		// y copies the BR Code only while it is to be paid; after that
		// (and for tickets without one) it copies the ticket's id.
		switch {
		case r == nil:
			copyK.SetEnabled(false)
		case r.copyableBrCode(m.s.Now()):
		case r.ticket != nil:
			copyK.SetHelp("y", "copy the ticket id")
		case r.op != nil:
			copyK.SetHelp("y", "copy the operation id")
		default:
			copyK.SetEnabled(false)
		}
		fund.SetEnabled(m.canFund() == "")
		// Approvals is the approvers' screen: a requester has nothing there.
		appr.SetEnabled(r != nil && r.op != nil && m.denied(ui.ActApprove) == "")
		tick.SetEnabled(r != nil && r.ticket != nil)
		return []key.Binding{copyK, fund, appr, tick, k.NewQuote, k.Scroll}
	}
	return nil
}

// confirmBindings are y and "any other key" as the confirmation offers
// them: a requester's y sends the ticket for approval, and says so.
func (m *Screen) confirmBindings() (confirm, cancel key.Binding) {
	confirm, cancel = m.keys.Confirm, m.keys.Cancel
	if m.requester() {
		confirm.SetHelp("y", m.approvalsText())
	}
	confirm.SetEnabled(m.canConfirm(m.s.Now()) == "")
	return confirm, cancel
}

// hint is one binding as the hint lines show it ("r re-quote"), or ""
// when it is off.
func (m *Screen) hint(b key.Binding) string {
	if !b.Enabled() || b.Help().Key == "" {
		return ""
	}
	return b.Help().Key + " " + b.Help().Desc
}

// hints is the hint line of the stage: its live bindings, as the footer
// has them.
func (m *Screen) hints() string {
	var parts []string
	for _, b := range m.KeyMap() {
		if h := m.hint(b); h != "" {
			parts = append(parts, h)
		}
	}
	return strings.Join(parts, " · ")
}
