package tickets

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tesouro/ui"
)

// countText is the always-visible paging state.
func (m *Model) countText() string {
	n := len(m.recs)
	var s string
	switch {
	case !m.started || (m.loading && n == 0):
		s = "loading tickets…"
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

func (m *Model) filterText() string {
	if sum := m.bar.Summary(); sum != "" {
		return "filters: " + sum
	}
	return "no filters (f)"
}

// header is the lines above the table: the count (always), the filters
// (beside the count when they fit, else on a line of their own when there is
// room), and the last error or the last file written.
func (m *Model) header(w int) []string {
	th := m.s.Styles()
	count, filters := m.countText(), m.filterText()
	var lines []string
	if lipgloss.Width(count)+2+lipgloss.Width(filters) <= w || m.height < 8 {
		lines = append(lines, ui.Spread(th.Value.Render(count), th.Muted.Render(ui.Truncate(filters, max(w-lipgloss.Width(count)-2, 0))), w))
	} else {
		lines = append(lines, th.Value.Render(count), th.Muted.Render(ui.Truncate(filters, w)))
	}
	if m.height >= 6 {
		switch {
		case m.err != nil:
			lines = append(lines, th.Error.Render(ui.Truncate("✗ "+m.err.Error()+" — press r to retry", w)))
		case m.note != "":
			note := ui.Truncate(m.note, w)
			lines = append(lines, th.Muted.Render(note+tail(m.notePath, w-lipgloss.Width(note))))
		}
	}
	return lines[:min(len(lines), m.height)]
}

// tail keeps the end of s when it is too wide: a path's file name matters
// more than its first directories.
func tail(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if n := ansi.StringWidth(s); n > w {
		if w <= 1 {
			return ansi.Truncate(s, w, "")
		}
		return ansi.TruncateLeft(s, n-w+1, "…")
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
		b.WriteString(ui.Spread(th.Title.Render("Filter tickets (sent to the service)"), th.Muted.Render(m.countText()), w))
		b.WriteString("\n")
		b.WriteString(m.bar.View(h - 1))
	case m.detail != nil:
		b.WriteString(m.detailView(w, h))
	default:
		b.WriteString(strings.Join(m.header(w), "\n"))
		if h > m.headerLines() {
			b.WriteString("\n")
			b.WriteString(m.table.View())
		}
	}
	return ui.Fit(b.String(), w, h)
}

func (m *Model) detailView(w, h int) string {
	th := m.s.Styles()
	d := m.detail
	head := "Ticket " + d.id.String()
	var body []string
	switch {
	case d.ticket != nil:
		body = ticketLines(d.ticket, th, w, m.loc(), m.s.Clock(), d.receipt)
		if d.err != nil {
			body = append([]string{th.Error.Render("✗ " + d.err.Error())}, body...)
		}
	case d.err != nil:
		body = []string{th.Error.Render("✗ " + d.err.Error()), "", th.Muted.Render("esc goes back to the list; r tries again")}
	default:
		body = []string{th.Muted.Render("loading ticket…")}
	}
	room := max(h-1, 0)
	d.offset = max(min(d.offset, len(body)-room), 0)
	pos := ""
	if len(body) > room {
		pos = fmt.Sprintf("%d–%d of %d lines", d.offset+1, min(d.offset+room, len(body)), len(body))
	}
	lines := []string{ui.Spread(th.Title.Render(head), th.Muted.Render(pos), w)}
	end := min(d.offset+room, len(body))
	lines = append(lines, body[d.offset:end]...)
	return strings.Join(lines, "\n")
}
