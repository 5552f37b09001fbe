package beneficiaries

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// A PIX key is saved only once the operator has seen who it pays. While
// the key is typed, once it is a valid key and typing paused, the PIX
// directory (pix-info) is asked who holds it: the holder shows under the
// field, and a key nobody holds is refused on it. The checked form then
// repeats the holder in a confirmation and is sent on yes, so a mistyped
// key is never saved for a later payout. The holder, an unknown key and a
// failed look-up are said in the words of pixholder, as the Quote and
// Approvals screens say them before money moves to that key.

// lookupDelay is the pause in typing after which a valid key is looked up.
const lookupDelay = 400 * time.Millisecond

// holder is the PIX directory's answer about one key.
type holder struct {
	key string
	pixholder.Holder
	// live: asked while typing, not by ctrl+s (which goes on to the
	// confirmation).
	live bool
}

type (
	holderMsg = ui.Result[holder]
	// holderOKMsg is the operator's yes to the holder shown for key.
	holderOKMsg = ui.Result[string]
	// pause is the pause in typing after key was typed, lookupMsg its
	// timer's firing.
	pause     struct{ key string }
	lookupMsg = ui.Result[pause]
)

// checkWithPayee is what the PIX key field adds to the shared refusal of a
// key nobody holds: what to do about it.
const checkWithPayee = ": check it with the payee"

// againHint follows a failed look-up: the way to try again.
const againHint = " · ctrl+s asks again"

// holderLabel introduces the holder under the field and in the
// confirmation, as on the Quote and Approvals confirmations.
const holderLabel = "Holder: "

// followPix runs before and after every message the screen takes: when
// the PIX key of the open form changed since it was last seen (or the form
// closed, or left PIX), what was awaited for the key before is dropped: its
// pause, who holds it, the operator's yes to that holder. It returns the
// open BRL form on a PIX key, nil when there is none.
func (m *Screen) followPix() *form.Form {
	f := m.pixForm()
	key := ""
	if f != nil {
		key = f.Normalized("pixKey")
	}
	if key != m.typed {
		m.typed, m.watched = key, ""
		m.pausing.Cancel()
		m.holderSlot.Cancel()
	}
	return f
}

// watchPix runs after every message the screen took: a new valid PIX key
// is looked up once typing pauses.
func (m *Screen) watchPix() tea.Cmd {
	f := m.followPix()
	if f == nil || f.Hint("pixKey") == "" || m.typed == m.watched {
		return nil
	}
	m.watched = m.typed
	return ui.After(m.s, &m.pausing, lookupDelay, pause{key: m.typed})
}

// lookup asks who holds the key typed once typing paused, unless its
// holder is known already.
func (m *Screen) lookup(msg lookupMsg) tea.Cmd {
	if !m.pausing.Take(msg) {
		return nil // typing went on, or the key changed
	}
	key := msg.Value.key
	if f := m.pixForm(); f == nil || f.Sending() || m.known.key == key {
		return nil
	}
	return m.ask(key, true)
}

// ask looks key up, saying so under the field until the answer comes.
func (m *Screen) ask(key string, live bool) tea.Cmd {
	svc := m.svc
	if f := m.pixForm(); f != nil {
		f.SetNote("pixKey", m.plainLine(pixholder.Lookup{}, true))
	}
	return ui.Fetch(m.s, &m.holderSlot, 0, func(ctx context.Context) (holder, error) {
		h, err := pixholder.Key(ctx, svc, key)
		return holder{key: key, Holder: h, live: live}, err
	})
}

// plainLine is pixholder's line without styles, for the form, which styles
// what it shows under a field itself.
func (m *Screen) plainLine(l pixholder.Lookup, waiting bool) string {
	line, _ := l.Line(pixholder.Styles{}, waiting)
	return holderLabel + line
}

// vetPix runs on a checked BRL form: a bank account goes at once; a PIX
// key goes once its holder was shown and confirmed.
func (m *Screen) vetPix(f *form.Form) tea.Cmd {
	if f.Value("mode") != modePix {
		return m.vet(f)
	}
	key := f.Normalized("pixKey")
	f.SetFormError("")
	if m.known.key == key {
		return m.confirmHolder(f, m.known)
	}
	f.SetSending(true)
	return m.ask(key, false)
}

// pixForm is the open form while it is the BRL form on a PIX key; nil
// otherwise.
func (m *Screen) pixForm() *form.Form {
	f := m.Form()
	if f == nil || f.Value("mode") != modePix {
		return nil
	}
	return f
}

// gotHolder shows what the directory said of the key under the field (the
// slot awaits only the answer for the key the form holds: see followPix):
// the holder, a refusal on the field when nobody holds it, or why it is not
// known (ctrl+s asks again). The holder goes on to a confirmation when
// ctrl+s asked.
func (m *Screen) gotHolder(msg holderMsg) tea.Cmd {
	h := msg.Value
	f := m.pixForm()
	if f == nil {
		return nil
	}
	if !h.live {
		f.SetSending(false)
	}
	var l pixholder.Lookup
	l.Take(h.Holder, msg.Err)
	switch {
	case l.Missing:
		f.SetNote("pixKey", "")
		f.SetFieldError("pixKey", l.Refusal()+checkWithPayee)
		return nil
	case l.Holder == nil:
		f.SetNote("pixKey", m.plainLine(l, false)+againHint)
		if !h.live {
			f.FocusField("pixKey") // what went wrong is said under it
		}
		return nil
	}
	m.known = h
	f.SetNote("pixKey", m.plainLine(l, false))
	if h.live {
		return nil
	}
	return m.confirmHolder(f, h)
}

// confirmHolder asks before saving the key, repeating who it pays; the
// holder's slot awaits the yes, which a change of the key drops.
func (m *Screen) confirmHolder(f *form.Form, h holder) tea.Cmd {
	key, alias := h.key, f.Normalized("alias")
	yes, onYes := ui.Answer(m.s, key)
	m.holderSlot.Await(yes)
	title := "Save this PIX key?"
	if name := h.Info.Name; strings.TrimSpace(name) != "" {
		title = fmt.Sprintf("Save the PIX key of %s?", name)
	}
	th := m.s.Styles()
	line, _ := pixholder.Lookup{Holder: &h.Holder}.Line(pixholder.Styles{Value: th.Value, Dim: th.Muted, Warn: th.Warn, Err: th.Error}, false)
	body := holderBody(line, key, alias, m.accountName())
	if dupKey, dup := m.duplicate(f); dup != "" {
		body = th.Warn.Render(fmt.Sprintf("⚠ ALREADY REGISTERED: %s is %q's; a second yes is asked.", dupKey, dup)) + "\n" + body
	}
	return ui.Confirm(title, body, onYes)
}

// holderBody is what the confirmation repeats: who the key pays (line, as
// pixholder says it), and where it is saved.
func holderBody(line, key, alias, account string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "PIX key %s\n", key)
	fmt.Fprintf(&b, "%s%s\n", holderLabel, line)
	fmt.Fprintf(&b, "Saved as %q in %s. If this is not who you mean to pay, answer no and check the key.", alias, account)
	return b.String()
}

// holderOK sends the form the operator confirmed, if it still holds the
// key whose holder was shown (the slot awaits the yes until it changes).
func (m *Screen) holderOK(msg holderOKMsg) tea.Cmd {
	if !m.holderSlot.Take(msg) {
		return nil
	}
	f := m.pixForm()
	if f == nil || f.Sending() {
		return nil
	}
	if _, dup := m.duplicate(f); dup != "" {
		// The holder's confirmation named it: the second yes.
		return m.confirmSave(f, true)
	}
	return m.Send()
}
