package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// helpSection is one titled group of bindings.
type helpSection struct {
	title    string
	bindings []key.Binding
}

// helpSections are built from the bindings live right now: the active
// screen's (disabled ones, for actions this access may not take, are left
// out) and the global ones.
func (r *Root) helpSections() []helpSection {
	var out []helpSection
	if s := r.Active(); s != nil {
		out = append(out, helpSection{title: s.Title(), bindings: s.KeyMap()})
	}
	out = append(out, helpSection{title: "Global", bindings: r.globalBindings(false)})
	// Every screen by its key, so that none is found only by tabbing.
	var screens []key.Binding
	for i, f := range r.factories {
		if k := screenKey(i); k != "" {
			screens = append(screens, key.NewBinding(key.WithKeys(k), key.WithHelp(k, f.Title)))
		}
	}
	out = append(out, helpSection{title: "Screens", bindings: screens})
	return out
}

// helpView lays the sections out in as many columns as the height needs.
func (r *Root) helpView(w, h int) string {
	t := r.theme
	var lines []string
	for _, sec := range r.helpSections() {
		var entries []string
		keyW := 0
		for _, b := range sec.bindings {
			if b.Enabled() && b.Help().Key != "" {
				keyW = max(keyW, lipgloss.Width(b.Help().Key))
			}
		}
		for _, b := range sec.bindings {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			entries = append(entries, t.HintKey.Render(PadRight(b.Help().Key, keyW))+"  "+t.HintDesc.Render(b.Help().Desc))
		}
		if len(entries) == 0 {
			continue
		}
		lines = append(lines, t.Title.Render(sec.title))
		lines = append(lines, entries...)
		lines = append(lines, "")
	}
	if n := r.notice(); n != "" {
		lines = append(lines, t.Notice.Render("⚠ "+n))
	}
	lines = append(lines, t.Muted.Render("?, esc or q closes help"))
	if h <= 0 || len(lines) <= h {
		r.helpOffset = 0
		return strings.Join(lines, "\n")
	}
	// Several columns, each h lines tall, when each stays readable.
	cols := (len(lines) + h - 1) / h
	if colW := w / cols; colW >= minHelpColumn {
		blocks := make([]string, 0, cols)
		for c := 0; c < cols; c++ {
			end := min((c+1)*h, len(lines))
			col := lines[c*h : end]
			for i, l := range col {
				col[i] = PadRight(Truncate(l, colW-1), colW)
			}
			blocks = append(blocks, strings.Join(col, "\n"))
		}
		r.helpOffset = 0
		return lipgloss.JoinHorizontal(lipgloss.Top, blocks...)
	}
	// A small window: one column that scrolls.
	maxOff := len(lines) - h + 1
	r.helpOffset = max(min(r.helpOffset, maxOff), 0)
	view := lines[r.helpOffset : r.helpOffset+h-1]
	more := t.Muted.Render(fmt.Sprintf("↑/↓ scroll · %d–%d of %d", r.helpOffset+1, r.helpOffset+h-1, len(lines)))
	return strings.Join(append(view, more), "\n")
}

// minHelpColumn is the narrowest help column worth laying out side by side.
const minHelpColumn = 30

// scrollHelp moves the single-column help by d lines.
func (r *Root) scrollHelp(d int) { r.helpOffset = max(r.helpOffset+d, 0) }
