package accesses

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	if (w < narrowMatrix) != (m.w < narrowMatrix) || m.w == 0 {
		m.w = w
		m.list.Redraw(columns(w)...)
	}
	m.w, m.h = w, h
	m.list.SetSize(w, max(h-len(m.ownLines())-m.tabLines()-m.spacing()-2, 0))
	m.apiKeys.SetSize(w, max(h-len(m.ownLines())-m.tabLines()-m.spacing()-1, 0))
	if m.form != nil {
		m.form.SetSize(w, h)
	}
}

// compactBelow is the height under which the screen drops the blank line
// under the caller's access and the matrix's legend, so that rows of the
// matrix still show (40x12).
const compactBelow = 16

// spacing is the blank line under the caller's access block (none when
// compact).
func (m *Screen) spacing() int {
	if m.h < compactBelow {
		return 0
	}
	return 1
}

// tabLines is the height of the tabs line: shown to managers only.
func (m *Screen) tabLines() int {
	if m.manager() {
		return 1
	}
	return 0
}

// tabsLine names the two tabs, the one shown in brackets.
func (m *Screen) tabsLine() string {
	t := m.s.Styles()
	label := func(title string, l interface{ Len() int }, loaded bool) string {
		if loaded {
			return fmt.Sprintf("%s %d", title, l.Len())
		}
		return title
	}
	tabs := []string{label("Accesses", m.list, m.list.Loaded()), label("Your API keys", m.apiKeys, m.apiKeys.Loaded())}
	for i := range tabs {
		if i == m.tab {
			tabs[i] = t.ActiveTab.Render("[" + tabs[i] + "]")
		} else {
			tabs[i] = t.Tab.Render(" " + tabs[i] + " ")
		}
	}
	return strings.Join(tabs, " ") + t.Muted.Render("  ←/→")
}

// writeHint says what the administration keys do on the tab shown, or why
// they are off.
func (m *Screen) writeHint() string {
	t := m.s.Styles()
	if err := m.canManage(); err != nil {
		return t.Muted.Render(" · read only: " + ui.ErrorText(err))
	}
	if m.tab == tabKeys {
		if m.keeper == nil {
			return t.Muted.Render(" · e allow-list · d revoke (no keyring here to keep a new key)")
		}
		return t.Muted.Render(" · n new · e allow-list · d revoke (each asks a TOTP code)")
	}
	return t.Muted.Render(" · n invite · e permissions · d revoke (each asks a TOTP code)")
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
	if m.form != nil {
		m.form.SetSize(m.w, m.h)
		return m.form.View()
	}
	t := m.s.Styles()
	own := m.ownLines()
	head := strings.Join(own, "\n") + "\n" + strings.Repeat("\n", m.spacing())
	if m.manager() {
		head += m.tabsLine() + "\n"
	}
	if m.tab == tabKeys {
		m.apiKeys.SetSize(m.w, max(m.h-len(own)-m.tabLines()-m.spacing()-1, 0))
		title := t.Title.Render("Your API keys") + t.Muted.Render(" · prefixes only") + m.writeHint()
		switch err := m.apiKeys.Err; {
		case err != nil:
			m.apiKeys.SetEmpty("API keys not available")
		case m.apiKeys.Loaded():
			m.apiKeys.SetEmpty("no API keys: n makes one")
		}
		return ui.Fit(head+title+"\n"+m.apiKeys.View(""), m.w, m.h)
	}
	// The own block grows when the access info arrives.
	legendLine := t.Muted.Render(legend()) + "\n"
	if m.h < compactBelow {
		legendLine = ""
	}
	m.list.SetSize(m.w, max(m.h-len(own)-m.tabLines()-m.spacing()-1-min(len(legendLine), 1), 0))
	title := t.Title.Render("Sub-accesses") + t.Muted.Render(" · permission matrix (✓ has it)")
	if m.manager() {
		title += m.writeHint()
	}
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
	return ui.Fit(head+title+"\n"+legendLine+m.list.View(""), m.w, m.h)
}
