package compliance

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tesouro/views/beneficiaries/form"
)

// View implements ui.Screen.
func (m *Screen) View() string {
	if m.form != nil {
		return m.form.View()
	}
	l := m.lists[m.cur]
	lines := []string{m.tabsLine(), m.statusLine()}
	th, dh := m.layout()
	lines = append(lines, strings.Split(l.table.View(), "\n")...)
	lines = lines[:min(len(lines), 2+th)]
	for len(lines) < 2+th {
		lines = append(lines, "")
	}
	if dh > 0 {
		lines = append(lines, m.detailLines(dh)...)
	}
	return form.Fit(strings.Join(lines, "\n"), m.width, m.height)
}

func (m *Screen) tabsLine() string {
	th := m.s.Styles()
	parts := make([]string, 0, len(m.sections))
	for i, s := range m.sections {
		label := s.title
		if l := m.lists[i]; l.loaded {
			label = fmt.Sprintf("%s %d", s.title, l.table.Len())
		}
		if i == m.cur {
			parts = append(parts, th.ActiveTab.Render("["+label+"]"))
		} else {
			parts = append(parts, th.Tab.Render(" "+label+" "))
		}
	}
	return strings.Join(parts, " ")
}

func (m *Screen) statusLine() string {
	th := m.s.Styles()
	l := m.lists[m.cur]
	sec := m.sections[m.cur]
	if l.err != nil {
		return th.Error.Render("✗ " + l.err.Error() + " (r retries)")
	}
	if sec.key == "w8ben" && m.submitted != nil {
		return th.Good.Render("✓ W-8BEN submitted, form: " + m.submitted.W8BenURL)
	}
	var parts []string
	switch {
	case l.loading && !l.loaded:
		parts = append(parts, "loading…")
	case l.table.Filter() != "":
		parts = append(parts, fmt.Sprintf("filter %q: %d of %d (esc clears)", l.table.Filter(), l.table.Visible(), l.table.Len()))
	}
	if sec.newForm != nil {
		if err := m.writeBlocked(); err != nil {
			parts = append(parts, "read only: "+err.Error())
		} else {
			parts = append(parts, "n new "+sec.noun)
		}
	}
	return th.Muted.Render(strings.Join(parts, " · "))
}

func (m *Screen) detailLines(h int) []string {
	th := m.s.Styles()
	l := m.lists[m.cur]
	out := []string{th.Muted.Render(strings.Repeat("─", m.width))}
	row, ok := l.table.Selected()
	if !ok {
		return out
	}
	for _, d := range l.entries[row.ID].detail {
		if d[1] == "" {
			continue
		}
		out = append(out, ansi.Truncate(th.Muted.Render(fmt.Sprintf("%-12s", d[0]))+" "+d[1], m.width, "…"))
	}
	return out[:min(len(out), h)]
}
