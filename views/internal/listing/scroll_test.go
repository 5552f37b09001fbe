package listing

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
)

func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i+1)
	}
	return out
}

func TestScrollStaysWithinTheBody(t *testing.T) {
	body := numbered(10)
	s := Scroll{Offset: 100}
	if got := s.Window(body, 4); strings.Join(got, ",") != "line 7,line 8,line 9,line 10" || s.Offset != 6 {
		t.Fatalf("past the end: %v at %d", got, s.Offset)
	}
	s.Offset = -3
	if got := s.Window(body, 4); got[0] != "line 1" || s.Offset != 0 {
		t.Fatalf("before the start: %v at %d", got, s.Offset)
	}
	if got := s.Window(body, 20); len(got) != 10 || s.Offset != 0 {
		t.Fatalf("a room larger than the body shows %d lines from %d", len(got), s.Offset)
	}
}

func TestScrollKeys(t *testing.T) {
	k := NewScrollKeys()
	var s Scroll
	press := func(code rune, text string) bool { return s.Key(tea.KeyPressMsg{Code: code, Text: text}, k, 12) }
	if !press('j', "j") || s.Offset != 1 {
		t.Fatalf("j: offset %d", s.Offset)
	}
	if !press(tea.KeyPgDown, "") || s.Offset != 11 {
		t.Fatalf("pgdown in a 12-line pane: offset %d, want 11", s.Offset)
	}
	if !press('g', "g") || s.Offset != 0 {
		t.Fatalf("g: offset %d", s.Offset)
	}
	if press('x', "x") {
		t.Fatal("x taken for a scrolling key")
	}
}

func TestPaneSaysWhichLinesShow(t *testing.T) {
	th := ui.NewTheme(true, true)
	s := Scroll{Offset: 2}
	v := ansi.Strip(s.Pane(th, "Trade 42", numbered(10), 40, 5))
	lines := strings.Split(v, "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "Trade 42") || !strings.HasSuffix(lines[0], "3–6 of 10 lines") || lines[1] != "line 3" {
		t.Fatalf("pane:\n%s", v)
	}
	v = ansi.Strip(s.Pane(th, "Trade 42", numbered(3), 40, 5))
	if strings.Contains(v, "of 3 lines") || !strings.Contains(v, "line 1") {
		t.Fatalf("a body that fits still shows a position:\n%s", v)
	}
}
