// Package accesses is the Accesses screen: the caller's own access, and the
// account's sub-accesses with their permission matrix (one row per access,
// one column per permission, ✓ or · so it reads without colour).
//
// To an access with manageAccesses it is also where the team is
// administered: invite an access (its e-mail, and each permission flag with
// what it allows in words), change an access's flags, revoke it; and, on its
// API keys tab, list the access's own API keys, create one for a key pair
// made on the spot (the private key goes straight into the keyring of a new
// profile, never to the screen or a file), change a key's IP allow-list,
// revoke a key. Every such write is confirmed with what changes, then asks
// for the current TOTP code, and is journaled. An access without
// manageAccesses sees the list alone, as before: no tab, no key, no hint.
package accesses

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// The screen's tabs (shown to managers only).
const (
	tabAccesses = iota
	tabKeys
)

// Screen is the Accesses screen.
type Screen struct {
	s      *ui.Session
	svc    Service
	keeper Keeper
	w, h   int
	// list holds the sub-accesses; its Slot drops an older load's answer
	// and one of another account's screen.
	list *listing.List[api.Access]
	// apiKeys holds the access's own API keys, loaded when its tab is
	// first shown.
	apiKeys *listing.List[api.APIKeyInfo]
	tab     int
	// form is the open invitation, permissions or API key form (nil when
	// the lists are shown).
	form *form.Form
	// submit builds the write of the open form once its fields passed
	// their checks.
	submit func(*form.Form) *write

	keys keyMap
}

type keyMap struct {
	Copy, Refresh, Tabs, Next key.Binding
	Invite, Change, Revoke    key.Binding
	NewKey, Allow, RevokeKey  key.Binding
}

// permission is one column of the matrix: its title, the flag in words
// for the legend, and its wire name.
type permission struct {
	title, name, key string
}

// on reports whether p holds the column's flag.
func (c permission) on(p api.Permissions) bool { return *p.Flag(c.key) }

// matrix are the matrix's columns, in the service's order.
var matrix = []permission{
	{"Adm", "admin", "admin"},
	{"In", "payIn", "payIn"},
	{"Out", "payOut", "payOut"},
	{"Cnv", "convert", "convert"},
	{"Chn", "onChain", "onChain"},
	{"VO", "viewOnly", "viewOnly"},
	{"Mkp", "markup", "markup"},
	{"Ben", "beneficiary", "beneficiary"},
	{"Alw", "allowed beneficiaries only", "enforceAllowedBeneficiaries"},
	{"Req", "operation requester", "operationRequester"},
	{"Apr", "operation approver", "operationApprover"},
	{"Whk", "manage webhooks", "manageWebhooks"},
	{"Acs", "manage accesses", "manageAccesses"},
}

// narrowMatrix is the width under which the Frozen column drops its date,
// so that the e-mail keeps room enough to tell the accesses apart.
const narrowMatrix = 100

// columns are the matrix's at width w: the e-mail, one per permission,
// MFA, frozen (its date only from narrowMatrix columns).
func columns(w int) []widget.Column {
	cols := []widget.Column{{Title: "E-mail"}}
	for _, p := range matrix {
		cols = append(cols, widget.Column{Title: p.title, Width: len(p.title)})
	}
	frozen := 17
	if w < narrowMatrix {
		frozen = 6
	}
	return append(cols, widget.Column{Title: "MFA", Width: 3}, widget.Column{Title: "Frozen", Width: frozen})
}

// New builds the screen for a session. keeper files the key pairs of the
// API keys made here; nil offers no API key creation.
func New(s *ui.Session, svc Service, keeper Keeper) ui.Screen {
	m := &Screen{
		s:      s,
		svc:    svc,
		keeper: keeper,
		keys: keyMap{
			Copy:      ui.Binding("y", "copy access id", "y"),
			Refresh:   ui.Binding("r", "refresh", "r"),
			Tabs:      ui.Binding("←/→", "accesses · API keys", "left", "h", "["),
			Next:      key.NewBinding(key.WithKeys("right", "l", "]")),
			Invite:    ui.Binding("n", "invite access", "n"),
			Change:    ui.Binding("e", "change permissions", "e"),
			Revoke:    ui.Binding("d", "revoke access", "d", "delete"),
			NewKey:    ui.Binding("n", "new API key", "n"),
			Allow:     ui.Binding("e", "change allow-list", "e"),
			RevokeKey: ui.Binding("d", "revoke API key", "d", "delete"),
		},
	}
	m.list = listing.New(s, "accesses", accessID, m.row, m.query, columns(narrowMatrix)...)
	m.list.All = true
	m.list.SetEmpty("loading accesses…")
	m.apiKeys = listing.New(s, "API keys", keyID, m.keyRow, m.keyQuery, keyColumns()...)
	m.apiKeys.All = true
	m.apiKeys.SetEmpty("loading API keys…")
	return m
}

// accessID names an access: its id, else its e-mail.
func accessID(a api.Access) string {
	if a.ID == "" {
		return a.Email
	}
	return a.ID
}

// query asks for every sub-access: the service sends them in one answer.
func (m *Screen) query(string) (listing.PageCall[api.Access], error) {
	svc := m.svc
	return func(ctx context.Context) (api.Page[api.Access], error) {
		list, err := svc.ListAccesses(ctx, api.AccessFilter{})
		return api.Page[api.Access]{Items: list}, err
	}, nil
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "accesses" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Accesses" }

// Capturing implements ui.Screen: a form has the keyboard.
func (m *Screen) Capturing() bool { return m.form != nil }

// Busy implements ui.Screen: a form waiting for the service would be lost.
func (m *Screen) Busy() bool { return m.form != nil && m.form.Sending() }

// Filterable implements ui.Filterable.
func (m *Screen) Filterable() bool { return true }

// Init implements ui.Screen.
func (m *Screen) Init() tea.Cmd { return m.list.Reload() }

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if f, ok := msg.(ui.FilterMsg); ok {
		// The / filter follows whichever tab is shown.
		return m, tea.Batch(m.list.SetFilter(f.Query), m.apiKeys.SetFilter(f.Query))
	}
	if cmd, ok := m.list.Handle(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.apiKeys.Handle(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case otpGivenMsg:
		if !m.s.Owns(msg) {
			return m, nil // typed on the screen of another account
		}
		return m, m.send(msg.Value.w, msg.Value.otp)
	case writtenMsg:
		if !m.s.Owns(msg) {
			return m, nil
		}
		return m, m.written(msg.Value)
	case ui.ThemeChangedMsg:
		m.list.Restyle()
		m.list.Redraw(columns(m.w)...)
		m.apiKeys.Restyle()
		m.apiKeys.Redraw(keyColumns()...)
		if m.form != nil {
			m.form.SetStyles(formStyles(m.s))
		}
		return m, nil
	case ui.AccessLoadedMsg:
		if m.tab == tabKeys && !m.manager() {
			m.tab = tabAccesses // no longer a manager: the tab goes
		}
		return m, nil
	case tea.KeyPressMsg:
		if m.form != nil {
			return m, m.formKey(msg)
		}
		return m, m.key(msg)
	}
	if m.form != nil {
		_, cmd := m.form.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.live()
	switch {
	case key.Matches(msg, k.Tabs), key.Matches(msg, k.Next):
		return m.switchTab()
	case key.Matches(msg, k.Refresh):
		if m.tab == tabKeys {
			return m.apiKeys.Refresh()
		}
		return m.list.Refresh()
	case key.Matches(msg, k.Copy):
		if a, ok := m.list.Selected(); ok {
			return ui.Copy("access id", accessID(a))
		}
		return nil
	case key.Matches(msg, k.Invite):
		return m.openInvite()
	case key.Matches(msg, k.Change):
		return m.openChange()
	case key.Matches(msg, k.Revoke):
		return m.confirmRevoke()
	case key.Matches(msg, k.NewKey):
		return m.openNewKey()
	case key.Matches(msg, k.Allow):
		return m.openAllow()
	case key.Matches(msg, k.RevokeKey):
		return m.confirmRevokeKey()
	}
	if m.tab == tabKeys {
		return m.apiKeys.Key(msg)
	}
	return m.list.Key(msg)
}

// switchTab shows the other tab; the API keys load the first time.
func (m *Screen) switchTab() tea.Cmd {
	if !m.manager() {
		return nil
	}
	m.tab = 1 - m.tab
	if m.tab == tabKeys && !m.apiKeys.Started {
		return m.apiKeys.Reload()
	}
	return nil
}

// reload loads list i again, selecting id once it has (when not empty).
func (m *Screen) reload(i int, id string) tea.Cmd {
	l := m.list
	if i == tabKeys {
		if id != "" {
			m.apiKeys.SelectWhenLoaded(id)
		}
		return m.apiKeys.Refresh()
	}
	if id != "" {
		l.SelectWhenLoaded(id)
	}
	return l.Refresh()
}

// live are the keys that act now: the administration keys only for a
// manager, on their tab, enabled when it may write now and (but for
// creation) a row is selected.
func (m *Screen) live() keyMap {
	k := m.keys
	manager := m.manager()
	may := m.canManage() == nil
	keys := m.tab == tabKeys
	_, selKey := m.apiKeys.Selected()
	_, selAccess := m.list.Selected()
	k.Tabs.SetEnabled(manager)
	k.Next.SetEnabled(manager)
	k.Copy.SetEnabled(!keys && selAccess)
	k.Invite.SetEnabled(!keys && may)
	k.Change.SetEnabled(!keys && may && selAccess)
	k.Revoke.SetEnabled(!keys && may && selAccess)
	k.NewKey.SetEnabled(keys && may && m.keeper != nil)
	k.Allow.SetEnabled(keys && may && selKey)
	k.RevokeKey.SetEnabled(keys && may && selKey)
	return k
}

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	if m.form != nil {
		return m.form.KeyMap()
	}
	k := m.live()
	if m.tab == tabKeys {
		return append([]key.Binding{k.Tabs, k.Next, k.NewKey, k.Allow, k.RevokeKey, k.Refresh}, m.apiKeys.KeyMap()...)
	}
	return append([]key.Binding{k.Tabs, k.Next, k.Invite, k.Change, k.Revoke, k.Copy, k.Refresh}, m.list.KeyMap()...)
}

// row draws one access of the matrix.
func (m *Screen) row(a api.Access) widget.Row {
	t := m.s.Styles()
	cells := []string{a.Email}
	for _, p := range matrix {
		cells = append(cells, t.Check(p.on(a.AccessPermission)))
	}
	cells = append(cells, t.Check(a.MFA != nil), frozenText(t, a.FrozenUntil, m.s.Now(), m.w < narrowMatrix))
	return widget.Row{Cells: cells}
}

// frozenText shows a frozenUntil timestamp: "FROZEN 2026-01-02" while in
// the future ("FROZEN" alone when short), "no" otherwise.
func frozenText(t *ui.Theme, raw string, now time.Time, short bool) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return t.Muted.Render("no")
	}
	until, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		return t.Warn.Render(raw)
	}
	if !until.After(now) {
		return t.Muted.Render("no")
	}
	if short {
		return t.Bad.Render("FROZEN")
	}
	return t.Bad.Render("FROZEN " + until.Local().Format("2006-01-02"))
}
