package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/termsafe"
)

// Truncate cuts s (which may carry ANSI styles) to at most w cells, ending
// with "…" when something was cut. Every line of the window passes through
// it (Fit, Spread), so it is also where the dashboard makes what it draws
// safe: an escape sequence or a bidirectional control that came from
// outside in a name is shown escaped (termsafe.Styled), never acted on;
// the screens' own colours stay.
//
// A line drawn in the frame before is not measured again (truncated).
func Truncate(s string, w int) string {
	if w <= 0 || s == "" {
		return ""
	}
	return truncated.get(cut{s, w}, func() string {
		s := termsafe.Styled(s)
		if lipgloss.Width(s) <= w {
			return s
		}
		return ansi.Truncate(s, w, "…")
	})
}

// warmWidths builds the table of character widths the renderer consults
// for every character from U+0300 on (box drawing, "…", "✓"): its first
// use fills over 2 MB of memory, 3-4 ms on a 2-core machine, that the
// first frame would otherwise pay. The root starts it from Init, once
// Bubble Tea's renderer has started: the first frame waits a whole frame
// interval (16.7 ms) after that, time in which the table is built on the
// other core. Started earlier, with the process, it slowed the work that
// comes before the renderer starts by as much as it saved.
func warmWidths() { ansi.StringWidthWc("…") }

// cut is a line and the width it is cut to.
type cut struct {
	s string
	w int
}

// truncated remembers the lines of the last frames, cut: a window of 300
// lines (a tall one), with its chrome, several times over.
var truncated = newMemo[cut, string](4096)

// Fit makes s exactly h lines of at most w cells: longer lines are cut,
// missing lines are added empty, extra lines are dropped. Every screen's view
// passes through it, so no screen can push the footer off the window.
func Fit(s string, w, h int) string {
	if h <= 0 || w <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = Truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// PadRight pads s with spaces to w cells (ANSI-aware); it never cuts.
func PadRight(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// PadLeft right-aligns s in w cells (ANSI-aware); it never cuts.
func PadLeft(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// Spread puts left and right on one line of w cells, right-aligned right;
// left is cut first when they do not fit.
func Spread(left, right string, w int) string {
	right = termsafe.Styled(right)
	rw := lipgloss.Width(right)
	if rw >= w {
		return Truncate(right, w)
	}
	left = Truncate(left, w-rw-1)
	return left + strings.Repeat(" ", w-lipgloss.Width(left)-rw) + right
}
