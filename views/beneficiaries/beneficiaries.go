// Package beneficiaries is the Beneficiaries screen of the dashboard: the
// registered wallets, BRL accounts (PIX key or bank account), USD, COP, EUR
// (IBAN) and ARS (CVU) bank accounts of the operated account, with a filter,
// create forms checked locally before anything is sent (a PIX key's holder
// shown from the PIX directory before it is saved), and delete where the
// service allows it.
package beneficiaries

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

type keyMap struct {
	New, Delete key.Binding
}

// Screen is the Beneficiaries screen.
type Screen struct {
	*tabbed.Frame
	s     *ui.Session
	svc   Service
	kinds []*kind
	keys  keyMap
	// holderSlot awaits who the PIX key of the open form pays, then the
	// operator's yes to that holder; pausing awaits the pause in typing
	// after which the key is looked up. typed is the key the form held
	// when last seen, watched the last key looked up as typed, known the
	// last holder found.
	holderSlot, pausing ui.Slot
	// saveSlot awaits the operator's yes to save the open form.
	saveSlot       ui.Slot
	typed, watched string
	known          holder
}

// New builds the screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{s: s, svc: svc, kinds: kinds(svc), keys: keyMap{
		New:    ui.Binding("n", "new beneficiary", "n"),
		Delete: ui.Binding("d", "delete", "d", "delete"),
	}}
	m.Frame = tabbed.New(s, ui.ActBeneficiary, "wallets · BRL · USD · COP · EUR · ARS", tabbed.Tabs(m.kinds)...)
	return m
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "beneficiaries" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Beneficiaries" }

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	k, kind := m.keys, m.kinds[m.Cur()]
	canWrite := m.Blocked() == nil
	_, sel := kind.Selected()
	k.New.SetEnabled(canWrite)
	k.Delete.SetEnabled(canWrite && kind.del != nil && sel)
	return m.Bindings(k.New, k.Delete)
}

// View implements ui.Screen.
func (m *Screen) View() string {
	k := m.kinds[m.Cur()]
	hint := "n new · d delete"
	if k.del == nil {
		hint = "n new · the service offers no delete for " + k.noun + "s"
	}
	return m.Render(m.Status(m.WriteHint(hint)))
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	m.followPix()
	switch msg := msg.(type) {
	case deletedMsg:
		if !m.s.Owns(msg) {
			return m, nil // sent by the screen of another account
		}
		return m, m.deleted(msg.Value)
	case holderMsg:
		if !m.holderSlot.Take(msg) {
			return m, nil
		}
		return m, m.gotHolder(msg)
	case lookupMsg:
		return m, m.lookup(msg)
	case holderOKMsg:
		if !m.s.Owns(msg) {
			return m, nil
		}
		return m, m.holderOK(msg)
	case saveYesMsg:
		return m, m.saved(msg)
	case tabbed.SentMsg:
		cmd, created := m.Sent(msg)
		if created {
			cmd = tea.Batch(cmd, m.changed())
		}
		return m, cmd
	case ui.ChangedMsg:
		// Written elsewhere: every list loads again, each keeping its
		// cursor on the same beneficiary.
		if msg.By == m.ID() || !msg.For(m.s, ui.ChangedBeneficiaries) {
			return m, nil
		}
		return m, m.Init()
	case tea.KeyPressMsg:
		if !m.Capturing() {
			switch {
			case key.Matches(msg, m.keys.New):
				return m, m.openForm()
			case key.Matches(msg, m.keys.Delete):
				return m, m.confirmDelete()
			}
		}
	}
	cmd := m.Handle(msg)
	return m, tea.Batch(cmd, m.watchPix())
}

// changed tells the other screens (the Quote screen's pickers) that the
// beneficiaries of the operated account changed.
func (m *Screen) changed() tea.Cmd {
	return ui.ChangedIn(m.s.Account.ID, ui.ChangedBeneficiaries, m.ID())
}

func (m *Screen) openForm() tea.Cmd {
	if err := m.Blocked(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot add a beneficiary: "+ui.ErrorText(err))
	}
	k := m.kinds[m.Cur()]
	m.saveSlot.Cancel()
	if k.key == "brl" {
		m.holderSlot.Cancel()
		m.pausing.Cancel()
		m.typed, m.watched, m.known = "", "", holder{}
		return m.OpenVettedForm(k.newForm(), k.request, m.vetPix)
	}
	return m.OpenVettedForm(k.newForm(), k.request, m.vet)
}
