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
	// A text input draws one cell more than its width (the cursor at the
	// end), and the line also holds the marker, the label and a space.
	in := max(f.width-f.labelWidth()-4, 4)
	for _, fl := range f.fields {
		fl.in.SetWidth(in)
	}
}

func (f *Form) labelWidth() int {
	w := 0
	for _, fl := range f.fields {
		w = max(w, lipgloss.Width(fl.Label)+len(requiredMark))
	}
	return min(w, max(f.width/3, 6))
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

	var body []string
	start, end := 0, 0
	lw := f.labelWidth()
	for i, fl := range f.fields {
		if !f.visible(fl) {
			continue
		}
		if i == f.focus {
			start = len(body)
		}
		body = append(body, f.fieldLine(fl, i == f.focus, lw))
		indent := strings.Repeat(" ", lw+3)
		avail := max(f.width-lw-3, 4)
		// The focused field's message is read whole (why a value is
		// refused, who a key pays), however narrow the form; the others
		// keep three lines each.
		most := 3
		if i == f.focus {
			most = f.height
		}
		if e := f.shownError(fl); e != "" {
			for _, l := range wrapped(f.styles.Error, "✗ "+e, avail, most) {
				body = append(body, indent+l)
			}
		} else {
			if fl.hint != "" {
				for _, l := range wrapped(f.styles.Hint, "✓ "+fl.hint, avail, 2) {
					body = append(body, indent+l)
				}
			}
			if n := f.noteOf(fl); n != "" {
				for _, l := range wrapped(f.styles.Hint, n, avail, most) {
					body = append(body, indent+l)
				}
			}
		}
		if i == f.focus {
			end = len(body)
		}
	}

	room := f.height - len(head) - len(footLines)
	if room < 1 {
		// Too small for everything: keep the focused field and its message.
		lines := append([]string{}, body[start:end]...)
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

func (f *Form) fieldLine(fl *field, focused bool, lw int) string {
	label := fl.Label
	if fl.Required {
		label += requiredMark
	}
	label = ansi.Truncate(label, lw, "…")
	label += strings.Repeat(" ", max(lw-lipgloss.Width(label), 0))
	marker := "  "
	if focused {
		marker = "› "
		label = f.styles.Focus.Render(label)
	} else {
		label = f.styles.Label.Render(label)
	}
	var value string
	if fl.in.Kind == Toggle {
		v := fl.in.Value()
		if v == "" {
			v = "not given"
		}
		c := "‹ " + v + " ›"
		if focused {
			c = f.styles.Choice.Render(c)
		}
		value = c
	} else {
		value = fl.in.text.View()
	}
	return marker + label + " " + value
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
