package beneficiaries

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

type harness struct{ *fakeservice.Harness }

var subAccount = uuid.MustParse("7b0c5c1e-2a4b-4c8e-9a51-0d5e6f7a8b9c")

// newHarness drives the screen for the sub-account "Filial".
func newHarness(t *testing.T, svc Service, perms api.Permissions) harness {
	t.Helper()
	s := fakeservice.Session(t, "operator@example.com", perms)
	s.Account = ui.Account{ID: subAccount, Name: "Filial"}
	return harness{fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, svc) }, 100, 30)}
}

func (h harness) screen() *Screen { return h.Screen.(*Screen) }

// newForm presses n on the tab shown and returns the form it opens, the
// one for a new what.
func (h harness) newForm(what string) *form.Form {
	h.T.Helper()
	h.Key("n")
	f := h.screen().Form()
	if f == nil {
		h.T.Fatalf("n did not open the %s form", what)
	}
	return f
}

// save presses ctrl+s and answers yes to the save confirmation it opens
// (a PIX key's holder is confirmed by the test itself).
func (h harness) save() {
	h.T.Helper()
	n := len(h.Asks)
	h.Key("ctrl+s")
	if len(h.Asks) > n && strings.HasPrefix(h.Asks[len(h.Asks)-1].Title, "Register") {
		h.Run(h.Asks[len(h.Asks)-1].OnYes)
	}
}
