package accesses

import (
	"errors"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.w, m.h = w, h
	m.list.SetSize(w, max(h-len(m.ownLines())-3, 0))
}

// legend spells out the matrix's column titles.
func legend() string {
	parts := make([]string, 0, len(matrix))
	for _, p := range matrix {
		parts = append(parts, p.title+" "+p.name)
	}
	return strings.Join(parts, " · ")
}

// ownLines is the caller's own access block.
func (m *Screen) ownLines() []string {
	t := m.s.Styles()
	a := m.s.Access
	lines := []string{t.Title.Render("Your access")}
	if a == nil {
		return append(lines, t.Muted.Render("  loading…"))
	}
	mfa := "MFA off"
	if a.MFAActivated {
		mfa = "MFA on"
	}
	frozen := ""
	if a.Frozen(m.s.Now()) {
		frozen = " · " + t.Bad.Render("FROZEN until "+a.FrozenUntil.Local().Format("2006-01-02 15:04"))
	}
	lines = append(lines, "  "+t.Value.Render(a.Email)+t.Muted.Render(" · "+mfa)+frozen)
	lines = append(lines, "  "+t.Label.Render("may: ")+strings.Join(ui.PermissionNames(a.AccountPermissions), ", "))
	if bl := ui.BlacklistNames(a, slices.Concat(m.s.Accounts, m.s.Barred), uuid.UUID.String); len(bl) > 0 {
		lines = append(lines, "  "+t.Label.Render("blacklisted from: ")+t.Bad.Render(strings.Join(bl, ", ")))
	}
	return lines
}

// View implements ui.Screen.
func (m *Screen) View() string {
	t := m.s.Styles()
	own := m.ownLines()
	// The own block grows when the access info arrives.
	m.list.SetSize(m.w, max(m.h-len(own)-3, 0))
	title := t.Title.Render("Sub-accesses") + t.Muted.Render(" · permission matrix (✓ has it)")
	switch err := m.list.Err; {
	case errors.Is(err, api.ErrForbidden):
		// Not a failure to retry: say what it means.
		title = t.Title.Render("Sub-accesses") + " " + t.Error.Render("✗ this access may not list sub-accesses")
		m.list.SetEmpty("sub-accesses not available")
	case err != nil:
		m.list.SetEmpty("sub-accesses not available")
	case m.list.Loaded():
		m.list.SetEmpty("no sub-accesses")
	}
	return ui.Fit(strings.Join(own, "\n")+"\n\n"+title+"\n"+t.Muted.Render(legend())+"\n"+m.list.View(""), m.w, m.h)
}
