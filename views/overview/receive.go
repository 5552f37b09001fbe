package overview

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/validate"
)

// chainWidth is the chain column of the deposit wallets.
const chainWidth = 12

// receiveLines are how the account receives money: its static PIX key and
// BR Code, and its deposit wallet on each chain, in w cells.
func (m *Screen) receiveLines(w int) []string {
	t := m.s.Styles()
	lines := []string{t.Title.Render("Receive") + m.infoFresh.Note(t, m.s.Now())}
	switch {
	case m.infoErr != nil && m.info == nil:
		return append(lines, ui.Fit(t.Error.Render("✗ "+ui.ErrorText(m.infoErr)), w, 1), t.Muted.Render("r retries"))
	case m.info == nil:
		return append(lines, t.Muted.Render("loading…"))
	}
	in := m.info
	if in.PixKey != "" {
		lines = append(lines, ui.Fit("  "+t.Label.Render(ui.PadRight("PIX key", chainWidth))+t.Value.Render(in.PixKey), w, 1))
	} else {
		lines = append(lines, "  "+t.Muted.Render("no PIX key"))
	}
	if in.BrCode != "" {
		lines = append(lines, ui.Fit("  "+t.Label.Render(ui.PadRight("BR Code", chainWidth))+t.Muted.Render("p shows the QR · c copies"), w, 1))
	}
	if m.w < twoColumns {
		// Stacked; in two columns the TED details go in the left one
		// (tedColumn), which has room under the access block.
		lines = append(lines, m.bankLines(w)...)
	}
	if len(in.Wallets) == 0 {
		return append(lines, "  "+t.Muted.Render("no deposit wallet"))
	}
	for _, wl := range in.Wallets {
		chain := wl.Chain
		if chain == "EVM" {
			// One address serves every EVM chain of the catalogue.
			chain = "EVM chains"
		}
		addr := displayAddress(wl.WalletAddress)
		label := "  " + t.Label.Render(ui.PadRight(chain, chainWidth))
		if 2+chainWidth+len(addr) <= w {
			lines = append(lines, label+t.Value.Render(addr))
			continue
		}
		// The address goes whole under its chain when the line is short.
		lines = append(lines, label, ui.Fit("    "+t.Value.Render(addr), w, 1))
	}
	return lines
}

// displayAddress is an EVM address with its EIP-55 checksum (the form a
// payer's wallet checks); any other address as the service sent it.
func displayAddress(a string) string {
	if strings.HasPrefix(a, "0x") {
		if sum, _, err := validate.EVMAddress(a); err == nil {
			return sum
		}
	}
	return a
}

// limitRow is one line of the limits block.
type limitRow struct {
	currency, kind    string
	used, left, limit decimal.Decimal
}

// limitRows are the month's limits worth showing: for each currency the
// account holds or has used this month, what may still go out on the
// rails it moves on (fiat rails for fiat, chains for tokens: what a payout
// runs into), and any other direction it has used.
func (m *Screen) limitRows() []limitRow {
	if m.limits == nil {
		return nil
	}
	var rows []limitRow
	for _, l := range m.limits.LimitInfo.Limits {
		u := l.UsedLimit
		_, held := m.balances[l.Currency]
		usedAny := !(u.UsedFiatIn.IsZero() && u.UsedFiatOut.IsZero() && u.UsedChainIn.IsZero() && u.UsedChainOut.IsZero())
		if !held && !usedAny {
			continue
		}
		token := money.IsToken(l.Currency)
		for _, k := range []struct {
			kind       string
			max, used  decimal.Decimal
			ownRailSet bool
		}{
			{"fiat in", l.MaxFiatIn, u.UsedFiatIn, false},
			{"fiat out", l.MaxFiatOut, u.UsedFiatOut, !token},
			{"chain in", l.MaxChainIn, u.UsedChainIn, false},
			{"chain out", l.MaxChainOut, u.UsedChainOut, token},
		} {
			if !k.ownRailSet && k.used.IsZero() {
				continue
			}
			rows = append(rows, limitRow{currency: l.Currency, kind: k.kind, used: k.used, limit: k.max,
				left: decimal.Max(decimal.Zero, k.max.Sub(k.used))})
		}
	}
	return rows
}

// limitsLines are the month's limits, used and left, in w cells.
func (m *Screen) limitsLines(w int) []string {
	t := m.s.Styles()
	title := t.Title.Render("Limits this month")
	switch {
	case m.limitsErr != nil && m.limits == nil:
		return []string{title, ui.Fit(t.Error.Render("✗ "+ui.ErrorText(m.limitsErr)), w, 1)}
	case m.limits == nil:
		return []string{title, t.Muted.Render("loading…")}
	}
	info := m.limits.LimitInfo
	var lines []string
	if len(info.Limits) > 0 {
		u := info.Limits[0].UsedLimit
		if u.Year > 0 && u.Month >= 1 && u.Month <= 12 {
			title += t.Muted.Render(" · " + monthNames[u.Month-1] + " " + strconv.Itoa(u.Year))
		}
	}
	lines = append(lines, title+m.limitsFresh.Note(t, m.s.Now()))
	if r := m.railsLine(w); r != "" {
		lines = append(lines, r)
	}
	if info.Blocked {
		lines = append(lines, ui.Fit("  "+t.Bad.Render("BLOCKED: the service accepts no ticket from this account"), w, 1))
	}
	rows := m.limitRows()
	if len(rows) == 0 {
		return append(lines, "  "+t.Muted.Render("no limit in use"))
	}
	usedW, leftW := len("used"), len("left")
	for _, r := range rows {
		usedW = max(usedW, len(money.Format(r.used, r.currency)))
		leftW = max(leftW, len(money.Format(r.left, r.currency)))
	}
	lines = append(lines, t.Muted.Render(ui.Fit("  "+strings.Repeat(" ", 6+10)+ui.PadLeft("used", usedW)+"  "+ui.PadLeft("left", leftW), w, 1)))
	for _, r := range rows {
		left := t.Amount.Render(ui.PadLeft(money.Format(r.left, r.currency), leftW))
		if r.left.IsZero() {
			left = t.Bad.Render(ui.PadLeft(money.Format(r.left, r.currency), leftW))
		} else if r.limit.IsPositive() && r.left.Mul(decimal.NewFromInt(10)).LessThan(r.limit) {
			left = t.Warn.Render(ui.PadLeft(money.Format(r.left, r.currency), leftW))
		}
		lines = append(lines, ui.Fit("  "+t.Label.Render(ui.PadRight(r.currency, 6))+t.Muted.Render(ui.PadRight(r.kind, 10))+
			t.Value.Render(ui.PadLeft(money.Format(r.used, r.currency), usedW))+"  "+left, w, 1))
	}
	return lines
}

// railsLine says which fiat rails the account may use ("" until the
// service said): the open ones, then the locked ones, which the Quote
// refuses before asking for a price.
func (m *Screen) railsLine(w int) string {
	t := m.s.Styles()
	switch {
	case m.rails == nil && m.railsErr != nil:
		return ui.Fit("  "+t.Label.Render(ui.PadRight("Rails", 6))+t.Error.Render("✗ "+ui.ErrorText(m.railsErr)), w, 1)
	case m.rails == nil:
		return ""
	}
	var open, locked []string
	for _, c := range api.FiatRails {
		if m.rails.Unlocked(c) {
			open = append(open, c)
		} else {
			locked = append(locked, c)
		}
	}
	line := "  " + t.Label.Render(ui.PadRight("Rails", 6))
	if len(open) > 0 {
		line += t.Value.Render("unlocked " + strings.Join(open, " "))
	} else {
		line += t.Bad.Render("no fiat rail unlocked")
	}
	if len(locked) > 0 {
		line += t.Muted.Render(" · ") + t.Bad.Render("locked "+strings.Join(locked, " "))
	}
	return ui.Fit(line, w, 1)
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// qrView is the account's BR Code as a QR code filling w×h cells: the
// static one (any amount), or the one the service made for the amount
// asked for; with the key it pays and what the keys do.
func (m *Screen) qrView(w, h int) string {
	t := m.s.Styles()
	in := m.info
	title := t.Title.Render("Receive BRL by PIX") + t.Muted.Render(" · "+m.accountShort())
	if m.qrAmount != "" {
		title += t.Amount.Render(" · " + money.Format(decimal.RequireFromString(m.qrAmount), "BRL") + " BRL")
	}
	head := []string{title}
	if in.PixKey != "" {
		head = append(head, t.Label.Render("key ")+t.Value.Render(in.PixKey))
	}
	what := "scan to pay any amount"
	if m.qrAmount != "" {
		what = "scan to pay this amount"
	}
	foot := t.Muted.Render(what + " · a amount · c copies the code · esc closes")
	var body string
	switch code := m.shownCode(); {
	case m.codeErr != nil:
		body = t.Error.Render("✗ " + ui.ErrorText(m.codeErr))
	case code == "":
		body = t.Muted.Render("asking the service for the code…")
	default:
		qr, err := widget.QRFit(code, w, h-len(head)-1)
		if err != nil {
			qr = t.Warn.Render(ui.ErrorText(err))
		}
		body = qr
	}
	return ui.Fit(strings.Join(append(append(head, body), foot), "\n"), w, h)
}
