package batch

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	pay "github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/money"
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
	add(st.Title.Render("Batch payouts")+"  "+env+" · "+m.s.AccountName(), "")
	if m.typing {
		add(m.input.View(), "enter reads and checks the file · esc cancels")
	} else if m.path != "" {
		add("File: " + m.path)
	}
	switch m.phase {
	case picking:
		if m.err != nil {
			add("", st.ToastErr.Render(ui.ErrorText(m.err)))
		}
		if !m.typing {
			add("", "Press o to open a CSV of payouts (tesouro batch template prints one).",
				"Every row is checked and priced before anything is paid; you confirm once.")
		}
	case checking:
		add("", "Checking and pricing every row…")
	case reviewing:
		lines = append(lines, m.review(len(lines))...)
	case running, finished:
		lines = append(lines, m.progress()...)
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

// review lists the rows (scrolled to fit) above the totals, account and
// environment, which always stay visible.
func (m *Screen) review(used int) []string {
	p := m.plan
	st := m.s.Styles()
	foot := []string{""}
	for _, pr := range p.Problems {
		foot = append(foot, st.ToastErr.Render("Batch: "+pr))
	}
	var recv, fees []string
	for _, c := range pay.Currencies(p.Out) {
		recv = append(recv, money.Format(p.Out[c], c)+" "+c)
	}
	for _, c := range pay.Currencies(p.Fees) {
		fees = append(fees, money.Format(p.Fees[c], c)+" "+c)
	}
	foot = append(foot,
		fmt.Sprintf("Rows: %d valid of %d", p.Valid(), len(p.Rows)),
		"They receive: "+strings.Join(recv, ", "),
		m.paysLine()+"   Fees: "+strings.Join(fees, ", "),
		"Account: "+m.s.AccountName()+" · Environment: "+strings.ToUpper(string(m.s.Env)))
	if p.Parks {
		foot = append(foot, "Your creations wait for approvers: one operation per row.")
	}
	switch {
	case len(p.Problems) > 0:
		foot = append(foot, "Nothing can be paid: see the batch problems above.")
	case !p.Ready():
		foot = append(foot, fmt.Sprintf("%d rows are invalid: nothing is paid. Fix the file (o), or drop them (v).", len(p.Rows)-p.Valid()))
	default:
		foot = append(foot, "c confirms and pays every row.")
	}
	room := max(1, m.h-used-len(foot)-1)
	rows := []string{fmt.Sprintf("%-4s %-26s %-26s %14s %18s  %s", "Row", "Beneficiary", "Destination", "Receives", "Pays", "Status")}
	for i := m.offset; i < len(p.Rows) && len(rows) < room; i++ {
		r := p.Rows[i]
		status, pays := "ok", ""
		if r.Problem != "" {
			status = "INVALID: " + r.Problem
		}
		if r.Quote != nil {
			pays = money.Format(r.Quote.InputAmount, r.Source) + " " + r.Source
		}
		who := r.Payee.Alias
		if r.Payee.Name != "" && r.Payee.Name != who {
			who += " (" + r.Payee.Name + ")"
		}
		if who == "" {
			who = r.Beneficiary
		}
		if r.Problem != "" {
			// The reason takes the room of the row's other columns: it is
			// what the operator must read to fix the file.
			rows = append(rows, fmt.Sprintf("%-4d %-26s %s", r.N, clip(who, 26), status))
			continue
		}
		rows = append(rows, fmt.Sprintf("%-4d %-26s %-26s %14s %18s  %s", r.N, clip(who, 26), clip(r.Destination(), 26), money.Format(r.Amount, r.Currency)+" "+r.Currency, pays, status))
	}
	return append(rows, foot...)
}

func clip(s string, n int) string { return ansi.Truncate(s, n, "…") }

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
		fmt.Sprintf("created %d · parked for approval %d · failed %d · remaining %d", p.Created, p.Parked, p.Failed, p.Remaining),
	}
	for _, l := range last {
		out = append(out, "  "+l)
	}
	st := m.s.Styles()
	switch {
	case m.phase == running:
		out = append(out, "", "Paying… x stops after the rows in flight; running the same file again pays only what is missing.")
	case m.runErr != nil:
		out = append(out, "", st.ToastErr.Render(ui.ErrorText(m.runErr)), "Run the same file again (o): what was created is found by its external id, nothing is paid twice.")
	case p.Failed > 0:
		out = append(out, "", st.ToastErr.Render(fmt.Sprintf("%d rows were not paid: see %s", p.Failed, m.results)), "Run the same file again (o) to retry them; nothing is paid twice.")
	default:
		out = append(out, "", st.ToastOK.Render("Every row went through."), "Results: "+m.results)
	}
	return out
}
