package ui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Theme holds every style of the dashboard, built once for the terminal's
// background (light or dark) and for NO_COLOR. Screens take their styles from
// Session.Theme instead of making their own, so that the whole dashboard
// changes together when the background is learnt.
//
// Under NO_COLOR no colour is emitted at all: the selection is reverse video,
// badges are bold text in brackets, and every status also has a word or a
// symbol, so nothing is conveyed by colour alone.
type Theme struct {
	Dark    bool
	NoColor bool

	// Header badges.
	Sandbox    lipgloss.Style // SANDBOX (amber)
	Production lipgloss.Style // PRODUCTION (red)
	Badge      lipgloss.Style // RO, FROZEN
	Header     lipgloss.Style // the header line
	HeaderKey  lipgloss.Style // "account:" labels
	Notice     lipgloss.Style // why actions are disabled

	// Tabs.
	Tab       lipgloss.Style
	ActiveTab lipgloss.Style

	// Footer.
	Footer    lipgloss.Style
	HintKey   lipgloss.Style
	HintDesc  lipgloss.Style
	Status    lipgloss.Style // in-flight, last refresh
	ToastInfo lipgloss.Style
	ToastOK   lipgloss.Style
	ToastErr  lipgloss.Style

	// Content.
	Title    lipgloss.Style // section titles inside a screen
	Label    lipgloss.Style // "Email" in a key/value block
	Value    lipgloss.Style
	Muted    lipgloss.Style
	Good     lipgloss.Style // PAID, allowed
	Warn     lipgloss.Style // PENDING, expiring
	Bad      lipgloss.Style // FAILED, denied
	Error    lipgloss.Style // error messages in content
	Amount   lipgloss.Style // money, right aligned by the caller
	Selected lipgloss.Style // the selected row: reverse video, visible without colour
	Disabled lipgloss.Style // rows or actions not available
	Cell     lipgloss.Style
	TableHdr lipgloss.Style

	// Overlays (help, prompt, confirm, switcher).
	Box      lipgloss.Style
	BoxTitle lipgloss.Style
	Input    lipgloss.Style
	Accent   color.Color // nil under NO_COLOR
}

// palette is one set of colours for a background.
type palette struct {
	fg, muted, accent, amber, red, green, yellow, blue, subtle, onBadge color.Color
}

func paletteFor(dark bool) palette {
	ld := lipgloss.LightDark(dark)
	p := palette{
		fg:      ld(lipgloss.Color("#1f2328"), lipgloss.Color("#e6edf3")),
		muted:   ld(lipgloss.Color("#656d76"), lipgloss.Color("#8b949e")),
		accent:  ld(lipgloss.Color("#0550ae"), lipgloss.Color("#79c0ff")),
		amber:   ld(lipgloss.Color("#bf8700"), lipgloss.Color("#d29922")),
		red:     ld(lipgloss.Color("#cf222e"), lipgloss.Color("#f85149")),
		green:   ld(lipgloss.Color("#1a7f37"), lipgloss.Color("#3fb950")),
		yellow:  ld(lipgloss.Color("#9a6700"), lipgloss.Color("#e3b341")),
		blue:    ld(lipgloss.Color("#0969da"), lipgloss.Color("#58a6ff")),
		subtle:  ld(lipgloss.Color("#d0d7de"), lipgloss.Color("#30363d")),
		onBadge: lipgloss.Color("#000000"),
	}
	// The user's colours from config.toml, by role (ThemeRoles).
	o := installed.Load()
	for role, c := range map[string]*color.Color{"text": &p.fg, "muted": &p.muted, "accent": &p.accent, "sandbox": &p.amber,
		"danger": &p.red, "good": &p.green, "warn": &p.yellow, "info": &p.blue, "subtle": &p.subtle, "on-badge": &p.onBadge} {
		*c = o.color(role, *c)
	}
	return p
}

// NewTheme builds the styles for a dark or light background; noColor drops
// every colour (NO_COLOR) and keeps only attributes.
func NewTheme(dark, noColor bool) *Theme {
	s := lipgloss.NewStyle
	if noColor {
		return &Theme{
			Dark: dark, NoColor: true,
			Sandbox: s().Bold(true), Production: s().Bold(true).Reverse(true), Badge: s().Bold(true),
			Header: s(), HeaderKey: s(), Notice: s().Bold(true),
			Tab: s(), ActiveTab: s().Bold(true).Reverse(true),
			Footer: s(), HintKey: s().Bold(true), HintDesc: s(), Status: s(),
			ToastInfo: s(), ToastOK: s().Bold(true), ToastErr: s().Bold(true),
			Title: s().Bold(true).Underline(true), Label: s(), Value: s().Bold(true), Muted: s(),
			Good: s(), Warn: s().Bold(true), Bad: s().Bold(true), Error: s().Bold(true),
			Amount: s(), Selected: s().Reverse(true), Disabled: s(), Cell: s(), TableHdr: s().Bold(true).Underline(true),
			Box: s().Border(lipgloss.NormalBorder()).Padding(0, 1), BoxTitle: s().Bold(true),
			Input: s(),
		}
	}
	p := paletteFor(dark)
	return &Theme{
		Dark:       dark,
		Sandbox:    s().Bold(true).Foreground(p.onBadge).Background(p.amber).Padding(0, 1),
		Production: s().Bold(true).Foreground(lipgloss.Color("#ffffff")).Background(p.red).Padding(0, 1),
		Badge:      s().Bold(true).Foreground(p.onBadge).Background(p.yellow).Padding(0, 1),
		Header:     s().Foreground(p.fg),
		HeaderKey:  s().Foreground(p.muted),
		Notice:     s().Foreground(p.yellow),
		Tab:        s().Foreground(p.muted),
		ActiveTab:  s().Bold(true).Foreground(p.accent).Reverse(true),
		Footer:     s().Foreground(p.muted),
		HintKey:    s().Bold(true).Foreground(p.accent),
		HintDesc:   s().Foreground(p.muted),
		Status:     s().Foreground(p.muted),
		ToastInfo:  s().Foreground(p.blue),
		ToastOK:    s().Bold(true).Foreground(p.green),
		ToastErr:   s().Bold(true).Foreground(p.red),
		Title:      s().Bold(true).Foreground(p.accent),
		Label:      s().Foreground(p.muted),
		Value:      s().Foreground(p.fg),
		Muted:      s().Foreground(p.muted),
		Good:       s().Foreground(p.green),
		Warn:       s().Foreground(p.yellow),
		Bad:        s().Foreground(p.red),
		Error:      s().Bold(true).Foreground(p.red),
		Amount:     s().Foreground(p.fg),
		Selected:   s().Reverse(true).Bold(true),
		Disabled:   s().Foreground(p.muted).Faint(true),
		Cell:       s().Foreground(p.fg),
		TableHdr:   s().Bold(true).Foreground(p.accent),
		Box:        s().Border(lipgloss.RoundedBorder()).BorderForeground(p.accent).Padding(0, 1),
		BoxTitle:   s().Bold(true).Foreground(p.accent),
		Input:      s().Foreground(p.fg),
		Accent:     p.accent,
	}
}

// Set replaces the theme's styles in place, so that every holder of the
// pointer sees the new ones.
func (t *Theme) Set(n *Theme) { *t = *n }
