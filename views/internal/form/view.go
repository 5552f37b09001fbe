package form

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
)

const requiredMark = "*"

// Styles are the form's styles; screens pass the dashboard theme's. Errors
// and hints also carry ✗ and ✓, so nothing depends on colour alone.
type Styles struct {
	Title, Label, Focus, Error, Hint, Choice, Footer lipgloss.Style
}

// DefaultStyles are the styles of a new form.
func DefaultStyles() Styles {
	return Styles{
		Title:  lipgloss.NewStyle().Bold(true),
		Label:  lipgloss.NewStyle().Faint(true),
		Focus:  lipgloss.NewStyle().Bold(true),
		Error:  lipgloss.NewStyle().Foreground(lipgloss.Color("9")),
		Hint:   lipgloss.NewStyle().Foreground(lipgloss.Color("10")),
		Choice: lipgloss.NewStyle().Reverse(true),
		Footer: lipgloss.NewStyle().Faint(true),
	}
}

// SetStyles replaces the form's styles.
func (f *Form) SetStyles(s Styles) { f.styles = s }

// SetSize gives the form its area; View fills exactly that.
func (f *Form) SetSize(w, h int) {
	f.width, f.height = max(w, 1), max(h, 1)
}

// labelWidth is the cells labels take in a form width cells wide.
func (f *Form) labelWidth(width int) int {
	if f.LabelWidth > 0 {
		return min(f.LabelWidth, max(width/2, 6))
	}
	w := 0
	for _, fl := range f.fields {
		w = max(w, lipgloss.Width(fl.Label)+len(requiredMark))
	}
	return min(w, max(width/3, 6))
}

// lineStyles are the form's styles as its lines draw them.
func (f *Form) lineStyles() LineStyles {
	st := f.styles
	return LineStyles{Marker: st.Focus, Label: st.Label, FocusLabel: st.Focus, Dim: st.Footer, Value: st.Focus, Selected: st.Choice, Error: st.Error}
}

// Lines draws the visible fields in width cells, one under the other, each
// with what is said under it: its error, else what was understood of it and
// the screen's note, and, while it has focus, how to fill it. first and
// last are the lines of the focused field and its messages, which a screen
// placing the lines itself keeps in view (-1 when nothing has focus).
func (f *Form) Lines(width int) (lines []string, first, last int) {
	first, last = -1, -1
	st := f.lineStyles()
	lw := f.labelWidth(width)
	avail := max(width-4, 1)
	for i, fl := range f.fields {
		if !f.visible(fl) {
			continue
		}
		focused := i == f.focus
		start := len(lines)
		label := fl.Label
		if fl.Required {
			label += requiredMark
		}
		// The focused field's message is read whole (why a value is
		// refused, who a key pays), however narrow the form; the others
		// keep three lines each.
		most := 3
		if focused {
			most = max(f.height, 3)
		}
		msg := func(style lipgloss.Style, text string, n int) {
			for _, l := range wrapped(style, text, avail, n) {
				lines = append(lines, "    "+l)
			}
		}
		e := f.shownError(fl)
		if fl.pk != nil {
			lines = append(lines, fl.pk.render(st, label, focused, lw, width, f.emptyText(), e)...)
		} else {
			lines = append(lines, fl.in.valueLines(st, label, focused, lw, width)...)
			if e != "" {
				msg(f.styles.Error, "✗ "+e, most)
			}
		}
		if e == "" {
			if fl.hint != "" {
				msg(f.styles.Hint, "✓ "+fl.hint, 2)
			}
			if n := f.noteOf(fl); n != "" {
				msg(f.styles.Hint, n, most)
			}
		}
		if h := f.help(fl); focused && h != "" {
			msg(f.styles.Footer, h, most)
		}
		if focused {
			first, last = start, len(lines)-1
		}
	}
	return lines, first, last
}

func (f *Form) emptyText() string {
	if f.Empty != "" {
		return f.Empty
	}
	return "nothing to choose from"
}

// View renders the form: the title, the fields around the focused one, and a
// line of key hints.
func (f *Form) View() string {
	head := []string{f.styles.Title.Render(f.Title)}
	if e := f.FormError(); e != "" {
		head = append(head, wrapped(f.styles.Error, "✗ "+e, f.width, 3)...)
	}
	// The root's footer shows the form's keys; only the wait is said here.
	var footLines []string
	if f.sending {
		footLines = []string{f.styles.Footer.Render(ansi.Truncate("sending… (waiting for the service)", f.width, "…"))}
	}
	body, start, end := f.Lines(f.width)
	start, end = max(start, 0), end+1

	room := f.height - len(head) - len(footLines)
	if room < 1 {
		// Too small for everything: keep the focused field and its message.
		lines := append([]string{}, body[start:max(end, start)]...)
		return fit(lines, f.width, f.height)
	}
	off := 0
	if end > room {
		off = end - room
	}
	if start < off {
		off = start
	}
	visible := body[off:min(len(body), off+room)]
	lines := append(head, visible...)
	for len(lines) < f.height-len(footLines) {
		lines = append(lines, "")
	}
	lines = append(lines, footLines...)
	return fit(lines, f.width, f.height)
}

// wrapped wraps text to width and keeps at most n lines, each styled.
func wrapped(st lipgloss.Style, text string, width, n int) []string {
	lines := strings.Split(ansi.Wrap(text, max(width, 1), " "), "\n")
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1]+"…", width, "…")
	}
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// fit makes lines exactly w cells wide and h lines tall: the form fills the
// area it was given, whatever the terminal's size.
func fit(lines []string, w, h int) string {
	out := strings.Split(ui.Fit(strings.Join(lines, "\n"), w, h), "\n")
	for i, l := range out {
		out[i] = ui.PadRight(l, w)
	}
	return strings.Join(out, "\n")
}
