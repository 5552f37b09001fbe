package tabbed

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/ui"
)

// Render draws the open form, or the tabs, status, the list on screen and
// the detail pane of its selected record.
func (f *Frame) Render(status string) string {
	if f.form != nil {
		return f.form.View()
	}
	th, dh := f.layout()
	lines := []string{f.tabsLine(), status}
	lines = append(lines, strings.Split(f.lists[f.cur].list.Table.View(), "\n")...)
	lines = lines[:min(len(lines), 2+th)]
	for len(lines) < 2+th {
		lines = append(lines, "")
	}
	if dh > 0 {
		lines = append(lines, f.detailLines(dh)...)
	}
	return ui.Fit(strings.Join(lines, "\n"), f.width, f.height)
}

// Status is the line under the tabs: the failed load of the list on screen,
// else its loading or filter state, then hint (what the screen's keys do).
func (f *Frame) Status(hint string) string {
	th := f.s.Styles()
	l := f.lists[f.cur]
	var parts []string
	switch {
	case l.list.Err != nil:
		return th.Error.Render("✗ " + ui.ErrorText(l.list.Err) + " (r retries)")
	case !l.loaded():
		parts = append(parts, "loading…")
	case l.list.Filter() != "":
		parts = append(parts, fmt.Sprintf("filter %q: %d of %d%s (esc clears)", l.list.Filter(), l.list.Visible(), l.list.Len(), l.list.SearchNote()))
	}
	if hint != "" {
		parts = append(parts, hint)
	}
	return th.Muted.Render(strings.Join(parts, " · "))
}

func (f *Frame) tabsLine() string {
	th := f.s.Styles()
	parts := make([]string, 0, len(f.lists))
	for i, l := range f.lists {
		label := l.Title
		if l.loaded() {
			label = fmt.Sprintf("%s %d", l.Title, l.list.Len())
		}
		if i == f.cur {
			parts = append(parts, th.ActiveTab.Render("["+label+"]"))
		} else {
			parts = append(parts, th.Tab.Render(" "+label+" "))
		}
	}
	line := strings.Join(parts, " ")
	if lipgloss.Width(line) > f.width {
		// Too narrow for every tab: the one shown, and where it sits.
		return parts[f.cur] + th.Muted.Render(fmt.Sprintf(" %d/%d ←/→", f.cur+1, len(parts)))
	}
	return line
}

func (f *Frame) detailLines(h int) []string {
	th := f.s.Styles()
	out := []string{th.Muted.Render(strings.Repeat("─", f.width))}
	e, ok := f.lists[f.cur].Selected()
	if !ok {
		return out
	}
	for _, d := range e.Detail {
		if d[1] != "" {
			out = append(out, ui.Truncate(th.Label.Render(ui.PadRight(d[0], 12))+" "+d[1], f.width))
		}
	}
	return out[:min(len(out), h)]
}

// loaded reports whether a load brought the list's records.
func (l *List) loaded() bool {
	return l.list.Len() > 0 || (l.list.Loaded() && l.list.Err == nil)
}
