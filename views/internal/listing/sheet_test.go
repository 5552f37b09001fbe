package listing

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui"
)

func TestSheetWrapsLongValuesUnderThemselves(t *testing.T) {
	s := NewSheet(ui.NewTheme(true, true), 60)
	s.Title("Quote")
	s.KV("Output BR Code", strings.Repeat("0123456789", 8))
	s.KV("Refund ticket", "") // nothing to say: no line
	s.Text("no fees applied")
	lines := make([]string, len(s.Lines))
	for i, l := range s.Lines {
		lines[i] = ansi.Strip(l)
	}
	want := []string{
		"Quote",
		"  Output BR Code       0123456789012345678901234567890123456",
		"                       7890123456789012345678901234567890123",
		"                       456789",
		"  no fees applied",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sheet:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 60 {
			t.Fatalf("line wider than the sheet: %q", l)
		}
	}
}

func TestSheetNarrowLabels(t *testing.T) {
	s := NewSheet(ui.NewTheme(true, true), 30)
	s.KV("Deposit message", "x")
	if got := ansi.Strip(s.Lines[0]); got != "  Deposit m… x" {
		t.Fatalf("narrow sheet: %q", got)
	}
}
