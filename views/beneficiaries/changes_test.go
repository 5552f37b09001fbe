package beneficiaries

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

func (h harness) createWallet() {
	h.T.Helper()
	f := h.newForm("wallet")
	f.SetValue("alias", "Cold")
	f.SetValue("walletChain", "POLYGON")
	f.SetValue("walletAddress", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	h.save()
}

func TestCreatedBeneficiaryTellsTheQuotePickers(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	h.createWallet()
	if len(svc.WalletsSent) != 1 {
		t.Fatalf("sent %d wallets (form error %q)", len(svc.WalletsSent), h.screen().Form().FormError())
	}
	ch := h.Changes
	if len(ch) != 1 || ch[0] != (ui.ChangedMsg{Account: subAccount, What: ui.ChangedBeneficiaries, By: "beneficiaries"}) {
		t.Fatalf("changes %+v, want the beneficiaries of Filial", ch)
	}
}

func TestRefusedCreationTellsNobody(t *testing.T) {
	svc := &fakeservice.Service{CreateErr: &api.Error{Status: 400, Code: "INVALID", Message: "walletAddress: unknown"}}
	h := newHarness(t, svc, canWrite)
	h.createWallet()
	if h.screen().Form() == nil || len(h.Changes) != 0 {
		t.Fatalf("a refused creation closed the form or sent %+v", h.Changes)
	}
}

// refusingDelete is the service whose deletes fail.
type refusingDelete struct{ *fakeservice.Service }

func (refusingDelete) DeleteWallet(context.Context, uuid.UUID, uuid.UUID) error {
	return errors.New("wallet in use by a pending ticket")
}

func TestDeleteTellsOnlyWhenDone(t *testing.T) {
	wallets := []api.Wallet{{ID: uuid.New(), Alias: "hot", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", WalletChain: "CELO"}}
	refused := newHarness(t, refusingDelete{&fakeservice.Service{Wallets: wallets}}, canWrite)
	refused.Key("d")
	refused.Run(refused.Asks[0].OnYes)
	if len(refused.Changes) != 0 {
		t.Fatalf("a refused delete sent %+v", refused.Changes)
	}

	h := newHarness(t, &fakeservice.Service{Wallets: wallets}, canWrite)
	h.Key("d")
	h.Run(h.Asks[0].OnYes)
	if ch := h.Changes; len(ch) != 1 || ch[0].What != ui.ChangedBeneficiaries || ch[0].Account != subAccount {
		t.Fatalf("changes %+v after a delete", ch)
	}
}

func TestBeneficiariesWrittenElsewhereReloadKeepingTheCursor(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	svc := &fakeservice.Service{Wallets: []api.Wallet{
		{ID: a, Alias: "alpha", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "BASE"},
		{ID: b, Alias: "beta", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", WalletChain: "BASE"},
	}}
	h := newHarness(t, svc, canWrite)
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
