package listing

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
)

// ScrollKeys are the keys that scroll a detail pane.
type ScrollKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// NewScrollKeys returns the usual scrolling keys.
func NewScrollKeys() ScrollKeys {
	return ScrollKeys{
		Up:       ui.Binding("↑/k", "scroll up", "up", "k"),
		Down:     ui.Binding("↓/j", "scroll down", "down", "j"),
		PageUp:   ui.Binding("pgup", "page up", "pgup"),
		PageDown: ui.Binding("pgdn", "page down", "pgdown", " "),
		Top:      ui.Binding("g", "top", "g", "home"),
		Bottom:   ui.Binding("G", "bottom", "G", "end"),
	}
}

// Bindings lists the keys for help.
func (k ScrollKeys) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Scroll is how far a detail pane is scrolled, in lines.
type Scroll struct{ Offset int }

// Key scrolls for msg, one of k, in a pane h lines high; it reports whether
// msg was a scrolling key. The offset is clamped when the pane is drawn.
func (s *Scroll) Key(msg tea.KeyPressMsg, k ScrollKeys, h int) bool {
	page := max(h-2, 1)
	switch {
	case key.Matches(msg, k.Up):
		s.Offset--
	case key.Matches(msg, k.Down):
		s.Offset++
	case key.Matches(msg, k.PageUp):
		s.Offset -= page
	case key.Matches(msg, k.PageDown):
		s.Offset += page
	case key.Matches(msg, k.Top):
		s.Offset = 0
	case key.Matches(msg, k.Bottom):
		s.Offset = 1 << 30
	default:
		return false
	}
	return true
}

// Closes takes msg on an open detail pane h lines high: it reports true for
// back, the caller then closing the pane, and scrolls for any other key as
// Key does.
func (s *Scroll) Closes(msg tea.KeyPressMsg, back key.Binding, k ScrollKeys, h int) bool {
	if key.Matches(msg, back) {
		return true
	}
	s.Key(msg, k, h)
	return false
}

// Window clamps the offset to body and returns the lines of body that fit
// in room lines from there.
func (s *Scroll) Window(body []string, room int) []string {
	room = max(room, 0)
	s.Offset = max(min(s.Offset, len(body)-room), 0)
	return body[s.Offset:min(s.Offset+room, len(body))]
}

// Pane is a detail pane in w×h cells: a title line that says which lines
// show when not all fit ("11–48 of 96 lines"), over the window of body.
func (s *Scroll) Pane(th *ui.Theme, title string, body []string, w, h int) string {
	room := max(h-1, 0)
	shown := s.Window(body, room)
	pos := ""
	if len(body) > room {
		pos = fmt.Sprintf("%d–%d of %d lines", s.Offset+1, s.Offset+len(shown), len(body))
	}
	return strings.Join(append([]string{ui.Spread(th.Title.Render(title), th.Muted.Render(pos), w)}, shown...), "\n")
}

// Detail is the record a list screen shows in its detail pane, if one is
// open, and how far the pane is scrolled.
type Detail[T any] struct {
	Open *T // nil while the list shows
	Scroll
}

// Show opens v in the pane, scrolled to the top.
func (d *Detail[T]) Show(v T) { d.Open, d.Scroll = &v, Scroll{} }

// Close goes back to the list.
func (d *Detail[T]) Close() { d.Open = nil }

// Key takes msg while a record is open, in a pane h lines high: back
// closes it, the scroll keys scroll it, and any other key is ignored. It
// reports whether a record was open, so that msg was the pane's.
func (d *Detail[T]) Key(msg tea.KeyPressMsg, back key.Binding, k ScrollKeys, h int) bool {
	if d.Open == nil {
		return false
	}
	if d.Closes(msg, back, k, h) {
		d.Close()
	}
	return true
}
