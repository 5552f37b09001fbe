package listing

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// Style gives the table and the filter bar of a list the theme's styles.
func Style(th *ui.Theme, t *widget.Table, bar *widget.FilterBar) {
	t.SetStyles(th.TableStyles())
	bar.SetStyles(widget.FilterBarStyles{Label: th.Label, Focused: th.Value.Bold(true), Hint: th.Muted, Error: th.Error})
}

// UpdateForm passes msg to the open filter form of a list; apply runs
// (the list is fetched again) once the form is applied.
func UpdateForm(bar *widget.FilterBar, msg tea.Msg, apply func() tea.Cmd) tea.Cmd {
	applied, cmd := bar.Update(msg)
	if applied {
		return tea.Batch(cmd, apply())
	}
	return cmd
}

// Form is the filter form in w×h cells, under a title that says what it
// filters beside the count.
func Form(th *ui.Theme, bar *widget.FilterBar, title, count string, w, h int) string {
	return ui.Spread(th.Title.Render(title), th.Muted.Render(count), w) + "\n" + bar.View(h-1)
}

// Filters is the applied filters of bar, or how to set some.
func Filters(bar *widget.FilterBar) string {
	if sum := bar.Summary(); sum != "" {
		return "filters: " + sum
	}
	return "no filters (f)"
}

// CountLine is the first line of a list in w cells: the count, then the
// filters, cut first when both do not fit.
func CountLine(th *ui.Theme, count, filters string, w int) string {
	return ui.Spread(th.Value.Render(count), th.Muted.Render(ui.Truncate(filters, max(w-lipgloss.Width(count)-2, 0))), w)
}

// ErrorLine is the last error of a list, with the fix, in w cells.
func ErrorLine(th *ui.Theme, err error, w int) string {
	return th.Error.Render(ui.Truncate("✗ "+ui.ErrorText(err)+" — press r to retry", w))
}

// Below puts the header lines over the table when there is room for both
// in h lines.
func Below(header []string, t *widget.Table, h int) string {
	s := strings.Join(header, "\n")
	if h > len(header) {
		s += "\n" + t.View()
	}
	return s
}
