package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// resetMargins gives the terminal's scrolling region back the whole window.
// The renderer, to move lines that scrolled between two frames, sets a
// region and then "resets" it by naming the window's height at that time
// (1 to 12 at 40x12). Once the window is taller, a terminal that keeps that
// region (tmux does) scrolls it at the first line feed past its bottom: the
// header left the window, every row above the old height moved up by one,
// and each repaint did it again.
var resetMargins = tea.Raw(ansi.SetTopBottomMargins(0, 0))

// resized lays the window out for its new size and, unless it is the size
// at start, repaints it (see repaint).
func (r *Root) resized(msg tea.WindowSizeMsg) tea.Cmd {
	first := !r.sized
	r.sized = true
	r.width, r.height = msg.Width, msg.Height
	r.relayout()
	if first {
		return nil
	}
	return repaint()
}

// repaint resets the terminal's scrolling region, then has the renderer
// clear the window and draw every row, in that order: the frame is drawn
// after the reset, from the top left corner. The renderer draws the whole
// window after a resize anyway; should it do so before the reset is
// written, this frame puts every row back one frame later.
func repaint() tea.Cmd { return tea.Sequence(resetMargins, tea.ClearScreen) }
