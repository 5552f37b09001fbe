package accesses

import (
	"errors"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.w, m.h = w, h
	m.table.SetSize(w, max(h-len(m.ownLines())-3, 0))
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
	if bl := ui.BlacklistNames(a, m.s.Accounts, uuid.UUID.String); len(bl) > 0 {
		lines = append(lines, "  "+t.Label.Render("blacklisted from: ")+t.Bad.Render(strings.Join(bl, ", ")))
	}
	return lines
}

// View implements ui.Screen.
func (m *Screen) View() string {
	t := m.s.Styles()
	own := m.ownLines()
	// The own block grows when the access info arrives.
	m.table.SetSize(m.w, max(m.h-len(own)-3, 0))
	title := t.Title.Render("Sub-accesses") + t.Muted.Render(" · permission matrix (✓ has it)")
	switch {
	case m.err != nil:
		title = t.Title.Render("Sub-accesses") + " " + t.Error.Render("✗ "+explain(m.err))
	case !m.loaded:
		title += t.Muted.Render(" · " + widget.SpinnerFrame(m.s.Now()) + " loading…")
	default:
		title += t.Muted.Render(" · " + plural(len(m.list), "access", "accesses"))
	}
	return ui.Fit(strings.Join(own, "\n")+"\n\n"+title+"\n"+t.Muted.Render(legend())+"\n"+m.table.View(), m.w, m.h)
}

// explain turns a listing error into what the user can do about it.
func explain(err error) string {
	if errors.Is(err, api.ErrForbidden) {
		return "this access may not list sub-accesses (" + ui.ErrorText(err) + ")"
	}
	return "could not list sub-accesses: " + ui.ErrorText(err) + " · r retries"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
