package ui

import (
	"fmt"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestResizeResetsTheScrollingRegionThenRepaints: the size at start is
// drawn as any frame; a later size is laid out at once, and the terminal's
// scrolling region is reset before the whole window is cleared and drawn
// again, in that order (a region the renderer left at the old height
// scrolled the rows above it by one at every line feed).
func TestResizeResetsTheScrollingRegionThenRepaints(t *testing.T) {
	r := New(Options{})
	if cmd := r.handle(tea.WindowSizeMsg{Width: 120, Height: 40}); cmd != nil {
		t.Fatalf("the size at start repaints: %T", cmd())
	}
	for _, size := range [][2]int{{40, 12}, {100, 32}} {
		cmd := r.handle(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		if r.width != size[0] || r.height != size[1] {
			t.Fatalf("laid out at %dx%d, not %dx%d", r.width, r.height, size[0], size[1])
		}
		if cmd == nil {
			t.Fatalf("no repaint at %dx%d", size[0], size[1])
		}
		// tea.Sequence delivers its commands as a slice, run in order.
		steps := reflect.ValueOf(cmd())
		if steps.Kind() != reflect.Slice || steps.Len() != 2 {
			t.Fatalf("the repaint at %dx%d is %T, not a sequence of two steps", size[0], size[1], cmd())
		}
		first := steps.Index(0).Interface().(tea.Cmd)()
		if raw, ok := first.(tea.RawMsg); !ok || fmt.Sprint(raw.Msg) != ansi.SetTopBottomMargins(0, 0) {
			t.Errorf("the repaint at %dx%d starts with %#v, not the scrolling region's reset", size[0], size[1], first)
		}
		second := steps.Index(1).Interface().(tea.Cmd)()
		if got, want := fmt.Sprintf("%T", second), fmt.Sprintf("%T", tea.ClearScreen()); got != want {
			t.Errorf("the repaint at %dx%d then sends %s, not a cleared screen", size[0], size[1], got)
		}
	}
}
