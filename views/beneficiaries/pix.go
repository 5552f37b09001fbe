package beneficiaries

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// A PIX key is saved only once the operator has seen who it pays: the
// checked form first asks the PIX directory (pix-info) for the key's
// holder, shows the name, masked tax id and bank in a confirmation, and
// sends the form on yes. A key the directory does not know is refused on
// its field, so a mistyped key is never saved for a later payout.

// holder is the PIX directory's answer about one key.
type holder struct {
	key  string
	info *api.PixInfo
}

type (
	holderMsg = ui.Result[holder]
	// holderOKMsg is the operator's yes to the holder shown for key.
	holderOKMsg = ui.Result[string]
)

// unknownPixKey is what the PIX key field says when no account holds it.
const unknownPixKey = "no account holds this PIX key (the PIX directory does not know it): check the key with the payee"

// vetPix runs on a checked BRL form: a bank account goes at once; a PIX
// key goes once its holder was shown and confirmed.
func (m *Screen) vetPix(f *form.Form) tea.Cmd {
	if f.Value("mode") != modePix {
		return m.Send()
	}
	key, svc := f.Normalized("pixKey"), m.svc
	f.SetSending(true)
	f.SetFormError("")
	return ui.Fetch(m.s, &m.holderSlot, 0, func(ctx context.Context) (holder, error) {
		info, err := svc.PixInfo(ctx, key)
		if err != nil {
			err = fmt.Errorf("who holds PIX key %s: %w", key, err)
		}
		return holder{key: key, info: info}, err
	})
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

// gotHolder shows the holder of the key the form still holds, and asks
// before saving it.
func (m *Screen) gotHolder(msg holderMsg) tea.Cmd {
	f := m.pixForm(msg.Value.key)
	if f == nil {
		return nil
	}
	f.SetSending(false)
	switch {
	case errors.Is(msg.Err, api.ErrNotFound):
		f.SetFieldError("pixKey", unknownPixKey)
		return nil
	case msg.Err != nil:
		f.SetFormError("Could not ask who holds this PIX key: " + ui.ErrorText(msg.Err) + " — ctrl+s asks again")
		return nil
	case msg.Value.info == nil:
		f.SetFormError("The PIX directory sent no holder for this key — ctrl+s asks again")
		return nil
	}
	info, key, alias := msg.Value.info, msg.Value.key, f.Normalized("alias")
	_, onYes := ui.Call(m.s, 0, func(context.Context) (string, error) { return key, nil })
	return ui.Confirm(fmt.Sprintf("Save the PIX key of %s?", orUnknown(info.Name)), holderBody(info, key, alias, m.accountName()), onYes)
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
