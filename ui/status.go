package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// StatusStyle is the style of a status word (PAID, PENDING, FAILED, ...).
// The word itself is always shown: the colour only repeats it.
func (t *Theme) StatusStyle(status string) lipgloss.Style {
	switch strings.ToUpper(status) {
	case "PAID", "EXECUTED", "SETTLED", "COMPLETED", "APPROVED", "OK":
		return t.Good
	case "PENDING", "PROCESSING", "UNPAID", "ON-HOLD":
		return t.Warn
	case "FAILED", "EXPIRED", "REJECTED", "CANCELLED", "CANCELED", "PARTIAL-FAILED":
		return t.Bad
	}
	return t.Value
}

// Check renders a yes/no flag with a symbol, readable without colour.
func (t *Theme) Check(ok bool) string {
	if ok {
		return t.Good.Render("✓")
	}
	return t.Muted.Render("·")
}
