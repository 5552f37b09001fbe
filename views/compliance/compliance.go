// Package compliance is the Compliance screen: the ultimate beneficial
// owners of the operated account (list and a create form checked by the
// seed's rules), W-8BEN submissions (the form with its nullable fields, and
// the URL of the generated form once submitted), and proof-of-address
// attempts.
package compliance

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tesouro/api"
	"tesouro/ui"
	"tesouro/ui/widget"
	"tesouro/views/beneficiaries/form"
)

// today is the clock of the date-of-birth check; tests fix it.
var today = time.Now

// list is the state of one section's list.
type list struct {
	table    *widget.Table
	entries  map[string]entry
	order    []string
	gen      int
	loading  bool
	loaded   bool
	err      error
	selectID string
}

type keyMap struct {
	PrevSection, NextSection, New, Refresh key.Binding
}

// Screen is the Compliance screen.
type Screen struct {
	s        *ui.Session
	sections []*section
	lists    []*list
	cur      int
	narrow   bool
	width    int
	height   int

	form    *form.Form
	formSec int
	// submitted is the last W-8BEN this screen submitted, whose form URL
	// stays on screen.
	submitted *api.W8BEN

	// query is the root's / filter, applied to whichever list is shown.
	query string
	keys  keyMap
}

// New builds the screen for a session.
func New(s *ui.Session) ui.Screen {
	m := &Screen{s: s, sections: sections(), width: 80, height: 24}
	for _, sec := range m.sections {
		t := widget.NewTable(sec.cols...)
		t.SetEmpty(sec.empty())
		t.SetStyles(s.Styles().TableStyles())
		m.lists = append(m.lists, &list{table: t, entries: map[string]entry{}})
	}
	m.keys = keyMap{
		PrevSection: key.NewBinding(key.WithKeys("left", "h", "["), key.WithHelp("←/→", "UBOs · W-8BEN · proof of address")),
		NextSection: key.NewBinding(key.WithKeys("right", "l", "]")),
		New:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
	m.SetSize(m.width, m.height)
	return m
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "compliance" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Compliance" }

// Init loads every section.
func (m *Screen) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.sections))
	for i := range m.sections {
		cmds = append(cmds, m.load(i))
	}
	return tea.Batch(cmds...)
}

// Capturing implements ui.Screen: a form has the keyboard.
func (m *Screen) Capturing() bool { return m.form != nil }

// Filterable implements ui.Filterable: the root's / filter narrows the list.
func (m *Screen) Filterable() bool { return true }

// Busy implements ui.Screen.
func (m *Screen) Busy() bool { return m.form != nil && m.form.Sending() }

// writeBlocked says why the access may not submit compliance records.
func (m *Screen) writeBlocked() error { return m.s.Can(ui.ActWrite) }

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	if m.form != nil {
		return m.form.KeyMap()
	}
	k := m.keys
	sec := m.sections[m.cur]
	k.New.SetEnabled(sec.newForm != nil && m.writeBlocked() == nil)
	if sec.newForm != nil {
		k.New.SetHelp("n", "new "+sec.noun)
	}
	b := []key.Binding{k.PrevSection, k.NextSection, k.Refresh, k.New}
	return append(b, m.lists[m.cur].table.KeyMap()...)
}

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	th, _ := m.layout()
	for _, l := range m.lists {
		l.table.SetSize(m.width, th)
	}
	if narrow := m.width < narrowWidth; narrow != m.narrow {
		m.narrow = narrow
		for i := range m.lists {
			m.setRows(i)
		}
	}
	if m.form != nil {
		m.form.SetSize(m.width, m.height)
	}
}

func (m *Screen) layout() (table, detail int) {
	body := max(m.height-2, 1)
	if m.height >= 18 {
		detail = min(8, body/3)
	}
	return max(body-detail, 1), detail
}

// narrowWidth is the width under which lists keep their narrow columns.
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

// setRows lays out section i's table for the current width and fills it.
func (m *Screen) setRows(i int) {
	sec, l := m.sections[i], m.lists[i]
	if m.narrow {
		l.table.SetColumns(pick(sec.cols, sec.narrow)...)
	} else {
		l.table.SetColumns(sec.cols...)
	}
	rows := make([]widget.Row, 0, len(l.order))
	for _, id := range l.order {
		cells := l.entries[id].cells
		if m.narrow {
			cells = pick(cells, sec.narrow)
		}
		rows = append(rows, widget.Row{ID: id, Cells: cells})
	}
	l.table.SetRows(rows)
}
