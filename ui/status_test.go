package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// A status is coloured by what it means (paid green, failed or cancelled
// red, waiting amber, at work neutral), and its word is always shown.
func TestStatusColourFollowsItsMeaning(t *testing.T) {
	th := NewTheme(true, false)
	for word, want := range map[string]string{
		"PAID": th.Good.Render("x"), "CANCELED": th.Bad.Render("x"), "CANCELLED": th.Bad.Render("x"),
		"PARTIAL-FAILED": th.Bad.Render("x"), "UNPAID": th.Warn.Render("x"), "ON-HOLD": th.Warn.Render("x"),
		"PROCESSING": th.Value.Render("x"),
	} {
		if got := th.StatusStyle(word).Render("x"); got != want {
			t.Errorf("%s styled %q, want %q", word, got, want)
		}
	}
	// In a list: each status cell in its colour, the word kept.
	tb := widget.NewTable(widget.Column{Title: "Status", Width: 14, Status: true}, widget.Column{Title: "Amount"})
	tb.SetStyles(th.TableStyles())
	tb.SetSize(40, 4)
	tb.SetRows([]widget.Row{{ID: "a", Cells: []string{"PAID", "1"}}, {ID: "b", Cells: []string{"FAILED", "2"}}, {ID: "c", Cells: []string{"ON-HOLD", "3"}}})
	v := tb.View()
	for _, w := range []string{"FAILED", "ON-HOLD"} {
		if !strings.Contains(v, th.StatusStyle(w).Render(w)) {
			t.Errorf("%s is not in its colour:\n%q", w, v)
		}
	}
	if p := ansi.Strip(v); !strings.Contains(p, "PAID") || !strings.Contains(p, "FAILED") || !strings.Contains(p, "ON-HOLD") {
		t.Errorf("a status word is missing:\n%s", p)
	}
}
