package ui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui/clocktest"
)

// TestResizeRepaintsTheWholeWindowOnceTheSizeHolds: the size at start is
// drawn as any frame; a later size is laid out at once and, once it has
// held, the whole window is cleared and drawn again (a frame the terminal
// took mid-resize may have scrolled it). A size that changes again before
// it held does not repaint: only the last one does.
func TestResizeRepaintsTheWholeWindowOnceTheSizeHolds(t *testing.T) {
	clk := clocktest.New(clocktest.Epoch)
	r := New(Options{Clock: clk})
	if cmd := r.handle(tea.WindowSizeMsg{Width: 120, Height: 40}); cmd != nil {
		t.Fatalf("the first size armed %T", cmd())
	}
	timer := func(w, h int) clocktest.Timer {
		t.Helper()
		cmd := r.handle(tea.WindowSizeMsg{Width: w, Height: h})
		if cmd == nil {
			t.Fatalf("no repaint armed at %dx%d", w, h)
		}
		if r.width != w || r.height != h {
			t.Fatalf("laid out at %dx%d, not %dx%d", r.width, r.height, w, h)
		}
		return cmd().(clocktest.Timer)
	}
	small := timer(40, 12)
	if small.At != clocktest.Epoch.Add(sizeHold) {
		t.Errorf("repaint due at %v, want %v after", small.At, sizeHold)
	}
	big := timer(100, 32)
	if cmd := r.handle(small.Fire()); cmd != nil {
		t.Errorf("a size that did not hold repainted: %T", cmd())
	}
	cmd := r.handle(big.Fire())
	if cmd == nil {
		t.Fatal("the size that held did not repaint the window")
	}
	if got := fmt.Sprintf("%T", cmd()); got != fmt.Sprintf("%T", tea.ClearScreen()) {
		t.Errorf("the repaint is %s, not a cleared screen", got)
	}
}
