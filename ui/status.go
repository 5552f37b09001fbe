package ui

import (
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/api"
)

// StatusStyle is the style of a status word (PAID, PENDING, FAILED, ...),
// by its meaning (api.StatusMeaning). The word itself is always shown:
// the colour only repeats it.
func (t *Theme) StatusStyle(status string) lipgloss.Style {
	return t.MeaningStyle(api.StatusMeaning(status))
}

// MeaningStyle is the one colour of each meaning of a status: paid green,
// failed or cancelled red, waiting for someone amber, at work neutral.
func (t *Theme) MeaningStyle(m api.Meaning) lipgloss.Style {
	switch m {
	case api.MeaningDone:
		return t.Good
	case api.MeaningFailed:
		return t.Bad
	case api.MeaningWaiting:
		return t.Warn
	}
	return t.Value
}

// StatusWord renders a status in the service's word, coloured by meaning m,
// with a mark that says the same without colour: ✓ done, ✗ failed,
// … waiting, nothing for the rest.
func (t *Theme) StatusWord(m api.Meaning, word string) string {
	mark := map[api.Meaning]string{api.MeaningDone: "✓ ", api.MeaningFailed: "✗ ", api.MeaningWaiting: "… "}[m]
	return t.MeaningStyle(m).Render(mark + word)
}

// Check renders a yes/no flag with a symbol, readable without colour.
func (t *Theme) Check(ok bool) string {
	if ok {
		return t.Good.Render("✓")
	}
	return t.Muted.Render("·")
}
