package tickets

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// countText is the always-visible paging state.
func (m *Model) countText() string {
	var notes []string
	if m.reload.Waiting() {
		notes = append(notes, "refreshing…")
	}
	if m.exp != nil && m.height < 6 {
		notes = append(notes, m.exportProgress()) // no room for its own line
	}
	return m.list.Count(notes...)
}

// header is the lines above the table: the count (always), the filters
// (beside the count when they fit, else on a line of their own when there is
// room), and the last error or the last file written.
func (m *Model) header(w int) []string {
	th := m.s.Styles()
	count, filters := m.countText(), listing.Filters(m.bar)
	var lines []string
	if lipgloss.Width(count)+2+lipgloss.Width(filters) <= w || m.height < 8 {
		lines = append(lines, listing.CountLine(th, count, filters, w))
	} else {
		lines = append(lines, th.Value.Render(count), th.Muted.Render(ui.Truncate(filters, w)))
	}
	if m.height >= 6 {
		switch {
		case m.list.Err != nil:
			lines = append(lines, listing.ErrorLine(th, m.list.Err, w))
		case m.exp != nil:
			lines = append(lines, th.Warn.Render(ui.Truncate(m.exportProgress(), w)))
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
	return m.list.Frame(m.width, m.height, "Filter tickets (sent to the service)", m.countText(), func() string {
		if m.detail != nil {
			return m.detailView(m.width, m.height)
		}
		return listing.Below(m.header(m.width), m.list.Table.Table, m.height)
	})
}

func (m *Model) detailView(w, h int) string {
	th := m.s.Styles()
	d := m.detail
	var body []string
	switch {
	case d.ticket != nil:
		body = ticketLines(d.ticket, th, w, m.loc(), m.s.Now(), d.receipt)
		body = append(body, eventLines(d, th, w, m.loc(), m.s.Now())...)
		if d.refused != "" {
			body = append(wrapped(th.Error, "✗ "+d.refused, w), body...)
		}
		if d.err != nil {
			body = append(wrapped(th.Error, "✗ "+ui.ErrorText(d.err), w), body...)
		}
	case d.err != nil:
		body = []string{th.Error.Render("✗ " + ui.ErrorText(d.err)), "", th.Muted.Render("esc goes back to the list; r tries again")}
	default:
		body = []string{th.Muted.Render("loading ticket…")}
	}
	return d.Pane(th, "Ticket "+d.id.String(), body, w, h)
}

// wrapped is text in style st, wrapped to w cells: a refusal's reason is
// read whole, never cut.
func wrapped(st lipgloss.Style, text string, w int) []string {
	lines := strings.Split(ansi.Wrap(text, max(w, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}
