package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// View renders the whole window in the alternate screen.
func (r *Root) View() tea.View {
	v := tea.NewView(r.render())
	v.AltScreen = true
	v.WindowTitle = "Tesouro"
	return v
}

// render lays the window out from r.layout, top to bottom.
func (r *Root) render() string {
	if r.quitting {
		return ""
	}
	l := r.layout
	w := l.Width
	parts := make([]string, 0, 6)
	if l.Header > 0 {
		parts = append(parts, Truncate(r.headerView(w), w))
	}
	if l.Tabs > 0 {
		parts = append(parts, Truncate(r.tabsView(w), w))
	}
	if l.Notice > 0 {
		parts = append(parts, Truncate(r.theme.Notice.Render("⚠ "+r.notice()), w))
	}
	if l.Content > 0 {
		parts = append(parts, Fit(r.contentView(w, l.Content), w, l.Content))
	}
	if l.Input > 0 {
		parts = append(parts, Truncate(r.inputLine(), w))
	}
	if l.Footer > 0 {
		parts = append(parts, r.footerView(w))
	}
	return strings.Join(parts, "\n")
}

// headerView: on the left the environment badge, the operated account and
// the RO / FROZEN / BLACKLISTED badges, which must never be cut; on the
// right the access e-mail and the profile (or sandbox), cut first when the
// window is narrow.
func (r *Root) headerView(w int) string {
	t := r.theme
	var badge string
	if r.opts.Env == EnvProduction {
		badge = t.Production.Render("PRODUCTION")
	} else {
		badge = t.Sandbox.Render("SANDBOX")
	}
	if t.NoColor {
		badge = "[" + badge + "]"
	}
	label := t.HeaderKey.Render("account ")
	if w < 60 {
		label = ""
	}
	left := badge + " " + label + t.Value.Bold(true).Render(r.accountLabel())
	s := r.session
	if r.opts.ReadOnly {
		left += " " + r.badge("RO")
	}
	if s != nil && s.Access != nil && s.Access.Frozen(s.Now()) {
		left += " " + r.badge("FROZEN")
	}
	if s != nil && s.Blacklisted() {
		left += " " + r.badge("BLACKLISTED")
	}
	var right []string
	if r.opts.Email != "" {
		right = append(right, t.Header.Render(r.opts.Email))
	}
	switch {
	case r.opts.Embedded:
		right = append(right, t.Header.Render("embedded sandbox"))
	case r.opts.Profile != "":
		right = append(right, t.HeaderKey.Render("profile ")+t.Header.Render(r.opts.Profile))
	case r.opts.Label != "":
		right = append(right, t.Header.Render(r.opts.Label))
	}
	rs := strings.Join(right, t.HeaderKey.Render(" · "))
	lw := lipgloss.Width(left)
	room := w - lw - 3
	if room < 8 || rs == "" {
		return left
	}
	rs = Truncate(rs, room)
	return left + strings.Repeat(" ", w-lw-lipgloss.Width(rs)) + rs
}

func (r *Root) badge(text string) string {
	if r.theme.NoColor {
		return r.theme.Badge.Render("[" + text + "]")
	}
	return r.theme.Badge.Render(text)
}

func (r *Root) accountLabel() string {
	switch {
	case r.resolving != "" && r.resolveErr != nil:
		return r.resolving + " (" + r.resolveWhy + ")"
	case r.resolving != "":
		return r.resolving + " (resolving…)"
	case r.session == nil && r.connErr != nil:
		return "—"
	case r.session == nil:
		return "…"
	}
	return r.session.AccountName()
}

// notice says why write actions are disabled or limited, or "".
func (r *Root) notice() string {
	s := r.session
	if r.opts.ReadOnly {
		return "read-only session (--readonly): write actions are hidden"
	}
	if s == nil || s.Access == nil {
		return ""
	}
	if err := s.Can(ActWrite); err != nil {
		return err.Error() + ": write actions are hidden"
	}
	var missing []string
	p := s.Access.AccountPermissions
	if !p.PayOut {
		missing = append(missing, "payOut")
	}
	if !p.Markup {
		missing = append(missing, "markup")
	}
	if !p.Beneficiary {
		missing = append(missing, "beneficiary")
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "this access lacks "+strings.Join(missing, ", "))
	}
	if s.Can(ActCreateTicket) != nil {
		parts = append(parts, "it may not create tickets")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": those actions are hidden"
}

// The lengths the tabs read at, longest first. One is chosen for every
// tab from the window's width alone, so the bar reads the same on every
// screen and no tab moves when another is shown; below the full titles,
// the shown screen's title follows the tabs.
const (
	tabFull  = iota // "1 Overview  2 Quote  …"
	tabShort        // "1 Home  2 Qte  …  Overview"
	tabTight        // "1Home 2Qte …  Overview"
	tabKeys         // "1 2 3 …  Overview"
)

// tabCountRoom is the room kept for a count a tab may carry
// ("Approvals (12)"), so that a count does not change the length chosen.
const tabCountRoom = 5

// tabsView: every screen's key and name, at the length the width allows,
// the shown one marked (reverse video, readable without colour).
func (r *Root) tabsView(w int) string {
	n := len(r.screens)
	if n == 0 {
		return ""
	}
	// The bar is drawn again only when what it shows changed.
	titles := make([]string, n)
	for i := range n {
		titles[i] = r.title(i)
	}
	k := chromeKey{w: w, n: r.active, theme: r.theme, text: strings.Join(titles, "\x00")}
	return r.chrome.get(k, func() string { return r.drawTabs(w) })
}

// chromeKey is what the tab bar or the footer's hints are drawn from: the
// room, the shown screen (or the mode), the theme and the texts.
type chromeKey struct {
	w, n  int
	theme *Theme
	text  string
}

// drawTabs is tabsView drawn.
func (r *Root) drawTabs(w int) string {
	// Below the full titles, a length is chosen with room for the longest
	// title after the tabs, so that the shown one is named on every
	// screen; short of that, the tight names alone, else the keys.
	longest := 0
	for _, f := range r.factories {
		longest = max(longest, lipgloss.Width(f.Title))
	}
	level := tabKeys
	switch {
	case r.tabsWidth(tabFull) <= w:
		level = tabFull
	case r.tabsWidth(tabShort)+2+longest <= w:
		level = tabShort
	case r.tabsWidth(tabTight) <= w:
		level = tabTight
	}
	bar := r.renderTabs(level)
	if level != tabFull {
		// The shown screen's title follows the tabs when it fits whole.
		if title := "  " + r.theme.Title.Render(r.title(r.active)); lipgloss.Width(bar)+lipgloss.Width(title) <= w {
			bar += title
		}
	}
	return bar
}

// tabsWidth is the width of the bar at level, from the screens' own
// titles and the room kept for a count: the same whichever is shown.
func (r *Root) tabsWidth(level int) int {
	w := tabCountRoom
	for i := range r.factories {
		w += lipgloss.Width(r.tabLabel(i, level, r.factories[i].Title))
		if i > 0 {
			w += len(tabSeparator(level))
		}
	}
	if level == tabKeys {
		w += 2 + lipgloss.Width(r.factories[r.active].Title)
	}
	return w
}

func tabSeparator(level int) string {
	if level == tabFull || level == tabShort {
		return "  "
	}
	return " "
}

func (r *Root) renderTabs(level int) string {
	t := r.theme
	var b strings.Builder
	for i := range r.screens {
		if i > 0 {
			b.WriteString(t.Tab.Render(tabSeparator(level)))
		}
		label := r.tabLabel(i, level, r.title(i))
		if i == r.active {
			b.WriteString(t.ActiveTab.Render(label))
		} else {
			b.WriteString(t.Tab.Render(label))
		}
	}
	return b.String()
}

// tabLabel is tab i at level: its key, then its title, or its short
// name followed by the count its title carries.
func (r *Root) tabLabel(i, level int, title string) string {
	k := screenKey(i)
	count := strings.TrimSpace(strings.TrimPrefix(title, r.factories[i].Title))
	name := r.short(i)
	if count != "" {
		name += " " + count
	}
	switch level {
	case tabFull:
		return strings.TrimSpace(k + " " + title)
	case tabShort:
		return strings.TrimSpace(k + " " + name)
	case tabTight:
		return k + name
	}
	if k == "" {
		return r.short(i)
	}
	return k
}

// short is the short name of screen i: its factory's, or the start of its
// title.
func (r *Root) short(i int) string {
	if s := r.factories[i].Short; s != "" {
		return s
	}
	title := []rune(r.factories[i].Title)
	return string(title[:min(len(title), 4)])
}

// contentView is the active screen, or what stands over it.
func (r *Root) contentView(w, h int) string {
	t := r.theme
	switch {
	case r.confirm != nil:
		return r.confirmView(w, h)
	case r.switcher != nil:
		return r.switcher.view(w, h)
	case r.help:
		return r.helpView(w, h)
	case r.connecting:
		what := "Connecting to the service…"
		if r.opts.Embedded {
			what = "Starting the embedded sandbox…"
		}
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, widget.SpinnerFrame(r.now())+" "+what)
	case r.connErr != nil:
		return paragraph(t.Error, "✗ Could not connect: "+r.connErr.Error(), w) + "\n\n" +
			paragraph(t.Muted, "Check the profile (tesouro profile show), the keyring and the network, then start again. q quits.", w)
	case r.resolveErr != nil:
		return paragraph(t.Error, "✗ "+r.resolveErr.Error(), w) + "\n\n" +
			paragraph(t.Muted, "Press S to choose an account, or q to quit.", w)
	case r.session != nil && r.resolving != "":
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, widget.SpinnerFrame(r.now())+" Finding sub-account "+r.resolving+"…")
	}
	if s := r.Active(); s != nil {
		return s.View()
	}
	return ""
}

// paragraph renders text wrapped to w cells.
func paragraph(st lipgloss.Style, text string, w int) string {
	return st.Width(max(w, 1)).Render(text)
}

func (r *Root) now() time.Time { return r.clock().Now() }

// clock is the dashboard's clock, the system's unless Options set one.
func (r *Root) clock() Clock {
	if r.opts.Clock != nil {
		return r.opts.Clock
	}
	return SystemClock{}
}

// title is the tab title of screen i: the built screen's own (it may carry
// a count), else its factory's.
func (r *Root) title(i int) string {
	if s := r.screens[i]; s != nil {
		return s.Title()
	}
	return r.factories[i].Title
}

// inputLine is the command, filter or prompt line.
func (r *Root) inputLine() string {
	switch {
	case r.prompt != nil:
		return r.promptLine()
	case r.cmd != nil:
		return r.commandLineView()
	case r.filter != nil:
		return r.filter.View()
	}
	return ""
}

// footerView: live key hints (or a toast) on the left; the filter, requests
// in flight and the last refresh on the right.
func (r *Root) footerView(w int) string {
	t := r.theme
	var right []string
	if q := r.filters[r.activeID()]; q != "" && r.filter == nil {
		right = append(right, t.Status.Render("filter: "+q))
	}
	if s := r.session; s != nil {
		if n := s.InFlight(); n > 0 {
			right = append(right, t.Status.Render(fmt.Sprintf("%s %d in flight", widget.SpinnerFrame(r.now()), n)))
		}
	}
	toast := r.toast
	if toast != nil && toast.screen != r.activeID() {
		toast = nil // it told of another screen
	}
	if r.Mode() == ModeNormal && toast == nil {
		right = append(right, t.HintKey.Render("?")+" "+t.HintDesc.Render("help"))
	}
	rs := strings.Join(right, t.Status.Render(" · "))
	var left string
	switch {
	case r.reachBanner() != "" && r.Mode() != ModePrompt && r.cmd == nil && r.filter == nil:
		// The service does not answer: said at once, in the footer's
		// place, so that nothing above moves.
		return Truncate(t.Error.Render("✗ "+r.reachBanner()), w)
	case r.prompt != nil && r.confirm == nil:
		left = r.promptStatus()
	case r.cmd != nil && r.confirm == nil:
		left = r.commandStatus()
	case r.filter != nil:
		left = t.HintKey.Render("enter") + t.HintDesc.Render(" keep filter  ") + t.HintKey.Render("esc") + t.HintDesc.Render(" clear")
	case toast != nil:
		// The toast goes first; the key hints stay after it as far as
		// they fit, so a toast never hides what the keys do.
		left = t.toastView(toast)
		room := w - lipgloss.Width(rs) - 1 - lipgloss.Width(left) - 3
		if hints := r.hintsFit(room); hints != "" {
			left += "   " + hints
		}
	default:
		left = r.hintsFit(w - lipgloss.Width(rs) - 1)
	}
	return Spread(left, rs, w)
}

// hintBindings are the short help: the screen's live bindings, then the
// global ones that matter in this mode.
func (r *Root) hintBindings() []key.Binding {
	var bs []key.Binding
	switch r.Mode() {
	case ModePrompt, ModeCommand, ModeFilter:
		return nil
	case ModeHelp:
		closeHelp := r.keys.Help
		closeHelp.SetHelp("?/esc/q", "close help")
		bs = []key.Binding{closeHelp}
	case ModeForm:
		if s := r.Active(); s != nil {
			bs = s.KeyMap()
		}
	default:
		if s := r.Active(); s != nil {
			for _, b := range s.KeyMap() {
				if !navigationOnly(b) {
					bs = append(bs, b)
				}
			}
		}
		bs = append(bs, r.globalBindings(true)...)
	}
	return bs
}

// hintsFit is the short help in room cells: whole hints only, as many as fit,
// so that no hint is read cut ("n new quot…"); help (?) lists the rest.
func (r *Root) hintsFit(room int) string {
	bs := r.hintBindings()
	if len(bs) == 0 {
		return ""
	}
	var text strings.Builder
	for _, b := range bs {
		if b.Enabled() {
			text.WriteString(b.Help().Key + "\x00" + b.Help().Desc + "\x00")
		}
	}
	k := chromeKey{w: room, n: -1, theme: r.theme, text: text.String()}
	return r.chrome.get(k, func() string { return fitHints(r.renderHints(bs), room) })
}

// fitHints is as many of the rendered hints all as fit in room cells.
func fitHints(all string, room int) string {
	if lipgloss.Width(all) <= room {
		return all
	}
	parts := strings.Split(all, "  ")
	out := ""
	for _, p := range parts {
		next := p
		if out != "" {
			next = out + "  " + p
		}
		if lipgloss.Width(next) > room {
			break
		}
		out = next
	}
	return out
}

// navigationKeys move a cursor; every list has them, so the footer leaves
// them to full help and keeps its room for the screen's actions.
var navigationKeys = map[string]bool{
	"up": true, "down": true, "k": true, "j": true, "pgup": true, "pgdown": true,
	"home": true, "end": true, "g": true, "G": true, "left": true, "right": true, "h": true, "l": true,
}

func navigationOnly(b key.Binding) bool {
	if len(b.Keys()) == 0 {
		return false
	}
	for _, k := range b.Keys() {
		if !navigationKeys[k] {
			return false
		}
	}
	return true
}

func (r *Root) renderHints(bs []key.Binding) string {
	t := r.theme
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		if !b.Enabled() || b.Help().Key == "" {
			continue
		}
		parts = append(parts, t.HintKey.Render(b.Help().Key)+" "+t.HintDesc.Render(b.Help().Desc))
	}
	return strings.Join(parts, "  ")
}

// globalBindings are the global keys live now; short keeps the few worth a
// footer hint.
func (r *Root) globalBindings(short bool) []key.Binding {
	k := r.keys
	filter := k.Filter
	filter.SetEnabled(r.filterable())
	sw := k.Switch
	sw.SetEnabled(r.session != nil)
	back := k.Back
	back.SetEnabled(len(r.history) > 0)
	if short {
		// The footer's room is scarce: the same keys, shorter words.
		filter.SetHelp("/", "filter")
		sw.SetHelp("S", "account")
		cmd := k.Command
		cmd.SetHelp(":", "cmd")
		return []key.Binding{filter, sw, cmd, k.Quit}
	}
	return []key.Binding{k.Screens, k.Next, k.Prev, filter, sw, k.Command, back, k.Help, k.Quit, k.Interrupt}
}
