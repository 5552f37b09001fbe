package form

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

func TestSuggestCyclesYetTakesAnyCode(t *testing.T) {
	f := NewSuggest("cur", "Currency", []string{"BRL", "USDC"}, "BRL")
	f.Focus()
	f.Update(screentest.KeyPress("right"))
	if f.Value() != "USDC" {
		t.Fatalf("→ gave %q, want USDC", f.Value())
	}
	f.Set("")
	for _, k := range screentest.Text("eurc") {
		f.Update(k.(tea.KeyPressMsg))
	}
	if f.Value() != "EURC" {
		t.Fatalf("typed code read %q, want EURC", f.Value())
	}
	f.Update(screentest.KeyPress("left")) // not in the list: from the end
	if f.Value() != "USDC" {
		t.Fatalf("← from an unlisted code gave %q, want the last suggestion", f.Value())
	}
}

func TestToggleAndDisabled(t *testing.T) {
	f := NewToggle("mode", "Mode", "a", "b", "c")
	if changed, _ := f.Update(screentest.KeyPress("left")); !changed || f.Value() != "c" {
		t.Fatalf("← from the first option gave %q", f.Value())
	}
	if changed, _ := f.Paste(tea.PasteMsg{Content: "b"}); changed {
		t.Fatal("a toggle took pasted text")
	}
	f.Disabled = "not allowed"
	if changed, _ := f.Update(screentest.KeyPress("right")); changed || f.Value() != "c" {
		t.Fatal("a disabled field changed")
	}
	if l := ansi.Strip(strings.Join(f.Render(LineStyles{}, true, 8, 40), "\n")); !strings.Contains(l, "not allowed") || !strings.HasPrefix(l, "› Mode") {
		t.Fatalf("the disabled field does not say why: %q", l)
	}
}

func TestNoteAndErrorFitTheirWidth(t *testing.T) {
	f := NewText("amount", "Amount", "", 20)
	f.Set("12,5")
	f.Note = "understood: 12.50 BRL you send, which is a long sentence to wrap"
	for _, l := range f.Render(LineStyles{}, true, 8, 30) {
		if w := ansi.StringWidth(l); w > 30 {
			t.Fatalf("line %d cells wide: %q", w, l)
		}
	}
	f.Err = "at most 2 decimals"
	if got := ansi.Strip(strings.Join(f.MessageLines(LineStyles{}, 30), "\n")); !strings.Contains(got, "✗ at most 2 decimals") || strings.Contains(got, "understood") {
		t.Fatalf("the error must replace the note: %q", got)
	}
}

func TestPickerKeepsChoiceAndCursorAcrossReloads(t *testing.T) {
	a, b, c := uuid.New(), uuid.New(), uuid.New()
	p := NewPicker("to", "To")
	p.Focus()
	p.SetOptions([]Option{{ID: a, Title: "Alpha"}, {ID: b, Title: "Beta"}, {ID: c, Title: "Gamma", Disabled: "no payOut"}})
	p.Update(screentest.KeyPress("down"))
	if chose, _ := p.Update(screentest.KeyPress("enter")); !chose || p.Chosen.ID != b {
		t.Fatal("enter did not choose the option under the cursor")
	}
	// Reloaded with a new option first: choice and cursor stay on Beta.
	p.SetOptions([]Option{{ID: uuid.New(), Title: "New"}, {ID: a, Title: "Alpha"}, {ID: b, Title: "Beta"}, {ID: c, Title: "Gamma", Disabled: "no payOut"}})
	if p.Chosen == nil || p.Chosen.ID != b || p.Current().ID != b {
		t.Fatalf("chosen %v, cursor on %v: want Beta for both", p.Chosen, p.Current())
	}
	p.Update(screentest.KeyPress("down"))
	if chose, _ := p.Update(screentest.KeyPress("enter")); chose || !strings.Contains(p.Err, "no payOut") {
		t.Fatalf("a disabled option was chosen or not explained: %q", p.Err)
	}
	p.Paste(tea.PasteMsg{Content: "alp"})
	if p.Current() == nil || p.Current().ID != a {
		t.Fatal("the filter did not narrow to Alpha")
	}
	view := ansi.Strip(strings.Join(p.Render(LineStyles{}, true, 8, 60, "none registered"), "\n"))
	if !strings.Contains(view, "▸    Alpha") || strings.Count(view, "Gamma") != 1 { // Gamma only in the complaint
		t.Fatalf("filtered view:\n%s", view)
	}
}

// → goes round every suggestion, whatever the case of its spelling: a
// mixed-case code ("USDCe") is not a dead end that starts the list again.
func TestSuggestCyclesThroughEveryOption(t *testing.T) {
	opts := []string{"BRL", "BRLA", "USDCe", "USD", "EUR"}
	f := NewSuggest("cur", "Currency", opts, "BRL")
	f.Focus()
	var seen []string
	for range opts {
		f.Update(screentest.KeyPress("right"))
		seen = append(seen, f.Value())
	}
	if want := []string{"BRLA", "USDCe", "USD", "EUR", "BRL"}; strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Fatalf("→ went %v, want %v", seen, want)
	}
	f.Set("usdce")
	if f.Value() != "USDCe" {
		t.Fatalf("a typed option reads %q, want its own spelling USDCe", f.Value())
	}
}

// Typing over a value chosen with ←/→ replaces it; once typed, a value
// grows as any text does.
func TestTypingReplacesAChosenValue(t *testing.T) {
	f := NewSuggest("cur", "Currency", []string{"BRL", "USDM", "USD"}, "BRL")
	f.Focus()
	f.Update(screentest.KeyPress("right")) // USDM, chosen
	for _, k := range screentest.Text("usd") {
		f.Update(k.(tea.KeyPressMsg))
	}
	if f.Value() != "USD" {
		t.Fatalf("typing usd over a chosen USDM gave %q, want USD", f.Value())
	}
	f.Set("BRL") // set by the screen: chosen too
	f.Paste(tea.PasteMsg{Content: "eur"})
	if f.Value() != "EUR" {
		t.Fatalf("pasting over a chosen value gave %q, want EUR", f.Value())
	}
	f.Update(screentest.KeyPress("backspace"))
	f.Update(tea.KeyPressMsg{Code: 'R', Text: "R"})
	if f.Value() != "EUR" {
		t.Fatalf("editing a typed value gave %q, want EUR", f.Value())
	}
}
