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
)

const requestTimeout = 15 * time.Second

// Service is what the screen asks of the service.
type Service interface {
	ListAccesses(ctx context.Context, f api.AccessFilter) ([]api.Access, error)
}

// Screen is the Accesses screen.
type Screen struct {
	s    *ui.Session
	svc  Service
	w, h int
	// listing awaits the latest load: an older one's answer, or one of
	// another account's screen, is dropped.
	listing ui.Slot

	list   []api.Access
	err    error
	loaded bool
	table  *widget.Table

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
}

// New builds the screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	cols := []widget.Column{{Title: "E-mail"}}
	for _, p := range matrix {
		cols = append(cols, widget.Column{Title: p.title, Width: len(p.title)})
	}
	cols = append(cols, widget.Column{Title: "MFA", Width: 3}, widget.Column{Title: "Frozen", Width: 17})
	t := widget.NewTable(cols...)
	t.SetStyles(s.Styles().TableStyles())
	t.SetEmpty("loading accesses…")
	return &Screen{
		s:     s,
		svc:   svc,
		table: t,
		keys: keyMap{
			Copy:    ui.Binding("y", "copy access id", "y"),
			Refresh: ui.Binding("r", "refresh", "r"),
		},
	}
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
func (m *Screen) Init() tea.Cmd { return m.load() }

func (m *Screen) load() tea.Cmd {
	svc := m.svc
	return ui.Fetch(m.s, &m.listing, requestTimeout, func(ctx context.Context) ([]api.Access, error) {
		return svc.ListAccesses(ctx, api.AccessFilter{})
	})
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[[]api.Access]:
		if !m.listing.Take(msg) {
			return m, nil
		}
		m.loaded, m.err = true, msg.Err
		if msg.Err != nil {
			m.table.SetEmpty("sub-accesses not available")
			return m, nil
		}
		m.list = msg.Value
		m.table.SetEmpty("no sub-accesses")
		m.table.SetRows(m.rows())
		return m, m.s.Refreshed()
	case ui.FilterMsg:
		m.table.SetFilter(msg.Query)
		return m, nil
	case ui.ThemeChangedMsg:
		m.table.SetStyles(m.s.Styles().TableStyles())
		m.table.SetRows(m.rows())
		return m, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Refresh):
			return m, m.load()
		case key.Matches(msg, m.keys.Copy):
			if row, ok := m.table.Selected(); ok {
				return m, ui.Copy("access id", row.ID)
			}
			return m, nil
		}
		return m, m.table.Update(msg)
	}
	return m, nil
}

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	_, sel := m.table.Selected()
	k.Copy.SetEnabled(sel)
	return append([]key.Binding{k.Copy, k.Refresh}, m.table.KeyMap()...)
}

func (m *Screen) rows() []widget.Row {
	t := m.s.Styles()
	rows := make([]widget.Row, 0, len(m.list))
	now := m.s.Now()
	for _, a := range m.list {
		cells := []string{a.Email}
		for _, p := range matrix {
			cells = append(cells, t.Check(p.on(a.AccessPermission)))
		}
		cells = append(cells, t.Check(a.MFA != nil))
		cells = append(cells, frozenText(t, a.FrozenUntil, now))
		id := a.ID
		if id == "" {
			id = a.Email
		}
		rows = append(rows, widget.Row{ID: id, Cells: cells})
	}
	return rows
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
