package listing

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
)

// Sheet builds the lines of a detail pane: titled blocks of "label  value"
// lines.
type Sheet struct {
	Theme *ui.Theme
	Width int
	// LabelWidth is the widest the label column gets; on a narrow pane it
	// takes a third of the width.
	LabelWidth int
	Lines      []string
}

// NewSheet returns an empty sheet w cells wide.
func NewSheet(th *ui.Theme, w int) *Sheet { return &Sheet{Theme: th, Width: w, LabelWidth: 20} }

// Title starts a block, a blank line after the previous one.
func (s *Sheet) Title(t string) {
	if len(s.Lines) > 0 {
		s.Lines = append(s.Lines, "")
	}
	s.Lines = append(s.Lines, s.Theme.Title.Render(t))
}

// KV adds "label  value" in the value style; an empty value adds nothing.
func (s *Sheet) KV(label, value string) {
	if value != "" {
		s.Styled(label, value, s.Theme.Value)
	}
}

// Styled adds "label  value" with value in st, wrapping a long value (a BR
// Code, a hash) under itself rather than cutting it.
func (s *Sheet) Styled(label, value string, st lipgloss.Style) {
	lw := min(s.LabelWidth, max(s.Width/3, 8))
	head := ui.PadRight(s.Theme.Label.Render(ui.Truncate(label, lw)), lw)
	for _, part := range strings.Split(ansi.Hardwrap(value, max(s.Width-lw-3, 8), true), "\n") {
		s.Lines = append(s.Lines, "  "+head+" "+st.Render(part))
		head = strings.Repeat(" ", lw)
	}
}

// Text adds a line of text, indented as the values' labels.
func (s *Sheet) Text(t string) { s.Lines = append(s.Lines, "  "+t) }
