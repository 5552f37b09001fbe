package overview

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// leftWidth is the width of the balances/access column when the window is
// wide enough for two columns.
const leftWidth = 34

// twoColumns is the narrowest content width that shows two columns: the
// latest tickets beside the left column must still show whole amounts up to
// "99,999.999999 USDC" (2 marker + created 11 + status 10 + two amounts of
// 18, with separators); narrower windows stack the blocks instead.
const twoColumns = leftWidth + 3 + 2 + 11 + 1 + 10 + 1 + 18 + 1 + 18

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.w, m.h = w, h
	if w >= twoColumns {
		m.table.SetSize(w-leftWidth-3, max(h-1-len(m.wideRightLines(w-leftWidth-3)), 0))
		return
	}
	m.table.SetSize(w, max(h-len(m.leftLines(w))-2, 0))
}

// View implements ui.Screen.
func (m *Screen) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	t := m.s.Styles()
	if m.showQR && m.info != nil {
		return m.qrView(m.w, m.h)
	}
	if m.w >= twoColumns {
		left := ui.Fit(strings.Join(m.leftLines(leftWidth), "\n"), leftWidth, m.h)
		sep := strings.TrimSuffix(strings.Repeat(t.Muted.Render("│")+"\n", m.h), "\n")
		right := strings.Join(m.wideRightLines(m.w-leftWidth-3), "\n") + "\n" + t.Title.Render("Latest tickets") + m.ticketsFresh.Note(t, m.s.Now()) + "\n" + m.ticketsView()
		return ui.Fit(lipgloss.JoinHorizontal(lipgloss.Top, left, " ", sep, " ", right), m.w, m.h)
	}
	lines := m.leftLines(m.w)
	out := strings.Join(lines, "\n")
	if rest := m.h - len(lines) - 2; rest > 1 {
		// The left blocks grow as data arrives, so the table is sized here.
		m.table.SetSize(m.w, rest)
		out += "\n\n" + t.Title.Render("Latest tickets") + m.ticketsFresh.Note(t, m.s.Now()) + "\n" + m.ticketsView()
	}
	return ui.Fit(out, m.w, m.h)
}

func (m *Screen) ticketsView() string {
	t := m.s.Styles()
	switch {
	case m.ticketsErr != nil && !m.ticketsFresh.Known():
		return t.Error.Render("✗ "+ui.ErrorText(m.ticketsErr)) + "\n" + t.Muted.Render("r retries")
	case !m.ticketsDone:
		return t.Muted.Render(widget.SpinnerFrame(m.s.Now()) + " loading tickets…")
	}
	return m.table.View()
}

// leftLines are the balances, approvals and access blocks.
func (m *Screen) leftLines(w int) []string {
	t := m.s.Styles()
	var lines []string
	lines = append(lines, t.Title.Render("Balances")+t.Muted.Render(" · "+m.accountShort()))
	if note := m.balFresh.Text(m.s.Now()); note != "" {
		// On a line of its own: the column is narrow, and the age of
		// stale values must be read whole.
		lines = append(lines, ui.Fit(m.balFresh.NoteStyle(t).Render("  "+note), w, 1))
	}
	switch {
	case m.balErr != nil && !m.balFresh.Known():
		lines = append(lines, t.Error.Render("✗ "+ui.ErrorText(m.balErr)), t.Muted.Render("r retries"))
	case !m.balLoaded:
		lines = append(lines, t.Muted.Render("loading balances…"))
	case len(m.balances) == 0:
		lines = append(lines, t.Muted.Render("no balances on this account"))
	default:
		cur := sortedCurrencies(m.balances)
		amts := make([]string, len(cur))
		amtW := 0
		for i, c := range cur {
			amts[i] = money.Format(m.balances[c], c)
			amtW = max(amtW, len(amts[i]))
		}
		label, amt := m.balFresh.Style(t, t.Label), m.balFresh.Style(t, t.Amount)
		for i, c := range cur {
			lines = append(lines, "  "+label.Render(ui.PadRight(c, 5))+" "+amt.Render(ui.PadLeft(amts[i], amtW)))
		}
	}
	lines = append(lines, "")
	approvals := t.Title.Render("Approvals") + " " + m.approvalsText()
	if lipgloss.Width(approvals) > w {
		// The pointer to the screen goes before the count is cut.
		approvals = strings.Replace(approvals, t.Muted.Render(" (see Approvals)"), "", 1)
	}
	lines = append(lines, approvals)
	lines = append(lines, "")
	lines = append(lines, m.accessLines(w)...)
	if m.w >= twoColumns {
		lines = append(lines, m.tedColumn(w, m.h-len(lines))...)
	}
	if m.w < twoColumns {
		// Stacked, the receive and limits blocks come only when the
		// latest tickets keep minTicketLines below them; else one line
		// says where they are.
		extra := m.rightLines(w)
		if m.h-len(lines)-2-len(extra) >= minTicketLines {
			lines = append(append(lines, ""), extra[:len(extra)-1]...)
		} else {
			lines = append(lines, "", ui.Fit(t.Muted.Render("wallets, PIX key, TED, limits: a window ≥ "+strconv.Itoa(twoColumns)+" columns · p PIX QR · b copies TED"), w, 1))
		}
	}
	return lines
}

// minTicketLines is the least room the latest tickets keep when the
// blocks are stacked: their title, the header and six rows.
const minTicketLines = 8

// rightLines are the receive and limits blocks over the latest tickets (in
// one column, under the access block), with a blank line after each.
func (m *Screen) rightLines(w int) []string {
	lines := append(m.receiveLines(w), "")
	return append(append(lines, m.limitsLines(w)...), "")
}

// wideRightLines are the blocks over the latest tickets in two columns:
// both when the tickets keep minTicketLines under them, else the receive
// block and a line saying where the limits are, else that line alone.
func (m *Screen) wideRightLines(w int) []string {
	t := m.s.Styles()
	if all := m.rightLines(w); m.h-1-len(all) >= minTicketLines {
		return all
	}
	hint := []string{ui.Fit(t.Title.Render("Limits")+t.Muted.Render(" this month: a taller window shows them"), w, 1), ""}
	if recv := append(append(m.receiveLines(w), ""), hint...); m.h-1-len(recv) >= minTicketLines {
		return recv
	}
	return hint
}

// accountShort names the operated account briefly (the header has it in
// full).
func (m *Screen) accountShort() string {
	if m.s.Account.Main() {
		return "main account"
	}
	return m.s.AccountName()
}

func (m *Screen) approvalsText() string {
	t := m.s.Styles()
	switch {
	case m.s.Access == nil:
		return t.Muted.Render("…")
	case !m.isApprover():
		return t.Muted.Render("not an approver")
	case m.pendingErr != nil && !m.pendingFresh.Known():
		return t.Error.Render("✗ " + ui.ErrorText(m.pendingErr))
	case m.pendingFresh.Stale():
		return t.Disabled.Render(fmt.Sprintf("%d pending", m.pending)) + t.Warn.Render(" "+ui.Ago(m.s.Now().Sub(m.pendingFresh.At))+" old")
	case !m.pendingDone:
		return t.Muted.Render("loading…")
	}
	n := fmt.Sprint(m.pending)
	if m.pendingMore {
		n += "+"
	}
	if m.pending == 0 {
		return t.Good.Render("0 pending")
	}
	return t.Warn.Render(n+" pending") + t.Muted.Render(" (see Approvals)")
}

// accessLines are the caller's access info.
func (m *Screen) accessLines(w int) []string {
	t := m.s.Styles()
	a := m.s.Access
	lines := []string{t.Title.Render("Your access")}
	if a == nil {
		return append(lines, t.Muted.Render("loading…"))
	}
	mfa := "off"
	if a.MFAActivated {
		mfa = "on"
	}
	lines = append(lines, "  "+t.Value.Render(a.Email))
	perms := ui.PermissionNames(a.AccountPermissions)
	lines = append(lines, wrapWords("  "+t.Label.Render("may: "), perms, w)...)
	frozen := t.Good.Render("no")
	if a.Frozen(m.s.Now()) {
		frozen = t.Bad.Render("FROZEN until " + a.FrozenUntil.Local().Format("2006-01-02 15:04"))
	}
	lines = append(lines, "  "+t.Label.Render("MFA ")+t.Value.Render(mfa)+t.Muted.Render(" · ")+t.Label.Render("frozen: ")+frozen)
	lines = append(lines, "  "+t.Label.Render("blacklisted: ")+m.blacklistText(a))
	return lines
}

func (m *Screen) blacklistText(a *api.AccessInfo) string {
	t := m.s.Styles()
	// The accounts list leaves out what the access is barred from: their
	// names come with the barred ones.
	names := ui.BlacklistNames(a, slices.Concat(m.s.Accounts, m.s.Barred), func(id uuid.UUID) string { return id.String()[:8] })
	if len(names) == 0 {
		return t.Good.Render("none")
	}
	return t.Bad.Render(strings.Join(names, ", "))
}

// wrapWords lays words out after prefix on lines of w cells.
func wrapWords(prefix string, words []string, w int) []string {
	indent := strings.Repeat(" ", lipgloss.Width(prefix))
	var lines []string
	cur := prefix
	empty := true
	for _, wd := range words {
		if !empty && lipgloss.Width(cur)+1+lipgloss.Width(wd) > w {
			lines = append(lines, cur)
			cur, empty = indent, true
		}
		if !empty {
			cur += " "
		}
		cur += wd
		empty = false
	}
	return append(lines, cur)
}

// sortedCurrencies orders balances as the catalogue does, then any other
// currency alphabetically.
func sortedCurrencies(b api.Balances) []string {
	cat := money.Currencies()
	out := make([]string, 0, len(b))
	for c := range b {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		pi, pj := slices.Index(cat, out[i]), slices.Index(cat, out[j])
		switch {
		case pi >= 0 && pj >= 0:
			return pi < pj
		case pi >= 0:
			return true
		case pj >= 0:
			return false
		}
		return out[i] < out[j]
	})
	return out
}

// ticketColumns are the latest tickets' columns: the status as wide as
// the longest listed (a status cut short reads as another), the amounts
// in the rest.
func ticketColumns(ts []api.Ticket) []widget.Column {
	status := len("Status")
	for _, tk := range ts {
		status = max(status, len(tk.Status))
	}
	return []widget.Column{
		{Title: "Created", Width: 11},
		{Title: "Status", Width: status, Status: true},
		{Title: "Sends", Right: true},
		{Title: "Receives", Right: true},
	}
}

// ticketRows are the latest tickets as table rows.
func ticketRows(t *ui.Theme, ts []api.Ticket) []widget.Row {
	rows := make([]widget.Row, 0, len(ts))
	for _, tk := range ts {
		q := tk.Quote
		rows = append(rows, widget.Row{
			ID: tk.ID.String(),
			Cells: []string{
				tk.CreatedAt.Local().Format("01-02 15:04"),
				string(tk.Status),
				money.Format(q.InputAmount, q.InputCurrency) + " " + q.InputCurrency,
				money.Format(q.OutputAmount, q.OutputCurrency) + " " + q.OutputCurrency,
			},
		})
	}
	return rows
}
