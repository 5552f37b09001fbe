package widget

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Reading remembers which lines of a text have been on screen, so that a
// confirmation taller than its window arms its yes only once every line
// was shown, by fitting or by scrolling. Lines are remembered by what
// they say (without styles), not by position: a line that changes, or a
// text wrapped anew for another width, must be shown again. The zero
// Reading has seen nothing.
type Reading struct{ seen map[string]struct{} }

// Show records that lines are on screen now.
func (r *Reading) Show(lines []string) {
	if r.seen == nil {
		r.seen = map[string]struct{}{}
	}
	for _, l := range lines {
		r.seen[readingKey(l)] = struct{}{}
	}
}

// Unread is how many of lines have not been on screen yet.
func (r *Reading) Unread(lines []string) int {
	n := 0
	for _, l := range lines {
		if _, ok := r.seen[readingKey(l)]; !ok {
			n++
		}
	}
	return n
}

func readingKey(l string) string { return strings.TrimSpace(ansi.Strip(l)) }
