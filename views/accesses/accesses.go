// Package accesses is the Accesses screen: the caller's own access, and the
// account's sub-accesses with their permission matrix (one row per access,
// one column per permission, ✓ or · so it reads without colour).
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
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Screen is the Accesses screen.
type Screen struct {
	s    *ui.Session
	svc  Service
	w, h int
	// list holds the sub-accesses; its Slot drops an older load's answer
	// and one of another account's screen.
	list *listing.List[api.Access]

	keys keyMap
}

type keyMap struct {
	Copy, Refresh key.Binding
}

// permission is one column of the matrix.
type permission struct {
	title, name string
	on          func(api.Permissions) bool
}

// matrix are the matrix's columns, in the service's order.
var matrix = []permission{
	{"Adm", "admin", func(p api.Permissions) bool { return p.Admin }},
	{"In", "payIn", func(p api.Permissions) bool { return p.PayIn }},
	{"Out", "payOut", func(p api.Permissions) bool { return p.PayOut }},
	{"Cnv", "convert", func(p api.Permissions) bool { return p.Convert }},
	{"Chn", "onChain", func(p api.Permissions) bool { return p.OnChain }},
	{"VO", "viewOnly", func(p api.Permissions) bool { return p.ViewOnly }},
	{"Mkp", "markup", func(p api.Permissions) bool { return p.Markup }},
	{"Ben", "beneficiary", func(p api.Permissions) bool { return p.Beneficiary }},
	{"Alw", "allowed beneficiaries only", func(p api.Permissions) bool { return p.EnforceAllowedBeneficiaries }},
	{"Req", "operation requester", func(p api.Permissions) bool { return p.OperationRequester }},
	{"Apr", "operation approver", func(p api.Permissions) bool { return p.OperationApprover }},
	{"Whk", "manage webhooks", func(p api.Permissions) bool { return p.ManageWebhooks }},
}

// columns are the matrix's: the e-mail, one per permission, MFA, frozen.
func columns() []widget.Column {
	cols := []widget.Column{{Title: "E-mail"}}
	for _, p := range matrix {
		cols = append(cols, widget.Column{Title: p.title, Width: len(p.title)})
	}
	return append(cols, widget.Column{Title: "MFA", Width: 3}, widget.Column{Title: "Frozen", Width: 17})
}

// New builds the screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{
		s:   s,
		svc: svc,
		keys: keyMap{
			Copy:    ui.Binding("y", "copy access id", "y"),
			Refresh: ui.Binding("r", "refresh", "r"),
		},
	}
	m.list = listing.New(s, "accesses", accessID, m.row, m.query, columns()...)
	m.list.All = true
	m.list.SetEmpty("loading accesses…")
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

// Capturing implements ui.Screen.
func (m *Screen) Capturing() bool { return false }

// Busy implements ui.Screen.
func (m *Screen) Busy() bool { return false }

// Filterable implements ui.Filterable.
func (m *Screen) Filterable() bool { return true }

// Init implements ui.Screen.
func (m *Screen) Init() tea.Cmd { return m.list.Reload() }

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if cmd, ok := m.list.Handle(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case ui.ThemeChangedMsg:
		m.list.Restyle()
		m.list.Redraw(columns()...)
		return m, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Refresh):
			return m, m.list.Refresh()
		case key.Matches(msg, m.keys.Copy):
			if a, ok := m.list.Selected(); ok {
				return m, ui.Copy("access id", accessID(a))
			}
			return m, nil
		}
		return m, m.list.Key(msg)
	}
	return m, nil
}

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	_, sel := m.list.Selected()
	k.Copy.SetEnabled(sel)
	return append([]key.Binding{k.Copy, k.Refresh}, m.list.KeyMap()...)
}

// row draws one access of the matrix.
func (m *Screen) row(a api.Access) widget.Row {
	t := m.s.Styles()
	cells := []string{a.Email}
	for _, p := range matrix {
		cells = append(cells, t.Check(p.on(a.AccessPermission)))
	}
	cells = append(cells, t.Check(a.MFA != nil), frozenText(t, a.FrozenUntil, m.s.Now()))
	return widget.Row{Cells: cells}
}

// frozenText shows a frozenUntil timestamp: "FROZEN 2026-01-02" while in
// the future, "no" otherwise.
func frozenText(t *ui.Theme, raw string, now time.Time) string {
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
	return t.Bad.Render("FROZEN " + until.Local().Format("2006-01-02"))
}
