package beneficiaries

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
	t := m.tabs[m.cur]
	lines := []string{m.tabsLine(), m.statusLine()}
	th, dh := m.layout()
	lines = append(lines, strings.Split(t.table.View(), "\n")...)
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
	parts := make([]string, 0, len(m.kinds))
	for i, k := range m.kinds {
		label := k.title
		if t := m.tabs[i]; t.loaded {
			label = fmt.Sprintf("%s %d", k.title, t.table.Len())
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
	t := m.tabs[m.cur]
	var parts []string
	switch {
	case t.err != nil:
		return th.Error.Render("✗ " + t.err.Error() + " (r retries)")
	case t.loading && !t.loaded:
		parts = append(parts, "loading…")
	case t.table.Filter() != "":
		parts = append(parts, fmt.Sprintf("filter %q: %d of %d (esc clears)", t.table.Filter(), t.table.Visible(), t.table.Len()))
	}
	if err := m.writeBlocked(); err != nil {
		parts = append(parts, "read only: "+err.Error())
	} else {
		hint := "n new"
		if m.kinds[m.cur].del != nil {
			hint += " · d delete"
		} else {
			hint += " · the service offers no delete for " + m.kinds[m.cur].noun + "s"
		}
		parts = append(parts, hint)
	}
	return th.Muted.Render(strings.Join(parts, " · "))
}

func (m *Screen) detailLines(h int) []string {
	th := m.s.Styles()
	t := m.tabs[m.cur]
	out := []string{th.Muted.Render(strings.Repeat("─", m.width))}
	row, ok := t.table.Selected()
	if !ok {
		return out
	}
	e := t.entries[row.ID]
	lw := 12
	for _, d := range e.detail {
		if d[1] == "" {
			continue
		}
		l := th.Label.Render(fmt.Sprintf("%-*s", lw, d[0])) + " " + d[1]
		out = append(out, ansi.Truncate(l, m.width, "…"))
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}
