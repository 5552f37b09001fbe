package quote

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// theme holds every style of the screen, built once. Meaning is never
// carried by colour alone: focus has a "›" marker, errors a "✗", the
// selected option brackets.
type theme struct {
	title, label, focusLabel, focus, dim, value, err, ok, warn, selected lipgloss.Style
	badgeSandbox, badgeProduction                                        lipgloss.Style
}

// newTheme takes the dashboard's styles when there are some (so colours,
// NO_COLOR and the light/dark choice follow the rest of the dashboard).
func newTheme(t *ui.Theme) theme {
	if t != nil {
		return theme{
			title: t.Title, label: t.Label, focusLabel: t.Value, focus: t.Title, dim: t.Muted, value: t.Value,
			err: t.Error, ok: t.Good, warn: t.Warn, selected: t.Selected,
			badgeSandbox: t.Sandbox, badgeProduction: t.Production,
		}
	}
	return theme{
		title:           lipgloss.NewStyle().Bold(true),
		label:           lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		focusLabel:      lipgloss.NewStyle().Bold(true),
		focus:           lipgloss.NewStyle().Foreground(lipgloss.Color("39")).Bold(true),
		dim:             lipgloss.NewStyle().Foreground(lipgloss.Color("243")),
		value:           lipgloss.NewStyle().Bold(true),
		err:             lipgloss.NewStyle().Foreground(lipgloss.Color("196")),
		ok:              lipgloss.NewStyle().Foreground(lipgloss.Color("42")),
		warn:            lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		selected:        lipgloss.NewStyle().Bold(true).Reverse(true),
		badgeSandbox:    lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("214")),
		badgeProduction: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("160")),
	}
}

// form is the forms' styles: the stages' fields draw as the rest of the
// screen.
func (th theme) form() form.Styles {
	return form.Styles{Title: th.title, Label: th.label, Focus: th.focusLabel, Error: th.err, Hint: th.ok, Choice: th.selected, Footer: th.dim}
}

// padRight pads s with spaces to w cells (or cuts it).
func padRight(s string, w int) string {
	n := lipgloss.Width(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// fit is h lines of lines from line offset, each cut to at most w cells,
// empty lines below the last. Lines are not padded: blanks to the right
// edge would be cells for the renderer to read and compare at every
// frame (the countdown's, once a second), and the window draws the same
// without them.
func fit(lines []string, offset, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	offset = max(min(offset, len(lines)-h), 0)
	end := min(offset+h, len(lines))
	return ui.Fit(strings.Join(lines[offset:end], "\n"), w, h)
}

// wrap breaks plain text to width w (words longer than w are cut).
func wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// sideBySide puts two columns next to each other, the left one padded to
// leftW cells.
func sideBySide(left, right []string, leftW, gap int) []string {
	n := max(len(left), len(right))
	out := make([]string, n)
	for i := range n {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		if r == "" {
			// Nothing on the right: no blanks to carry to it.
			out[i] = ui.Truncate(l, leftW)
			continue
		}
		out[i] = padRight(l, leftW) + strings.Repeat(" ", gap) + r
	}
	return out
}

// scrollTo returns an offset that keeps line target visible in a window of
// h lines, moving as little as possible from offset.
func scrollTo(offset, target, h int) int {
	if h <= 0 {
		return 0
	}
	if target < offset {
		return target
	}
	if target >= offset+h {
		return target - h + 1
	}
	return offset
}

// widthOf is the cell width of s, escape sequences ignored.
func widthOf(s string) int { return lipgloss.Width(s) }
