package beneficiaries

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

func wallet(alias string) api.Wallet {
	return api.Wallet{ID: uuid.New(), Alias: alias, WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "BASE"}
}

// sendWallet opens the wallet form on sc, fills it and returns the command
// that sends it, not run.
func sendWallet(t *testing.T, sc *Screen, alias string) tea.Cmd {
	t.Helper()
	sc.Update(fakeservice.KeyPress("n"))
	f := sc.Form()
	if f == nil {
		t.Fatal("n did not open the wallet form")
	}
	f.SetValue("alias", alias)
	f.SetValue("walletChain", "POLYGON")
	f.SetValue("walletAddress", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	_, cmd := sc.Update(fakeservice.KeyPress("ctrl+s"))
	if cmd == nil {
		t.Fatal("the form was not checked")
	}
	ask, ok := cmd().(ui.ConfirmMsg)
	if !ok {
		t.Fatal("the save was not confirmed first")
	}
	_, cmd = sc.Update(ask.OnYes())
	if cmd == nil {
		t.Fatal("the form was not sent")
	}
	return cmd
}

// TestBeneficiariesDropAnotherAccountsAnswers: the screen of account A asks
// for its lists and sends a wallet creation; the root rebuilds the screen
// for account B, which sends its own creation. A's late answers, delivered
// straight to B's screen, must change nothing there; B's own answer still
// closes B's form.
func TestBeneficiariesDropAnotherAccountsAnswers(t *testing.T) {
	svcA := &fakeservice.Service{Wallets: []api.Wallet{wallet("a-wallet")}}
	a := fakeservice.Session(t, "operator@example.com", canWrite)
	a.Account = ui.Account{ID: subAccount, Name: "Filial"}
	sa := New(a, svcA).(*Screen)
	sa.SetSize(100, 30)
	loadA := sa.Init()
	createA := sendWallet(t, sa, "A cold")

	svcB := &fakeservice.Service{Wallets: []api.Wallet{wallet("b-wallet")}}
	b := staletest.OtherAccount(a)
	h := harness{fakeservice.Drive(t, b, func(s *ui.Session) ui.Screen { return New(s, svcB) }, 100, 30)}
	staletest.AnotherAccount{FromA: []tea.Cmd{loadA, createA}, B: h.Driver, Own: sendWallet(t, h.screen(), "B cold"),
		Held: func() string {
			return fmt.Sprintf("%d wallets, form open %v", h.screen().kinds[0].Table().Len(), h.screen().Form() != nil)
		},
		Then: func(t *testing.T, d *screentest.Driver) {
			d.Key("esc") // past the form, to the list
			v := d.PlainView()
			if h.screen().Form() != nil || !strings.Contains(v, "B cold") || strings.Contains(v, "a-wallet") || strings.Contains(v, "A cold") {
				t.Fatalf("B's own creation:\n%s", v)
			}
		}}.Check(t)
}

// TestBeneficiariesDropAnOlderLoad: a refresh's late answer must not
// replace the list a later refresh brought.
func TestBeneficiariesDropAnOlderLoad(t *testing.T) {
	svc := &fakeservice.Service{Wallets: []api.Wallet{wallet("first")}}
	h := newHarness(t, svc, canWrite)
	staletest.Refresh(h.Driver, func() { svc.Wallets = []api.Wallet{wallet("second")} }, "second", "first").Check(t)
}

// An alias is not cut while the window has columns to spare, and the BRL
// list says what it knows of who a PIX key pays (the service keeps no
// holder's name for it): its tax id, else its note.
func TestAliasesWholeAndThePixColumnFilled(t *testing.T) {
	svc := &fakeservice.Service{Wallets: []api.Wallet{wallet("Fornecedor de Insumos Ltda")}}
	svc.BRL = []api.BRLAccount{
		{ID: uuid.New(), Alias: "Maria", PixKey: "52998224725", PixKeyType: "CPF", TaxID: "52998224725"},
		{ID: uuid.New(), Alias: "Loja", PixKey: "loja@example.com", PixKeyType: "EMAIL", Description: "aluguel da loja"},
	}
	h := newHarness(t, svc, canWrite)
	if v := h.PlainView(); !strings.Contains(v, "Fornecedor de Insumos Ltda") {
		t.Fatalf("the alias is cut with room to spare:\n%s", v)
	}
	toTab(h, 1)
	v := h.PlainView()
	for _, want := range []string{"Holder / note", "52998224725  ", "aluguel da loja"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the BRL list lacks %q:\n%s", want, v)
		}
	}
}
