package beneficiaries

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// A PIX key is saved only once the operator has seen who it pays. While
// the key is typed, once it is a valid key and typing paused, the PIX
// directory (pix-info) is asked who holds it: the holder's name, masked tax
// id and bank show under the field, and a key nobody holds is refused on
// it. The checked form then repeats the holder in a confirmation and is
// sent on yes, so a mistyped key is never saved for a later payout.

// lookupDelay is the pause in typing after which a valid key is looked up.
const lookupDelay = 400 * time.Millisecond

// holder is the PIX directory's answer about one key.
type holder struct {
	key  string
	info *api.PixInfo
	// live: asked while typing (shown under the field), not by ctrl+s
	// (shown in the confirmation).
	live bool
}

type (
	holderMsg = ui.Result[holder]
	// holderOKMsg is the operator's yes to the holder shown for key.
	holderOKMsg = ui.Result[string]
)

// lookupMsg is the pause after key was typed.
type lookupMsg struct {
	s   *ui.Session
	key string
}

// unknownPixKey is what the PIX key field says when no account holds it.
const unknownPixKey = "no account holds this PIX key (the PIX directory does not know it): check the key with the payee"

// watchPix runs after every message the screen took: when the open form's
// PIX key became a new valid key, it is looked up once typing pauses.
func (m *Screen) watchPix() tea.Cmd {
	f := m.Form()
	if f == nil || f.Value("mode") != modePix || f.Hint("pixKey") == "" {
		return nil
	}
	key := f.Normalized("pixKey")
	if key == m.watched {
		return nil
	}
	m.watched = key
	s := m.s
	return m.s.After(lookupDelay, func(time.Time) tea.Msg { return lookupMsg{s: s, key: key} })
}

// lookup asks who holds the key typed, if it is still the form's and its
// holder is not known yet.
func (m *Screen) lookup(msg lookupMsg) tea.Cmd {
	if msg.s != m.s || m.pixForm(msg.key) == nil || m.known.key == msg.key || m.Form().Sending() {
		return nil
	}
	return m.ask(msg.key, true)
}

func (m *Screen) ask(key string, live bool) tea.Cmd {
	svc := m.svc
	return ui.Fetch(m.s, &m.holderSlot, 0, func(ctx context.Context) (holder, error) {
		info, err := svc.PixInfo(ctx, key)
		if err != nil {
			err = fmt.Errorf("who holds PIX key %s: %w", key, err)
		}
		return holder{key: key, info: info, live: live}, err
	})
}

// vetPix runs on a checked BRL form: a bank account goes at once; a PIX
// key goes once its holder was shown and confirmed.
func (m *Screen) vetPix(f *form.Form) tea.Cmd {
	if f.Value("mode") != modePix {
		return m.Send()
	}
	key := f.Normalized("pixKey")
	f.SetFormError("")
	if m.known.key == key && m.known.info != nil {
		return m.confirmHolder(f, m.known)
	}
	f.SetSending(true)
	return m.ask(key, false)
}

// pixForm is the open form while it is the BRL form on a PIX key, with that
// key; nil otherwise.
func (m *Screen) pixForm(key string) *form.Form {
	f := m.Form()
	if f == nil || f.Value("mode") != modePix || f.Normalized("pixKey") != key {
		return nil
	}
	return f
}

// gotHolder shows the holder of the key the form still holds: under the
// field, and in a confirmation when ctrl+s asked.
func (m *Screen) gotHolder(msg holderMsg) tea.Cmd {
	h := msg.Value
	f := m.pixForm(h.key)
	if f == nil {
		return nil
	}
	if !h.live {
		f.SetSending(false)
	}
	switch {
	case errors.Is(msg.Err, api.ErrNotFound):
		f.SetFieldError("pixKey", unknownPixKey)
		return nil
	case msg.Err != nil && h.live:
		f.SetNote("pixKey", "could not ask who holds this key: "+ui.ErrorText(msg.Err)+" (ctrl+s asks again)")
		return nil
	case msg.Err != nil:
		f.SetFormError("Could not ask who holds this PIX key: " + ui.ErrorText(msg.Err) + " — ctrl+s asks again")
		return nil
	case h.info == nil:
		f.SetFormError("The PIX directory sent no holder for this key — ctrl+s asks again")
		return nil
	}
	m.known = h
	f.SetNote("pixKey", "pays "+orUnknown(h.info.Name)+" · tax id "+orUnknown(h.info.TaxID)+" · "+orUnknown(h.info.BankName))
	if h.live {
		return nil
	}
	return m.confirmHolder(f, h)
}

// confirmHolder asks before saving the key, repeating who it pays.
func (m *Screen) confirmHolder(f *form.Form, h holder) tea.Cmd {
	key, alias := h.key, f.Normalized("alias")
	_, onYes := ui.Call(m.s, 0, func(context.Context) (string, error) { return key, nil })
	return ui.Confirm(fmt.Sprintf("Save the PIX key of %s?", orUnknown(h.info.Name)), holderBody(h.info, key, alias, m.accountName()), onYes)
}

// holderBody is what the confirmation repeats: who the key pays, and where
// it is saved.
func holderBody(info *api.PixInfo, key, alias, account string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "PIX key %s pays:\n", key)
	fmt.Fprintf(&b, "  Name:    %s\n", orUnknown(info.Name))
	fmt.Fprintf(&b, "  Tax id:  %s\n", orUnknown(info.TaxID))
	fmt.Fprintf(&b, "  Bank:    %s\n", orUnknown(info.BankName))
	fmt.Fprintf(&b, "Saved as %q in %s. If this is not who you mean to pay, answer no and check the key.", alias, account)
	return b.String()
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(not given by the directory)"
	}
	return s
}

// holderOK sends the form the operator confirmed, if it still holds the
// key whose holder was shown.
func (m *Screen) holderOK(msg holderOKMsg) tea.Cmd {
	if f := m.pixForm(msg.Value); f == nil || f.Sending() {
		return nil
	}
	return m.Send()
}
