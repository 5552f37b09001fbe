package beneficiaries

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Every save is confirmed with what will be registered. Where the service
// offers no delete (USD, COP, EUR, ARS) the confirmation says the record
// is permanent. A record paying the same account as one already listed
// (the same IBAN, CVU, account number, PIX key, or wallet on its chain) is
// named in the confirmation, and a second yes is asked before it is sent.

type (
	// saveYes is the operator's yes to saving the form whose account key
	// is key; second is the yes to saving it although it is registered.
	saveYes struct {
		key    string
		second bool
	}
	saveYesMsg = ui.Result[saveYes]
)

// vet runs on a checked form of a kind other than a BRL PIX key (which
// shows its holder first, see vetPix): it asks for the yes to save.
func (m *Screen) vet(f *form.Form) tea.Cmd {
	return m.confirmSave(f, false)
}

// duplicate is the listed record of the kind on screen paying the same
// account as the form, or "" when there is none.
func (m *Screen) duplicate(f *form.Form) (key, name string) {
	k := m.kinds[m.Cur()]
	if k.keyOf == nil {
		return "", ""
	}
	key = k.keyOf(f)
	if key == "" {
		return "", ""
	}
	for _, e := range k.Entries() {
		if e.Key == key {
			return key, e.Name
		}
	}
	return key, ""
}

// confirmSave asks for the yes to save the form: the first yes, or the
// second when the account is registered already.
func (m *Screen) confirmSave(f *form.Form, second bool) tea.Cmd {
	k := m.kinds[m.Cur()]
	key, dup := m.duplicate(f)
	th := m.s.Styles()
	var b strings.Builder
	if dup != "" {
		fmt.Fprintln(&b, th.Warn.Render(fmt.Sprintf("⚠ ALREADY REGISTERED: %s is %q's. Saving makes a second beneficiary paying the same account.", key, dup)))
	}
	if k.del == nil {
		fmt.Fprintln(&b, th.Warn.Render(fmt.Sprintf("⚠ PERMANENT: the service offers no delete for %ss; once saved it stays.", k.noun)))
	}
	for _, kv := range f.Summary() {
		fmt.Fprintf(&b, "%s: %s\n", kv[0], kv[1])
	}
	fmt.Fprintf(&b, "Account: %s", m.accountName())
	title := fmt.Sprintf("Register this %s?", k.noun)
	switch {
	case second:
		title = fmt.Sprintf("Register %q as well? Second yes", dup)
	case dup != "":
		title = fmt.Sprintf("Register a second %s for it?", k.noun)
	}
	yes, onYes := ui.Answer(m.s, saveYes{key: key, second: second})
	m.saveSlot.Await(yes)
	return ui.Confirm(title, b.String(), onYes)
}

// saved takes the yes to save: a duplicate's first yes asks the second,
// the last yes sends the form, if it still pays the account confirmed.
func (m *Screen) saved(msg saveYesMsg) tea.Cmd {
	if !m.saveSlot.Take(msg) {
		return nil
	}
	f := m.Form()
	if f == nil || f.Sending() {
		return nil
	}
	key, dup := m.duplicate(f)
	if key != msg.Value.key {
		return nil // the form changed since: it is confirmed again when sent
	}
	if dup != "" && !msg.Value.second {
		return m.confirmSave(f, true)
	}
	return m.Send()
}
