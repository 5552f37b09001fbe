// Package tabbed is the frame of the screens that keep several lists side by
// side behind ←/→ tabs (Beneficiaries, Compliance): a thin layer over
// listing.List, one per tab, each loading every page. The root's / filter
// follows the list on screen, the selected record shows in a detail pane,
// and a create form (package form) is sent, journaled and, when the service
// refuses it, left open with the error on the field it names. A screen
// embeds a *Frame and keeps only what is its own: its lists, forms, keys
// and hints.
package tabbed

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Frame holds the lists of a screen, the one on screen, and the open form.
type Frame struct {
	s     *ui.Session
	act   ui.Action // what creating (and deleting) needs
	lists []*List
	cur   int
	keys  struct{ Prev, Next, Refresh key.Binding }

	narrow        bool
	width, height int
	// query is the root's / filter, applied to whichever list is shown.
	query string

	form     *form.Form
	formList int                        // the list the form creates into
	request  func(f *form.Form) Request // reads the form when it is sent
	vet      func(f *form.Form) tea.Cmd // runs instead of sending (nil: send)
	sending  ui.Slot                    // the answer to the sent form
}

// New builds the frame of a screen whose writes need act; tabsHelp names
// the lists in the help of ←/→.
func New(s *ui.Session, act ui.Action, tabsHelp string, lists ...*List) *Frame {
	f := &Frame{s: s, act: act, lists: lists, width: 80, height: 24}
	for _, l := range lists {
		l.build(s)
	}
	f.keys.Prev = ui.Binding("←/→", tabsHelp, "left", "h", "[")
	f.keys.Next = key.NewBinding(key.WithKeys("right", "l", "]"))
	f.keys.Refresh = ui.Binding("r", "refresh", "r")
	f.SetSize(f.width, f.height)
	return f
}

// Init implements ui.Screen: every list loads, so that switching between
// them is instant.
func (f *Frame) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(f.lists))
	for i := range f.lists {
		cmds = append(cmds, f.Load(i))
	}
	return tea.Batch(cmds...)
}

// Load fetches list i again; its rows stay until the answer replaces them,
// the cursor on the same record.
func (f *Frame) Load(i int) tea.Cmd { return f.lists[i].list.Refresh() }

// Capturing implements ui.Screen: a form has the keyboard.
func (f *Frame) Capturing() bool { return f.form != nil }

// Filterable implements ui.Filterable: the root's / filter narrows the list.
func (f *Frame) Filterable() bool { return true }

// Busy implements ui.Screen: a form waiting for the service would be lost.
func (f *Frame) Busy() bool { return f.form != nil && f.form.Sending() }

// Cur is the index of the list on screen.
func (f *Frame) Cur() int { return f.cur }

// Form is the open form, nil when the lists are shown.
func (f *Frame) Form() *form.Form { return f.form }

// Blocked says why the access may not write here now (nil when it may).
func (f *Frame) Blocked() error { return f.s.Can(f.act) }

// WriteHint is hint, the screen's write keys, or why the access may not
// write here when it may not.
func (f *Frame) WriteHint(hint string) string {
	if err := f.Blocked(); err != nil {
		return "read only: " + ui.ErrorText(err)
	}
	return hint
}

// Bindings are the live keys: the form's while one is open, else the tabs',
// refresh, the screen's own and the list's.
func (f *Frame) Bindings(own ...key.Binding) []key.Binding {
	if f.form != nil {
		return f.form.KeyMap()
	}
	b := append([]key.Binding{f.keys.Prev, f.keys.Next, f.keys.Refresh}, own...)
	return append(b, f.lists[f.cur].list.KeyMap()...)
}

// Handle takes the messages every tabbed screen answers alike: list pages,
// sent forms, keys (the open form's, else the tabs', refresh and the
// list's), the filter, the theme, and what the open form's inputs need.
func (f *Frame) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case listing.PageMsg[Entry]:
		// Only the list that awaits this page takes it.
		cmds := make([]tea.Cmd, 0, len(f.lists))
		for _, l := range f.lists {
			cmd, _ := l.list.Handle(msg)
			cmds = append(cmds, cmd)
		}
		return tea.Batch(cmds...)
	case SentMsg:
		cmd, _ := f.Sent(msg)
		return cmd
	case tea.KeyPressMsg:
		return f.key(msg)
	case ui.FilterMsg:
		f.query = msg.Query
		return f.lists[f.cur].list.SetFilter(f.query)
	case ui.ThemeChangedMsg:
		for _, l := range f.lists {
			l.list.Restyle()
		}
		if f.form != nil {
			f.form.SetStyles(formStyles(f.s))
		}
		return nil
	}
	if f.form != nil {
		_, cmd := f.form.Update(msg)
		return cmd
	}
	return nil
}

func (f *Frame) key(msg tea.KeyPressMsg) tea.Cmd {
	if f.form != nil {
		return f.formKey(msg)
	}
	switch {
	case key.Matches(msg, f.keys.Prev):
		return f.switchTo(-1)
	case key.Matches(msg, f.keys.Next):
		return f.switchTo(1)
	case key.Matches(msg, f.keys.Refresh):
		return f.Load(f.cur)
	}
	return f.lists[f.cur].list.Key(msg)
}

func (f *Frame) switchTo(d int) tea.Cmd {
	f.cur = (f.cur + d + len(f.lists)) % len(f.lists)
	// The filter belongs to the list on screen: carry it over.
	return f.lists[f.cur].list.SetFilter(f.query)
}

// narrowWidth is the width under which lists keep their narrow columns, so
// that the address or key is never squeezed out by the fixed columns.
const narrowWidth = 80

// SetSize implements ui.Screen.
func (f *Frame) SetSize(w, h int) {
	f.width, f.height = max(w, 1), max(h, 1)
	th, _ := f.layout()
	if narrow := f.width < narrowWidth; narrow != f.narrow {
		f.narrow = narrow
		for _, l := range f.lists {
			l.setNarrow(narrow)
		}
	}
	for _, l := range f.lists {
		l.list.SetTableSize(f.width, th)
		l.redraw()
	}
	if f.form != nil {
		f.form.SetSize(f.width, f.height)
	}
}

// layout splits the height between the table and the detail pane (shown
// only when there is room for it).
func (f *Frame) layout() (table, detail int) {
	body := max(f.height-2, 1) // tabs and status line
	if f.height >= 18 {
		detail = min(8, body/3)
	}
	return max(body-detail, 1), detail
}
