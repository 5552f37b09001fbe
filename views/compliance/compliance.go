// Package compliance is the Compliance screen: the ultimate beneficial
// owners of the operated account (list and a create form checked by the
// seed's rules), W-8BEN submissions (the form with its nullable fields, and
// the URL of the generated form once submitted), and proof-of-address
// attempts.
package compliance

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

// Screen is the Compliance screen.
type Screen struct {
	*tabbed.Frame
	s        *ui.Session
	sections []*section
	newKey   key.Binding
	// submitted is the last W-8BEN this screen submitted, whose form URL
	// stays on screen.
	submitted *api.W8BEN
}

// New builds the screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{s: s, sections: sections(s, svc), newKey: ui.Binding("n", "new", "n")}
	m.Frame = tabbed.New(s, ui.ActWrite, "UBOs · W-8BEN · proof of address", tabbed.Tabs(m.sections)...)
	return m
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "compliance" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Compliance" }

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	n, sec := m.newKey, m.sections[m.Cur()]
	n.SetEnabled(sec.newForm != nil && m.Blocked() == nil)
	if sec.newForm != nil {
		n.SetHelp("n", "new "+sec.noun)
	}
	return m.Bindings(n)
}

// View implements ui.Screen.
func (m *Screen) View() string {
	sec := m.sections[m.Cur()]
	if sec.key == "w8ben" && m.submitted != nil && sec.Err() == nil {
		return m.Render(m.s.Styles().Good.Render("✓ W-8BEN submitted, form: " + m.submitted.W8BenURL))
	}
	hint := ""
	if sec.newForm != nil {
		hint = m.WriteHint("n new " + sec.noun)
	}
	return m.Render(m.Status(hint))
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tabbed.SentMsg:
		cmd, created := m.Sent(msg)
		if w, ok := msg.Value.Value.(*api.W8BEN); created && ok && w != nil {
			kept := *w
			m.submitted = &kept
		}
		return m, cmd
	case tea.KeyPressMsg:
		if !m.Capturing() && key.Matches(msg, m.newKey) {
			return m, m.openForm()
		}
	}
	return m, m.Handle(msg)
}

func (m *Screen) openForm() tea.Cmd {
	sec := m.sections[m.Cur()]
	if sec.newForm == nil {
		return ui.Toast(ui.ToastInfo, "Proof-of-address attempts are created by uploads, not from here")
	}
	if err := m.Blocked(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot submit: "+ui.ErrorText(err))
	}
	return m.OpenForm(sec.newForm(), sec.request)
}
