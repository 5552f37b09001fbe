// Package beneficiaries is the Beneficiaries screen of the dashboard: the
// registered wallets, BRL accounts (PIX key or bank account), USD and COP
// bank accounts of the operated account, with a filter, create forms checked
// locally before anything is sent, and delete where the service allows it.
package beneficiaries

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tesouro/ui"
	"tesouro/ui/widget"
	"tesouro/views/beneficiaries/form"
)

// tab is the state of one kind of beneficiary.
type tab struct {
	table   *widget.Table
	entries map[string]entry
	order   []string // entry ids in the service's order
	gen     int      // the latest load; older answers are dropped
	loading bool
	loaded  bool
	err     error
	// selectID is selected once the next load brings it (a new record).
	selectID string
}

type keyMap struct {
	PrevKind, NextKind, New, Delete, Refresh key.Binding
}

// Screen is the Beneficiaries screen.
type Screen struct {
	s      *ui.Session
	kinds  []*kind
	tabs   []*tab
	cur    int
	narrow bool
	width  int
	height int

	form     *form.Form
	formKind int

	// query is the root's / filter, applied to whichever kind is shown.
	query string
	keys  keyMap
}

// New builds the screen for a session.
func New(s *ui.Session) ui.Screen {
	m := &Screen{s: s, kinds: kinds(), width: 80, height: 24}
	for _, k := range m.kinds {
		t := widget.NewTable(k.cols...)
		t.SetEmpty("no " + k.noun + " registered")
		t.SetStyles(s.Styles().TableStyles())
		m.tabs = append(m.tabs, &tab{table: t, entries: map[string]entry{}})
	}
	m.keys = keyMap{
		PrevKind: key.NewBinding(key.WithKeys("left", "h", "["), key.WithHelp("←/→", "wallets · BRL · USD · COP")),
		NextKind: key.NewBinding(key.WithKeys("right", "l", "]")),
		New:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new beneficiary")),
		Delete:   key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete")),
		Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
	m.SetSize(m.width, m.height)
	return m
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "beneficiaries" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Beneficiaries" }

// Init loads every kind, so that switching between them is instant.
func (m *Screen) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.kinds))
	for i := range m.kinds {
		cmds = append(cmds, m.load(i))
	}
	return tea.Batch(cmds...)
}

// Capturing implements ui.Screen: a form has the keyboard.
func (m *Screen) Capturing() bool { return m.form != nil }

// Filterable implements ui.Filterable: the root's / filter narrows the list.
func (m *Screen) Filterable() bool { return true }

// Busy implements ui.Screen: a form waiting for the service would be lost.
func (m *Screen) Busy() bool { return m.form != nil && m.form.Sending() }

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	if m.form != nil {
		return m.form.KeyMap()
	}
	k := m.keys
	canWrite := m.writeBlocked() == nil
	k.New.SetEnabled(canWrite)
	_, sel := m.tabs[m.cur].table.Selected()
	k.Delete.SetEnabled(canWrite && m.kinds[m.cur].del != nil && sel)
	b := []key.Binding{k.PrevKind, k.NextKind, k.Refresh, k.New, k.Delete}
	return append(b, m.tabs[m.cur].table.KeyMap()...)
}

// writeBlocked says why the access may not create or delete beneficiaries
// (nil when it may).
func (m *Screen) writeBlocked() error { return m.s.Can(ui.ActBeneficiary) }

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	th, _ := m.layout()
	for _, t := range m.tabs {
		t.table.SetSize(m.width, th)
	}
	if narrow := m.width < narrowWidth; narrow != m.narrow {
		m.narrow = narrow
		for i := range m.tabs {
			m.setRows(i)
		}
	}
	if m.form != nil {
		m.form.SetSize(m.width, m.height)
	}
}

// layout splits the height between the table and the detail pane (shown
// only when there is room for it).
func (m *Screen) layout() (table, detail int) {
	body := max(m.height-2, 1) // kind tabs and status line
	if m.height >= 18 {
		detail = min(8, body/3)
	}
	return max(body-detail, 1), detail
}

// narrowWidth is the width under which lists keep their narrow columns, so
// that the address or key is never squeezed out by the fixed columns.
const narrowWidth = 80

func pick[T any](all []T, idx []int) []T {
	out := make([]T, 0, len(idx))
	for _, i := range idx {
		if i < len(all) {
			out = append(out, all[i])
		}
	}
	return out
}

// setRows lays out kind i's table for the current width and fills it.
func (m *Screen) setRows(i int) {
	k, t := m.kinds[i], m.tabs[i]
	if m.narrow {
		t.table.SetColumns(pick(k.cols, k.narrow)...)
	} else {
		t.table.SetColumns(k.cols...)
	}
	rows := make([]widget.Row, 0, len(t.order))
	for _, id := range t.order {
		cells := t.entries[id].cells
		if m.narrow {
			cells = pick(cells, k.narrow)
		}
		rows = append(rows, widget.Row{ID: id, Cells: cells})
	}
	t.table.SetRows(rows)
}
