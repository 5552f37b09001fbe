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
		// What to press and the seconds left stay pinned at the bottom;
		// the details above scroll.
		body, foot := m.confirmView()
		bodyH := m.h - len(foot)
		if bodyH < 1 {
			return fit(foot, 0, m.w, m.h)
		}
		m.offset = min(m.offset, max(len(body)-bodyH, 0))
		return fit(body, m.offset, m.w, bodyH) + "\n" + fit(foot, 0, m.w, len(foot))
	case stageResult:
		lines = m.res.lines(m.th, now, m.w, m.h)
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
	if m.editing {
		out = append(out, m.th.dim.Render("↑/↓ move · ←/→ choose · enter get quote · esc done"))
	} else {
		out = append(out, m.th.dim.Render("e edit · enter get quote"))
	}
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
		return wrapAll([]string{th.title.Render("Quote"), th.err.Render("✗ " + m.quoteErr), th.dim.Render("fix the form (e) or press r to try again")}, w)
	case q == nil:
		return []string{th.title.Render("Quote"), th.dim.Render("no quote yet: fill the form and press enter")}
	}
	now := m.s.Now()
	out = append(out, th.title.Render("Quote")+th.dim.Render(" · pair "+q.PairName))
	if m.countdown.Expired(now) {
		add("Valid", th.err.Render("✗ expired")+" · r re-quotes")
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
	add("Auto re-quote", auto+" (a)")
	switch why := m.continueDenied(); {
	case why != "":
		out = append(out, th.err.Render("✗ Cannot continue: "+why))
	case m.countdown.Expired(now):
		out = append(out, th.warn.Render("The quote expired: it cannot become a ticket. r re-quotes."))
	default:
		out = append(out, th.ok.Render("c or enter: continue to the ticket"))
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
		out = append(out, th.warn.Render("Quote expired: it is renewed at the confirmation, where you see what changed."))
	} else {
		out = append(out, th.row("Quote valid", m.countdown.View(now, max(m.w-labelW-1, 6))))
	}
	for _, n := range m.details.req.Notes {
		out = append(out, wrapAll([]string{th.warn.Render("! " + n)}, m.w)...)
	}
	out = append(out, th.dim.Render("tab/↑/↓ move · enter next · enter on the last (or ctrl+s): review · esc back"))
	fields, first, last := m.details.render(th, m.w)
	base := len(out)
	out = append(out, fields...)
	return out, base + first, base + last
}

// confirmView is the last look before the ticket is created: the body, and
// the lines that must stay in view (seconds left, what to press, errors).
func (m *Screen) confirmView() (body, foot []string) {
	th := m.th
	now := m.s.Now()
	q := m.quote
	out := []string{th.title.Render("Confirm the ticket") + "  " + m.badge()}
	add := func(label, value string) {
		out = append(out, th.row(label, value))
	}
	add("Account", m.accountText())
	profile := "profile " + nonEmpty(m.s.Profile, "—")
	switch {
	case m.s.Embedded:
		profile = "embedded sandbox"
	case m.s.Profile == "" && m.s.Label != "":
		profile = m.s.Label
	}
	add("Environment", strings.ToUpper(nonEmpty(string(m.s.Env), "sandbox"))+" · "+profile)
	if m.previous != nil {
		out = append(out, "", th.warn.Render("The quote expired and was renewed. Compare before confirming:"))
		out = append(out, compareLines(th, m.previous, q)...)
		out = append(out, "")
	}
	out = append(out, m.amountLines(q)...)
	if b := m.details.beneficiary(); b != nil {
		add("Beneficiary", th.value.Render(b.Title))
		for _, d := range b.Details {
			add("", d)
		}
	}
	r := m.ticketReq
	if in := r.TicketBlockchainInput; in != nil {
		sig := "none (service wallet or transfer)"
		switch {
		case in.Permit != nil:
			sig = "permit"
		case in.Personal != nil:
			sig = "personal signature"
		}
		add("From wallet", in.WalletAddress+" · "+sig)
	}
	if in := r.TicketBrlPixInput; in != nil && (in.RemitterID != "" || in.AdditionalData != "") {
		add("PIX input", strings.TrimSpace("remitter "+nonEmpty(in.RemitterID, "—")+" · "+in.AdditionalData))
	}
	if o := r.TicketBrlPixOutput; o != nil && o.PixMessage != "" {
		add("PIX message", o.PixMessage)
	}
	if o := r.TicketUsdOutput; o != nil {
		add("Rail", strings.TrimSpace("ACH "+o.AchReference))
	}
	if o := r.TicketUsdWireOutput; o != nil {
		add("Rail", strings.TrimSpace("WIRE "+o.WireMessage))
	}
	if o := r.TicketEurSepaOutput; o != nil && o.SepaReference != "" {
		add("SEPA ref.", o.SepaReference)
	}
	if mk := r.TicketMarkupInput; mk != nil {
		add("Markup wallet", mk.MarkupWalletAddress)
	}
	add("External id", r.ExternalID)
	body = wrapAll(out, m.w)
	out = nil
	switch {
	case m.stage == stageSending:
		out = append(out, th.warn.Render("Creating the ticket… (if the connection fails it is looked up by external id, never sent twice)"))
	case m.requoting || m.quoting.Waiting():
		out = append(out, th.warn.Render("The quote expired: getting a new one… nothing can be confirmed meanwhile."))
	case m.countdown.Expired(now):
		out = append(out, th.err.Render("✗ The quote expired: it cannot be confirmed. r re-quotes."))
	default:
		add("Seconds left", m.countdown.View(now, max(m.w-labelW-1, 6)))
		out = append(out, th.value.Render("y: create the ticket")+th.dim.Render(" · any other key: back (default no)"))
	}
	if m.confirmErr != "" {
		out = append(out, th.err.Render("✗ "+m.confirmErr))
	}
	return body, wrapAll(out, m.w)
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

// KeyMap implements ui.Screen: the bindings live in the current stage.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	switch m.stage {
	case stageForm:
		if m.editing {
			return []key.Binding{k.Next, k.Prev, k.Choose, k.GetQuote, k.Back}
		}
		cont, get := k.Continue, k.GetQuote
		cont.SetEnabled(m.quote != nil && m.continueDenied() == "")
		if m.quote != nil {
			// With a quote on screen enter continues, like c.
			get.SetHelp("enter", "continue")
			get.SetEnabled(cont.Enabled())
		}
		return []key.Binding{k.Edit, get, k.Requote, k.Auto, cont}
	case stageDetails:
		return []key.Binding{k.Next, k.Prev, k.Submit, k.Back}
	case stageConfirm:
		return []key.Binding{k.Confirm, k.Requote, k.Cancel, k.Scroll}
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
		appr.SetEnabled(r != nil && r.op != nil)
		tick.SetEnabled(r != nil && r.ticket != nil)
		return []key.Binding{copyK, fund, appr, tick, k.NewQuote, k.Scroll}
	}
	return nil
}
