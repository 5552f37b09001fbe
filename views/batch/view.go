package batch

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	pay "github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
)

// View implements ui.Screen: exactly w×h cells.
func (m *Screen) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	st := m.s.Styles()
	var lines []string
	add := func(s ...string) { lines = append(lines, s...) }
	env := strings.ToUpper(string(m.s.Env))
	narrow := m.w < narrowWidth
	if narrow {
		// Where the money comes from stays whole: the foot does not repeat it.
		for i, l := range strings.Split(ansi.Wrap(env+" · "+m.s.AccountName(), max(m.w, 1), ""), "\n") {
			if i == 0 {
				l = st.Title.Render(l)
			}
			add(l)
		}
	} else {
		add(st.Title.Render("Batch payouts")+"  "+env+" · "+m.s.AccountName(), "")
	}
	if m.typing {
		add(m.input.View(), "enter reads and checks the file · esc cancels")
	} else if m.path != "" {
		line := "File: " + m.path
		if narrow {
			line = "File: " + filepath.Base(m.path)
			if m.phase == reviewing && m.plan != nil {
				line += fmt.Sprintf(" · %d to pay of %d", m.plan.Count(pay.StateNew), len(m.plan.Rows))
			}
		}
		add(line)
	}
	// Sentences wrap to the width; only the review's rows are cut.
	say := func(s ...string) {
		for _, l := range s {
			add(strings.Split(ansi.Wrap(l, max(m.w, 1), ""), "\n")...)
		}
	}
	switch m.phase {
	case picking:
		if m.err != nil {
			say("", st.ToastErr.Render(ui.ErrorText(m.err)))
		}
		if !m.typing {
			say("", "Press o to open a CSV of payouts (tesouro batch template prints one).",
				"Every row is checked and priced before anything is paid; you confirm once.")
		}
	case checking:
		say("", "Checking and pricing every row…")
	case reviewing:
		lines = append(lines, m.review(len(lines))...)
	case running, finished:
		say(m.progress()...)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.w, "…")
	}
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	for len(lines) < m.h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if pad := m.w - ansi.StringWidth(l); pad > 0 {
			lines[i] = l + strings.Repeat(" ", pad)
		}
	}
	return strings.Join(lines, "\n")
}

// narrowWidth is the width below which the review is compacted: its foot
// says the totals in short lines without repeating the account (the title
// line names it), and the path shows only the file's name.
const narrowWidth = 60

// review lists the rows (scrolled to fit) above the totals, account and
// environment, which always stay visible. The rows' columns fit the width
// (see reviewColumns): amounts are never cut.
func (m *Screen) review(used int) []string {
	narrow := m.w < narrowWidth
	foot := m.reviewFoot(narrow)
	room := max(2, m.h-used-len(foot))
	if !narrow {
		room = max(2, room-1) // a spare line, as the wide view has always had
	}
	return append(m.reviewRows(room), foot...)
}

// reviewFoot is what the review says under the rows, wrapped to the
// width: the problems, the counts and totals, the account and environment
// (wide only: narrow, the title line names them), and what c does.
func (m *Screen) reviewFoot(narrow bool) []string {
	p := m.plan
	st := m.s.Styles()
	var foot []string
	if !narrow {
		foot = append(foot, "")
	}
	add := func(style func(...string) string, s string) {
		for _, l := range strings.Split(ansi.Wrap(s, max(m.w, 1), ""), "\n") {
			foot = append(foot, style(l))
		}
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	for _, pr := range p.Problems {
		add(st.ToastErr.Render, "Batch: "+pr)
	}
	var recv, fees []string
	for _, c := range pay.Currencies(p.Out) {
		recv = append(recv, money.Format(p.Out[c], c)+" "+c)
	}
	for _, c := range pay.Currencies(p.Fees) {
		fees = append(fees, money.Format(p.Fees[c], c)+" "+c)
	}
	toPay := p.Count(pay.StateNew) > 0
	switch {
	case narrow && toPay:
		// The count is on the file's line; the fees are in what is paid
		// (the confirmation names them).
		add(plain, "Receive: "+strings.Join(recv, ", "))
		add(plain, "Pay: "+strings.Join(m.payParts(), ", "))
	case narrow:
		add(plain, "Nothing new to pay.")
	default:
		add(plain, m.rowCounts())
		if toPay {
			add(plain, "They receive: "+strings.Join(recv, ", "))
			add(plain, m.paysLine()+"   Fees: "+strings.Join(fees, ", "))
			if prices := m.prices(); prices != "" {
				add(plain, "Prices: "+prices)
			}
		} else {
			add(plain, "Nothing new to pay: earlier runs created or parked every valid row.")
		}
		add(plain, "Account: "+m.s.AccountName()+" · Environment: "+strings.ToUpper(string(m.s.Env)))
	}
	if p.Parks {
		add(plain, "Your creations wait for approvers: one operation per row.")
	}
	switch {
	case len(p.Problems) > 0:
		add(plain, "Nothing can be paid: see the batch problems above.")
	case !p.Ready() && narrow:
		add(plain, fmt.Sprintf("%d invalid: o opens a file, v drops them", len(p.Rows)-p.Valid()))
	case !p.Ready():
		n := len(p.Rows) - p.Valid()
		add(plain, fmt.Sprintf("%d %s: nothing is paid. Fix the file (o), or drop %s (v).", n, pick(n, "row is invalid", "rows are invalid"), pick(n, "it", "them")))
	case p.Count(pay.StateNew) == 0:
		add(plain, "Nothing to pay: earlier runs settled every row. c records this run.")
	default:
		add(plain, fmt.Sprintf("c confirms and pays the %d new rows.", p.Count(pay.StateNew)))
	}
	return foot
}

// prices are the prices the rows to pay were quoted at, one per market
// pair (the first row's of each), by the reading every screen uses.
func (m *Screen) prices() string {
	seen := map[string]bool{}
	var out []string
	for _, r := range m.plan.Rows {
		if r.State() != pay.StateNew || r.Quote == nil {
			continue
		}
		p := payment.QuotePrice(r.Quote)
		if !p.Known() || p.Base == p.Quote || seen[p.Base+p.Quote] {
			continue
		}
		seen[p.Base+p.Quote] = true
		out = append(out, p.String())
	}
	return strings.Join(out, ", ")
}

// rowCounts says what the review found of the rows.
func (m *Screen) rowCounts() string {
	p := m.plan
	return fmt.Sprintf("Rows: %d to pay, %d already created, %d parked earlier, %d invalid, of %d",
		p.Count(pay.StateNew), p.Count(pay.StateDone), p.Count(pay.StateParked)+p.Count(pay.StateUnknown), p.Count(pay.StateInvalid), len(p.Rows))
}

// rowCells are one row's texts: its number, who and where it pays, what
// they receive and what the account pays, what the review found of it, or
// why it cannot be paid.
type rowCells struct {
	n, who, dest, recv, pays, status, problem string
}

// statusOf is a row's status in the review: new, or what an earlier run
// left of it.
func statusOf(r *pay.Planned) string {
	switch r.State() {
	case pay.StateDone:
		return "created earlier"
	case pay.StateParked:
		return "parked earlier"
	case pay.StateUnknown:
		return "lost answer"
	}
	return "new"
}

func cellsOf(r *pay.Planned) rowCells {
	c := rowCells{n: strconv.Itoa(r.N), who: r.Payee.Alias, problem: r.Problem, status: statusOf(r)}
	if r.Payee.Name != "" && r.Payee.Name != c.who {
		c.who += " (" + r.Payee.Name + ")"
	}
	if c.who == "" {
		c.who = r.Beneficiary
	}
	if c.problem != "" {
		return c
	}
	c.dest = r.Destination()
	c.recv = money.Format(r.Amount, r.Currency) + " " + r.Currency
	switch {
	case r.Quote != nil:
		c.pays = money.Format(r.Quote.InputAmount, r.Source) + " " + r.Source
	case r.TicketID != "":
		// Not paid again: the ticket that paid it instead.
		c.pays = "ticket " + short(r.TicketID)
	case r.OperationID != "":
		c.pays = "operation " + short(r.OperationID)
	}
	return c
}

// reviewCols are the widths of the review's columns at one width; 0 is a
// column not shown.
type reviewCols struct {
	n, who, dest, recv, pays, status int
}

// nameMin is the least room the beneficiary and the destination are
// shown in: fewer cells would not tell one payee from another.
const nameMin = 8

// reviewColumns lays the rows out at width w: every column when the
// beneficiary and the destination get nameMin each; then without the
// destination; then without what the account pays and the status (the
// foot totals them, and an invalid row says so in place of its amounts);
// last the number and what is received alone. The amounts are as wide as
// the widest and never cut.
func reviewColumns(w int, cells []rowCells) reviewCols {
	c := reviewCols{n: len("Row"), recv: len("Receives"), pays: len("Pays"), status: len("Status")}
	var who, dest int
	for _, r := range cells {
		c.n = max(c.n, len(r.n))
		c.status = max(c.status, len(r.status))
		who = max(who, ansi.StringWidth(r.who))
		if r.problem == "" {
			dest = max(dest, ansi.StringWidth(r.dest))
			c.recv = max(c.recv, ansi.StringWidth(r.recv))
			c.pays = max(c.pays, ansi.StringWidth(r.pays))
		}
	}
	who, dest = max(who, len("Beneficiary")), max(dest, len("Destination"))
	if room := w - (c.n + c.recv + c.pays + c.status + 5); room >= 2*nameMin {
		// The destination (a key, an address) whole first, the name
		// with what is left, at least a third of the room.
		c.dest = min(dest, room-min(who, room/3))
		c.who = min(who, room-c.dest)
		return c
	}
	if room := w - (c.n + c.recv + c.pays + c.status + 4); room >= nameMin {
		c.who = min(who, room)
		return c
	}
	c.pays, c.status = 0, 0
	if room := w - (c.n + c.recv + 2); room >= nameMin {
		c.who = min(who, room)
		return c
	}
	return c
}

// reviewRows are the header and, under it, room-1 lines of the rows from
// the scroll offset. A valid row is one line. An invalid row's reason takes
// the room of its other columns and wraps under itself: it is what the
// operator must read to fix the file, so it is never cut at the width. The
// review scrolls by line, so a reason taller than the room reads whole too;
// one cut at the bottom ends in "…↓".
func (m *Screen) reviewRows(room int) []string {
	head, body, cont := m.reviewBody()
	off := min(m.offset, max(0, len(body)-1))
	end := min(len(body), off+room-1)
	rows := append([]string{head}, body[off:end]...)
	if end < len(body) && cont[end] {
		// The rest of this reason is below: say so on its last line shown.
		rows[len(rows)-1] = ansi.Truncate(rows[len(rows)-1], m.w-2, "") + "…↓"
	}
	return rows
}

// reviewBody is the header line and the rows' lines at the screen's width;
// cont[i] is true when line i continues the row of the line above.
func (m *Screen) reviewBody() (head string, body []string, cont []bool) {
	cells := make([]rowCells, len(m.plan.Rows))
	for i, r := range m.plan.Rows {
		cells[i] = cellsOf(r)
	}
	c := reviewColumns(m.w, cells)
	line := func(r rowCells, recv, pays, status string) string {
		parts := []string{fmt.Sprintf("%-*s", c.n, r.n)}
		if c.who > 0 {
			parts = append(parts, pad(r.who, c.who))
		}
		if c.dest > 0 {
			parts = append(parts, pad(r.dest, c.dest))
		}
		parts = append(parts, fmt.Sprintf("%*s", c.recv, recv))
		if c.pays > 0 {
			parts = append(parts, fmt.Sprintf("%*s", c.pays, pays), status)
		}
		return strings.TrimRight(strings.Join(parts, " "), " ")
	}
	head = line(rowCells{n: "Row", who: "Beneficiary", dest: "Destination"}, "Receives", "Pays", "Status")
	for _, r := range cells {
		if r.problem == "" {
			body, cont = append(body, line(r, r.recv, r.pays, r.status)), append(cont, false)
			continue
		}
		first := fmt.Sprintf("%-*s", c.n, r.n)
		if c.who > 0 && c.pays > 0 {
			// Narrow, the reason (which names the beneficiary) takes
			// the beneficiary's room too.
			first += " " + pad(r.who, c.who)
		}
		// Continued under the reason, or under the row's number when
		// that leaves too little room to read.
		indent := ansi.StringWidth(first) + 1
		if m.w-indent < reasonMin {
			indent = c.n + 1
		}
		for j, l := range wrapReason("INVALID: "+r.problem, m.w-ansi.StringWidth(first)-1, m.w-indent) {
			if j == 0 {
				body, cont = append(body, first+" "+l), append(cont, false)
			} else {
				body, cont = append(body, strings.Repeat(" ", indent)+l), append(cont, true)
			}
		}
	}
	return head, body, cont
}

// reasonMin is the least width an invalid row's reason continues in under
// itself; narrower, it continues under the row's number.
const reasonMin = 20

// wrapReason breaks text into lines at spaces: the first line in first
// cells, the others in rest; a word longer than its line is cut across
// lines.
func wrapReason(text string, first, rest int) []string {
	first, rest = max(first, 1), max(rest, 1)
	var lines []string
	w := first
	for text != "" {
		l := strings.TrimRight(strings.Split(ansi.Wrap(text, w, ""), "\n")[0], " ")
		if l == "" || !strings.HasPrefix(text, l) {
			l = ansi.Truncate(text, w, "")
		}
		if l == "" {
			// A character wider than the line: it goes alone.
			_, n := utf8.DecodeRuneInString(text)
			l = text[:n]
		}
		lines = append(lines, l)
		text = strings.TrimLeft(strings.TrimPrefix(text, l), " ")
		w = rest
	}
	return lines
}

// pad clips s to n cells, with "…" when it is longer, and pads it to n.
func pad(s string, n int) string {
	s = ansi.Truncate(s, n, "…")
	return s + strings.Repeat(" ", max(n-ansi.StringWidth(s), 0))
}

// progress is the bar and the counts of a run, then its outcome.
func (m *Screen) progress() []string {
	p, last := m.final, []string(nil)
	if m.phase == running {
		p, last = m.live.get()
	}
	done := p.Total - p.Remaining
	width := max(10, min(50, m.w-20))
	fill := 0
	if p.Total > 0 {
		fill = done * width / p.Total
	}
	out := []string{"",
		fmt.Sprintf("[%s%s] %d/%d", strings.Repeat("█", fill), strings.Repeat("░", width-fill), done, p.Total),
		fmt.Sprintf("created %d · already created %d · parked for approval %d · failed %d · not sent %d · remaining %d", p.Created, p.Existing, p.Parked, p.Failed, p.NotSent, p.Remaining),
	}
	for _, l := range last {
		out = append(out, "  "+l)
	}
	st := m.s.Styles()
	warnings := m.warnings
	if m.phase == running {
		m.live.mu.Lock()
		warnings = append([]string(nil), m.live.warnings...)
		m.live.mu.Unlock()
	}
	for _, w := range warnings {
		out = append(out, st.ToastErr.Render("Not recorded: "+w))
	}
	switch {
	case m.phase == running:
		out = append(out, "", "Paying… x stops after the rows in flight; running the same file again pays only what is missing.")
	case m.runErr != nil:
		out = append(out, "", st.ToastErr.Render(ui.ErrorText(m.runErr)), "Run the same file again (o): what was created is found by its external id, nothing is paid twice.")
	case p.Failed > 0:
		out = append(out, "", st.ToastErr.Render(fmt.Sprintf("%d rows were not paid: see %s", p.Failed, m.results)), "Run the same file again (o) to retry them; nothing is paid twice.")
	case p.NotSent > 0:
		out = append(out, "", st.ToastErr.Render(fmt.Sprintf("Stopped: %d rows were not sent.", p.NotSent)), "Run the same file again (o) to pay them; nothing is paid twice. Results: "+m.results)
	case p.Created == 0 && p.Parked == 0:
		out = append(out, "", st.ToastOK.Render("Nothing was paid now: earlier runs had created every row."), "Results: "+m.results)
	default:
		out = append(out, "", st.ToastOK.Render("Every row went through."), "Results: "+m.results)
	}
	return out
}

// short is the first eight characters of an id, enough to find it in
// Tickets or Approvals.
func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
