package beneficiaries

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/ui"
	"tesouro/views/internal/fakeservice"
)

// spy is the screen with the ChangedMsgs its commands produce taken aside
// (the harness keeps only the root's usual messages).
type spy struct {
	ui.Screen
	changes *[]ui.ChangedMsg
}

func (s spy) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	s.Screen, cmd = s.Screen.Update(msg)
	return s, s.watch(cmd)
}

func (s spy) watch(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch m := cmd().(type) {
		case ui.ChangedMsg:
			*s.changes = append(*s.changes, m)
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(m))
			for i, c := range m {
				out[i] = s.watch(c)
			}
			return out
		default:
			return m
		}
	}
}

type spied struct {
	harness
	changes *[]ui.ChangedMsg
}

// newSpied drives the screen of the sub-account "Filial" on svc.
func newSpied(t *testing.T, svc api.Service) spied {
	t.Helper()
	s := fakeservice.Session(t, svc, "operator@example.com", canWrite)
	s.Account = ui.Account{ID: subAccount, Name: "Filial"}
	var changes []ui.ChangedMsg
	h := fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return spy{New(s), &changes} }, 100, 30)
	return spied{harness{h}, &changes}
}

func (h spied) screen() *Screen { return h.Screen.(spy).Screen.(*Screen) }

func (h spied) createWallet() {
	h.T.Helper()
	h.Key("n")
	f := h.screen().Form()
	if f == nil {
		h.T.Fatal("n did not open the wallet form")
	}
	f.SetValue("alias", "Cold")
	f.SetValue("walletChain", "POLYGON")
	f.SetValue("walletAddress", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	h.Key("ctrl+s")
}

func TestCreatedBeneficiaryTellsTheQuotePickers(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newSpied(t, svc)
	h.createWallet()
	if len(svc.WalletsSent) != 1 {
		t.Fatalf("sent %d wallets (form error %q)", len(svc.WalletsSent), h.screen().Form().FormError())
	}
	ch := *h.changes
	if len(ch) != 1 || ch[0] != (ui.ChangedMsg{Account: subAccount, What: ui.ChangedBeneficiaries, By: "beneficiaries"}) {
		t.Fatalf("changes %+v, want the beneficiaries of Filial", ch)
	}
}

func TestRefusedCreationTellsNobody(t *testing.T) {
	svc := &fakeservice.Service{CreateErr: &api.Error{Status: 400, Code: "INVALID", Message: "walletAddress: unknown"}}
	h := newSpied(t, svc)
	h.createWallet()
	if h.screen().Form() == nil || len(*h.changes) != 0 {
		t.Fatalf("a refused creation closed the form or sent %+v", *h.changes)
	}
}

// refusingDelete is the service whose deletes fail.
type refusingDelete struct{ *fakeservice.Service }

func (refusingDelete) DeleteWallet(context.Context, uuid.UUID, uuid.UUID) error {
	return errors.New("wallet in use by a pending ticket")
}

func TestDeleteTellsOnlyWhenDone(t *testing.T) {
	wallets := []api.Wallet{{ID: uuid.New(), Alias: "hot", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", WalletChain: "CELO"}}
	refused := newSpied(t, refusingDelete{&fakeservice.Service{Wallets: wallets}})
	refused.Key("d")
	refused.Run(refused.Asks[0].OnYes)
	if len(*refused.changes) != 0 {
		t.Fatalf("a refused delete sent %+v", *refused.changes)
	}

	h := newSpied(t, &fakeservice.Service{Wallets: wallets})
	h.Key("d")
	h.Run(h.Asks[0].OnYes)
	if ch := *h.changes; len(ch) != 1 || ch[0].What != ui.ChangedBeneficiaries || ch[0].Account != subAccount {
		t.Fatalf("changes %+v after a delete", ch)
	}
}

func TestBeneficiariesWrittenElsewhereReloadKeepingTheCursor(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	svc := &fakeservice.Service{Wallets: []api.Wallet{
		{ID: a, Alias: "alpha", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "BASE"},
		{ID: b, Alias: "beta", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", WalletChain: "BASE"},
	}}
	h := newSpied(t, svc)
	h.Key("down")
	table := h.screen().kinds[0].Table()
	svc.Wallets = append([]api.Wallet{{ID: uuid.New(), Alias: "gamma", WalletAddress: "0x8617E340B3D01FA5F11F306F4090FD50E238070D", WalletChain: "BASE"}}, svc.Wallets...)

	h.Send(ui.ChangedMsg{Account: uuid.Nil, What: ui.ChangedBeneficiaries, By: "other"})
	h.Send(ui.ChangedMsg{Account: subAccount, What: ui.ChangedBeneficiaries, By: "beneficiaries"})
	h.Send(ui.ChangedMsg{Account: subAccount, What: ui.ChangedTickets, By: "quote"})
	if table.Len() != 2 {
		t.Fatal("reloaded for another account, for its own write, or for tickets")
	}
	h.Send(ui.ChangedMsg{Account: subAccount, What: ui.ChangedBeneficiaries, By: "other"})
	if table.Len() != 3 {
		t.Fatalf("%d wallets listed, want the new one too", table.Len())
	}
	if cur, _ := table.Selected(); cur.ID != b.String() {
		t.Fatalf("the cursor moved to %s", cur.ID)
	}
}
