package quote

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// narrowW is the width under which the pinned summary uses short labels
// and folds the environment and the seconds left into other lines.
const narrowW = 60

// footLine is one line of the pinned part of the confirmation; drop is
// the order in which lines give way when the screen is too short (0: never).
type footLine struct {
	text string
	drop int
}

// confirmFrame is the confirmation laid out for its window: the lines
// that scroll (body), the summary pinned above the y line (pinned), and
// the height left to the body (bodyH; all of it fits when fits is set).
type confirmFrame struct {
	body   []string
	pinned []string
	bodyH  int
	fits   bool
}

// frame lays the confirmation out at now. Lines of the summary that give
// way on a short window join the end of the body, where scrolling shows
// them: nothing the confirmation says is out of reach at any size.
func (c *confirmation) frame(now time.Time) confirmFrame {
	body := c.body()
	foot := c.foot(now)
	h := c.h
	fits := len(body)+len(foot) <= h
	room := h - 1 // a line for the marker
	if fits {
		room = h
	}
	// Lines give way, least needed first, until the summary fits.
	var moved []string
	for len(foot) > room {
		worst := -1
		for i, l := range foot {
			if l.drop > 0 && (worst < 0 || l.drop > foot[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		if foot[worst].drop != dropCountdown {
			// The seconds left are on the y line too; the rest is read
			// by scrolling.
			moved = append(moved, foot[worst].text)
		}
		foot = append(foot[:worst], foot[worst+1:]...)
	}
	pinned := make([]string, 0, len(foot)+1)
	for _, l := range foot {
		pinned = append(pinned, l.text)
	}
	if fits {
		return confirmFrame{body: body, pinned: pinned, bodyH: len(body), fits: true}
	}
	for i := len(moved) - 1; i >= 0; i-- {
		body = append(body, moved[i])
	}
	// A window so short that the summary leaves the details no line:
	// the summary's first rows scroll with them, the y line stays.
	for h-len(pinned)-1 < 1 && len(pinned) > 1 && h > 1 {
		body = append(body, pinned[0])
		pinned = pinned[1:]
	}
	return confirmFrame{body: body, pinned: pinned, bodyH: max(h-len(pinned)-1, 0)}
}

// dropCountdown is the drop order of the seconds-left row: the first to
// give way, and the one not kept for scrolling (it changes every second,
// and the y line says it too).
const dropCountdown = 5

// shown scrolls the body within its bounds and records the lines on
// screen now (see unread).
func (c *confirmation) shown(now time.Time) {
	f := c.frame(now)
	if f.fits {
		c.offset = 0
	}
	c.offset = max(min(c.offset, len(f.body)-f.bodyH), 0)
	c.read.Show(f.body[c.offset:min(c.offset+f.bodyH, len(f.body))])
}

// unread is how many lines of the confirmation have not been on screen:
// y waits until there are none.
func (c *confirmation) unread(now time.Time) int {
	if c.measuring {
		return 0 // asked by the y line while the frame is measured
	}
	c.measuring = true
	defer func() { c.measuring = false }()
	return c.read.Unread(c.frame(now).body)
}

// View draws the confirmation: the details scroll at the top, and the
// summary of what moves (amounts, who receives and where, the account, the
// environment, the seconds left) stays pinned directly above the y line at
// every size, with a marker when some of the details are out of view.
func (c *confirmation) View() string {
	m := c.m
	f := c.frame(m.s.Now())
	h := c.h
	if f.fits {
		return fit(append(f.body, f.pinned...), 0, c.w, h)
	}
	c.offset = min(c.offset, max(len(f.body)-f.bodyH, 0))
	marker := m.th.dim.Render("┄ more ↓ · ↓/PgDn/space scroll")
	if c.offset+f.bodyH >= len(f.body) {
		marker = m.th.dim.Render("┄ more ↑ · ↑/PgUp scroll")
	}
	pinned := append([]string{marker}, f.pinned...)
	if len(pinned) > h {
		pinned = pinned[len(pinned)-h:] // the y line is the last to go
	}
	if f.bodyH == 0 {
		return fit(pinned, 0, c.w, h)
	}
	return fit(f.body, c.offset, c.w, f.bodyH) + "\n" + fit(pinned, 0, c.w, len(pinned))
}

// body is everything the summary does not say: the fees, the comparison
// after a renewal, who sends, the reference, the markup wallet, the
// external id.
func (c *confirmation) body() []string {
	m := c.m
	th := m.th
	q := m.quote
	in := c.in
	out := []string{th.title.Render("Confirm the ticket") + "  " + m.badge()}
	add := func(label, value string) {
		out = append(out, th.row(label, value))
	}
	if c.previous != nil {
		out = append(out, th.warn.Render("The quote was renewed (≠ marks what changed). Compare before confirming:"))
		out = append(out, compareLines(th, c.previous, q)...)
	}
	out = append(out, m.amountLines(q)[2:]...)
	if b := c.beneficiary; b != nil {
		// What the pinned summary does not already say about them.
		name, where := destination(b, in)
		label := "On record" // the summary below names the beneficiary; these are the rest of its record
		for _, d := range b.Details {
			if d != where && !strings.HasSuffix(name, " · "+d) {
				add(label, d)
				label = ""
			}
		}
	}
	need := payment.Required(q)
	if need.Needs(payment.BlockChainInput) {
		sig := "none (service wallet or transfer)"
		switch {
		case in.From.Permit != nil:
			sig = "permit"
		case in.From.Personal != nil:
			sig = "personal signature"
		}
		add("From wallet", in.From.Wallet+" · "+sig)
	}
	if f := in.From; need.Needs(payment.BlockPixInput) && (f.RemitterID != "" || f.AdditionalData != "") {
		add("PIX input", strings.TrimSpace("remitter "+nonEmpty(f.RemitterID, "—")+" · "+f.AdditionalData))
	}
	if r := need.Rail; r.Reference != "" && in.Reference != "" && in.Pay.Kind != payment.ToBrCode {
		add(r.ReferenceLabel, in.Reference)
	}
	if in.Markup.Wallet != "" {
		add("Markup wallet", in.Markup.Wallet)
	}
	add("External id", in.ExternalID)
	return wrapAll(out, c.w)
}

// foot is the pinned summary and the y line.
func (c *confirmation) foot(now time.Time) []footLine {
	m := c.m
	th := m.th
	narrow := c.w < narrowW
	lw := labelW
	if narrow {
		lw = 6
	}
	var out []footLine
	// row wraps a value under itself; cut keeps it to one line.
	row := func(label, value string, drop int, cut bool) {
		head := th.label.Render(padRight(label, lw)) + " "
		valueW := max(c.w-lw-1, 4)
		if cut {
			out = append(out, footLine{head + padRight(value, valueW), drop})
			return
		}
		for i, v := range strings.Split(ansi.Wrap(value, valueW, ""), "\n") {
			if i > 0 {
				head = strings.Repeat(" ", lw+1)
			}
			out = append(out, footLine{head + v, drop})
		}
	}
	label := func(wide, short string) string {
		if narrow {
			return short
		}
		return wide
	}
	q := m.quote
	changed := func(label string, before, now string) string {
		if c.previous != nil && before != now {
			return th.warn.Render("≠") + label
		}
		return label
	}
	send := money.Format(q.InputAmount, q.InputCurrency) + " " + q.InputCurrency
	get := money.Format(q.OutputAmount, q.OutputCurrency) + " " + q.OutputCurrency
	var sendBefore, getBefore string
	if p := c.previous; p != nil {
		sendBefore = money.Format(p.InputAmount, p.InputCurrency) + " " + p.InputCurrency
		getBefore = money.Format(p.OutputAmount, p.OutputCurrency) + " " + p.OutputCurrency
	}
	via := " via "
	if narrow {
		via = " "
	}
	row(changed(label("You send", "Send"), sendBefore, send), th.value.Render(send)+via+q.InputPaymentMethod, 0, false)
	row(changed(label("They receive", "Get"), getBefore, get), th.value.Render(get)+via+q.OutputPaymentMethod, 0, false)
	name, where := destination(c.beneficiary, c.in)
	switch {
	case name != "" || where != "":
		row(label("Beneficiary", "To"), th.value.Render(nonEmpty(name, "—")), 0, true)
		if where != "" {
			row("", where, 0, false)
		}
	case c.in.Pay.Kind == payment.ToBalance:
		row(label("Beneficiary", "To"), "the operated account's balance", 0, true)
	}
	if h, ok := c.holderText(); ok {
		row("Holder", h, 0, c.holder.Holder != nil) // a failure is read whole
	}
	env := strings.ToUpper(nonEmpty(string(m.s.Env), "sandbox"))
	if narrow {
		acct := nonEmpty(m.s.Account.Name, "sub-account")
		if m.s.Account.Main() {
			acct = strings.TrimSuffix(m.accountText(), " (main)")
		}
		row("Acct", env+" · "+acct, 3, true)
	} else {
		row("Account", m.accountText(), 2, true)
		profile := "profile " + nonEmpty(m.s.Profile, "—")
		switch {
		case m.s.Embedded:
			profile = "embedded sandbox"
		case m.s.Profile == "" && m.s.Label != "":
			profile = m.s.Label
		}
		row("Environment", env+" · "+profile, 4, true)
	}
	if w := c.limitWarning(); w != "" {
		for _, l := range wrap("! "+w, max(c.w, 1)) {
			out = append(out, footLine{th.warn.Render(l), 1})
		}
	}
	live := !m.countdown.Expired(now)
	if live && !narrow && m.stage != stageSending {
		left := m.countdown.View(now, max(c.w-lw-1, 6))
		if m.auto {
			left += th.dim.Render(" · renews itself (auto re-quote on)")
		}
		row("Seconds left", left, dropCountdown, true)
	}
	for _, l := range wrap(c.yLine(now, narrow), max(c.w, 1)) {
		out = append(out, footLine{l, 0})
	}
	if c.err != "" {
		for _, l := range wrap("✗ "+c.err, max(c.w, 1)) {
			out = append(out, footLine{th.err.Render(l), 0})
		}
	}
	return out
}

// yLine says what y does now, from the same bindings as the footer, or
// why it does nothing yet.
func (c *confirmation) yLine(now time.Time, narrow bool) string {
	m := c.m
	th := m.th
	switch {
	case m.stage == stageSending:
		return th.warn.Render("Creating the ticket… (if the connection fails it is looked up by external id, never sent twice)")
	case m.requoting || m.quoting.Waiting():
		return th.warn.Render("Getting a new quote… nothing can be confirmed meanwhile.")
	case m.countdown.Expired(now):
		if m.auto {
			return th.warn.Render("The quote expired: renewing it (auto re-quote on)…")
		}
		return th.err.Render("✗ The quote expired: it cannot be confirmed.") + " " + hint(m.keys.Requote) + th.dim.Render(" · any other key: back")
	case !c.armed(now):
		return th.warn.Render("The quote was just renewed: y is held for a moment, read the numbers first.")
	case c.holder.Missing:
		return th.err.Render("✗ This PIX key has no holder: the ticket cannot be confirmed.") + th.dim.Render(" · any other key: back")
	case c.holding.Waiting():
		return th.dim.Render("y waits for the PIX directory's answer… · any other key: back")
	case c.conflict:
		return th.err.Render("✗ Not sent: the external id names another payment.") + th.dim.Render(" · any other key: back to change it")
	}
	if n := c.unread(now); n > 0 {
		if narrow {
			line := th.warn.Render(fmt.Sprintf("↓ %s to read before y", plural(n, "line")))
			if more := widget.FormatRemaining(m.countdown.Remaining(now)) + " left"; widthOf(line)+3+len(more) <= c.w {
				line += th.dim.Render(" · " + more)
			}
			return line
		}
		return th.warn.Render(fmt.Sprintf("↓ %s to read before y", plural(n, "more line"))) + th.dim.Render(" · any other key: back")
	}
	confirm, cancel := c.bindings()
	line := th.value.Render(confirm.Help().Key + ": " + confirm.Help().Desc)
	if narrow {
		// The seconds left share the y line, then "no" when it fits.
		for _, more := range []string{widget.FormatRemaining(m.countdown.Remaining(now)) + " left", "other key: no"} {
			if widthOf(line)+3+len(more) <= c.w {
				line += th.dim.Render(" · " + more)
			}
		}
		return line
	}
	return line + th.dim.Render(" · "+cancel.Help().Desc)
}

// renewalNote is what the details step says about a quote that expired
// there: whether the confirmation renews it by itself.
func (m *Screen) renewalNote() string {
	if m.auto {
		return "Quote expired: the confirmation renews it (auto re-quote on) and shows what changed."
	}
	return "Quote expired: at the confirmation press r for a new one (auto re-quote is off)."
}

// learnApprovals keeps the requester's count once an operation was parked.
func (m *Screen) learnApprovals(op *api.Operation) {
	if op != nil && op.MinApprovals > 0 {
		m.minApprovals = op.MinApprovals
	}
}
