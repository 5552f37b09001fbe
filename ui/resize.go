package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// sizeHold is how long a new window size must hold before the whole window
// is painted again.
const sizeHold = 200 * time.Millisecond

// sizeHeldMsg fires sizeHold after the n-th size change.
type sizeHeldMsg struct{ n int }

// resized lays the window out for its new size. The renderer draws only
// what changed since its last frame, and trusts that the terminal holds that
// frame; while a terminal is being resized it can take a frame at a size it
// no longer has (a terminal multiplexer applies the new size to its grid and
// to the program's tty at different moments), scroll it, and leave every
// line one row off until something repaints the whole window. So once a
// new size has held for sizeHold, the whole window is cleared and drawn
// again: one full frame per resize, and never a window that shows the wrong
// rows. The first size, at start, is drawn whole anyway.
func (r *Root) resized(msg tea.WindowSizeMsg) tea.Cmd {
	r.width, r.height = msg.Width, msg.Height
	r.relayout()
	r.sizes++
	n := r.sizes
	if n == 1 {
		return nil
	}
	return r.clock().After(sizeHold, func(time.Time) tea.Msg { return sizeHeldMsg{n: n} })
}
