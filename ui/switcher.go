package ui

import (
	"context"
	"fmt"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"sort"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/api"
)

// switcher is the account popup: every account the access may operate, a
// fuzzy filter typed straight into it, accounts the access is blacklisted
// from shown but disabled. Enter switches; esc closes.
type switcher struct {
	theme    *Theme
	input    textinput.Model
	all      []switchItem
	shown    []int // indexes into all, best match first
	cursor   int
	offset   int
	w, h     int
	loading  bool
	err      error
	accounts []api.Account
	barred   []api.Account
	session  *Session
	// said is why the last enter did not switch, shown in the popup
	// (the footer's toast may be out of sight behind it).
	said string
}

type switchItem struct {
	account   Account
	kind      string // "main" or "sub-account"
	disabled  string // why it cannot be chosen, "" when it can
	isCurrent bool
}

// switcherAccountsMsg carries the accounts the switcher lists.
type switcherAccountsMsg struct {
	accounts, barred []api.Account
	err              error
}

func (r *Root) openSwitcher() tea.Cmd {
	if r.session == nil {
		return Toast(ToastInfo, "Not connected yet")
	}
	in := widget.NewInput()
	in.Prompt = "account> "
	in.Placeholder = "type to filter"
	sw := &switcher{theme: r.theme, input: in, session: r.session, barred: r.barred}
	r.switcher = sw
	r.relayout()
	focus := sw.input.Focus()
	if accs := r.session.Accounts; len(accs) > 0 {
		sw.accounts = accs
		sw.rebuild()
		return focus
	}
	sw.loading = true
	s := r.session
	return tea.Batch(focus, r.request(s, func(ctx context.Context) (tea.Msg, error) {
		accs, err := s.Client.ListAccounts(ctx)
		var barred []api.Account
		if err == nil {
			barred = barredAccounts(ctx, s.Client, accs)
		}
		return switcherAccountsMsg{accounts: accs, barred: barred, err: err}, nil
	}))
}

func (sw *switcher) setAccounts(msg switcherAccountsMsg) {
	sw.loading = false
	if msg.err != nil {
		sw.err = msg.err
		return
	}
	sw.accounts, sw.barred = msg.accounts, msg.barred
	sw.rebuild()
}

func (sw *switcher) rebuild() {
	s := sw.session
	sw.all = sw.all[:0]
	for i := range sw.accounts {
		acc, isMain := listedAccount(sw.accounts, i)
		it := switchItem{account: acc, kind: "sub-account", isCurrent: acc.ID == s.Account.ID}
		if isMain {
			it.kind = "main"
		}
		if s.Access != nil && s.WithAccount(acc).Blacklisted() {
			it.disabled = "blacklisted"
		}
		sw.all = append(sw.all, it)
	}
	for _, a := range withBlacklisted(sw.barred, sw.accounts, s) {
		sw.all = append(sw.all, switchItem{account: Account{ID: a.ID, Name: a.Name}, kind: "sub-account", disabled: barredReason(s, a.ID)})
	}
	sw.refilter()
}

func (sw *switcher) refilter() {
	q := sw.input.Value()
	type scored struct{ i, score int }
	var ms []scored
	for i, it := range sw.all {
		if sc, ok := FuzzyMatch(q, it.account.Name+" "+it.kind); ok {
			ms = append(ms, scored{i, sc})
		}
	}
	if q != "" {
		sort.SliceStable(ms, func(a, b int) bool { return ms[a].score > ms[b].score })
	}
	sw.shown = sw.shown[:0]
	for _, m := range ms {
		sw.shown = append(sw.shown, m.i)
	}
	sw.cursor, sw.offset = 0, 0
	// Start on the first account that can be chosen.
	for i, idx := range sw.shown {
		if sw.all[idx].disabled == "" {
			sw.cursor = i
			break
		}
	}
	sw.clamp()
}

func (sw *switcher) setSize(w, h int) {
	sw.w, sw.h = w, h
	sw.input.SetWidth(max(min(w, 60)-16, 1))
	sw.clamp()
}

// listHeight is how many accounts fit in the popup.
func (sw *switcher) listHeight() int { return max(sw.h-6, 1) }

func (sw *switcher) clamp() {
	n := sw.listHeight()
	if sw.cursor < sw.offset {
		sw.offset = sw.cursor
	}
	if sw.cursor >= sw.offset+n {
		sw.offset = sw.cursor - n + 1
	}
	sw.offset = max(min(sw.offset, len(sw.shown)-n), 0)
}

func (sw *switcher) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	before := sw.input.Value()
	sw.input, cmd = sw.input.Update(msg)
	if sw.input.Value() != before {
		sw.refilter()
	}
	return cmd
}

func (sw *switcher) move(d int) {
	if len(sw.shown) == 0 {
		return
	}
	sw.cursor = max(min(sw.cursor+d, len(sw.shown)-1), 0)
	sw.clamp()
}

// switcherKey handles a key while the switcher is open.
func (r *Root) switcherKey(msg tea.KeyPressMsg) tea.Cmd {
	sw := r.switcher
	switch msg.String() {
	case "esc", "ctrl+c":
		r.switcher = nil
		r.relayout()
		return nil
	case "up", "ctrl+p", "ctrl+k":
		sw.move(-1)
		return nil
	case "down", "ctrl+n", "ctrl+j":
		sw.move(1)
		return nil
	case "pgup":
		sw.move(-sw.listHeight())
		return nil
	case "pgdown":
		sw.move(sw.listHeight())
		return nil
	case "enter":
		if sw.cursor >= len(sw.shown) {
			sw.said = fmt.Sprintf("no account matches %q: esc closes, backspace widens the search", sw.input.Value())
			return nil
		}
		it := sw.all[sw.shown[sw.cursor]]
		if it.disabled != "" {
			sw.said = unoperable(it.account.Name, it.disabled)
			return Toast(ToastError, sw.said)
		}
		r.switcher = nil
		r.relayout()
		if it.isCurrent && len(r.screens) > 0 {
			return nil
		}
		return r.requestSwitch(it.account)
	}
	sw.said = ""
	return sw.update(msg)
}

// view renders the popup centred in w×h.
func (sw *switcher) view(w, h int) string {
	t := sw.theme
	inner := max(min(w-4, 60), 10)
	var b strings.Builder
	b.WriteString(t.BoxTitle.Render("Operate which account?") + "\n")
	b.WriteString(sw.input.View() + "\n")
	switch {
	case sw.loading:
		b.WriteString(t.Muted.Render("loading accounts…"))
	case sw.err != nil:
		b.WriteString(t.Error.Render("✗ could not list accounts: " + ErrorText(sw.err)))
	case len(sw.shown) == 0:
		b.WriteString(t.Muted.Render("no account matches"))
	default:
		n := sw.listHeight()
		end := min(sw.offset+n, len(sw.shown))
		lines := make([]string, 0, end-sw.offset)
		for i := sw.offset; i < end; i++ {
			it := sw.all[sw.shown[i]]
			mark := "  "
			if i == sw.cursor {
				mark = "▶ "
			}
			label := it.account.Name
			if it.account.Name == "" {
				label = displayName(it.account)
			}
			tags := []string{it.kind}
			if it.isCurrent {
				tags = append(tags, "current")
			}
			if it.disabled != "" {
				tags = append(tags, it.disabled)
			}
			line := Spread(mark+label, "("+strings.Join(tags, ", ")+")", inner)
			switch {
			case i == sw.cursor:
				line = t.Selected.Render(line)
			case it.disabled != "":
				line = t.Disabled.Render(line)
			}
			lines = append(lines, line)
		}
		b.WriteString(strings.Join(lines, "\n"))
	}
	if sw.said != "" {
		b.WriteString("\n" + t.Error.Width(inner).Render("✗ "+sw.said))
	}
	b.WriteString("\n" + t.HintKey.Render("enter") + t.HintDesc.Render(" switch · ") + t.HintKey.Render("↑/↓") + t.HintDesc.Render(" move · ") + t.HintKey.Render("esc") + t.HintDesc.Render(" close"))
	box := t.Box.Width(inner + 4).Render(b.String())
	if lipgloss.Height(box) > h || lipgloss.Width(box) > w {
		return b.String()
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}
