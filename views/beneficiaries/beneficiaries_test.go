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

var canWrite = api.Permissions{Beneficiary: true, PayOut: true}

// openBRLBankForm opens the BRL form in bank-account mode with everything
// but the tax id filled, focus on the tax id.
func openBRLBankForm(h harness) {
	h.Key("right")
	f := h.newForm("BRL")
	f.SetValue("alias", "Fornecedor")
	f.SetValue("mode", modeBank)
	f.SetValue("userName", "Fulano de Tal")
	f.SetValue("bankCode", "341")
	f.SetValue("branchCode", "0001")
	f.SetValue("accountNumber", "12345-6")
}

func TestBRLWrongCPFIsRefusedLocallyThenTheFixedOneIsSentAndListed(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	openBRLBankForm(h)
	h.screen().Form().SetValue("taxId", "529.982.247-24")
	h.save()

	if len(svc.BRLSent) != 0 {
		t.Fatalf("a wrong CPF was sent: %+v", svc.BRLSent)
	}
	f := h.screen().Form()
	if f == nil || f.FocusedKey() != "taxId" || !strings.Contains(f.Error("taxId"), "check digits") {
		t.Fatalf("want the CPF error on the tax id field; focus %q error %q", f.FocusedKey(), f.Error("taxId"))
	}
	if v := h.PlainView(); !strings.Contains(v, "check digits do not match") {
		t.Fatalf("the error is not on screen:\n%s", v)
	}

	// Fix the last digit as a user would: backspace and type.
	h.Key("backspace")
	h.Type("5")
	if hint := f.Hint("taxId"); !strings.Contains(hint, "CPF 52998224725") {
		t.Fatalf("hint = %q, want the recognised CPF", hint)
	}
	h.save()

	if len(svc.BRLSent) != 1 {
		t.Fatalf("sent %d requests, want 1", len(svc.BRLSent))
	}
	got := svc.BRLSent[0]
	if got.TaxID != "52998224725" || got.AccountNumber != "123456" || got.AccountType != "checking" || got.PixKey != "" {
		t.Fatalf("request = %+v", got)
	}
	if h.screen().Form() != nil {
		t.Fatal("the form should close once the beneficiary is created")
	}
	row, ok := h.screen().kinds[1].Table().Selected()
	if !ok || row.Cells[0] != "Fornecedor" {
		t.Fatalf("the new beneficiary is not the selected row: %+v", row)
	}
	if v := h.PlainView(); !strings.Contains(v, "Fornecedor") {
		t.Fatalf("new beneficiary not listed:\n%s", v)
	}
	es := h.Journal()
	if len(es) != 1 || es[0].Action != "create-beneficiary-brl" || es[0].Outcome != "created" ||
		es[0].Account != subAccount.String() || es[0].IDs["beneficiary"] == "" {
		t.Fatalf("journal = %+v", es)
	}
	for _, a := range svc.Accounts {
		if a != subAccount {
			t.Fatalf("a call went to account %s, not the operated one", a)
		}
	}
}

func TestPixKeyKindIsShown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"529.982.247-25", "recognised: CPF key 52998224725"},
		{"11.222.333/0001-81", "recognised: CNPJ key 11222333000181"},
		{"12.ABC.345/01DE-35", "recognised: CNPJ key 12ABC34501DE35"},
		{"+55 11 91234-5678", "recognised: phone key +5511912345678"},
		{"Fulano@Example.com", "recognised: e-mail key fulano@example.com"},
		{"123e4567-e12b-12d1-a456-426655440000", "recognised: random (EVP) key 123e4567-e12b-12d1-a456-426655440000"},
	}
	for _, c := range cases {
		h := newHarness(t, &fakeservice.Service{}, canWrite)
		h.Key("right", "n")
		f := h.screen().Form()
		f.SetValue("pixKey", c.in)
		if got := f.Hint("pixKey"); got != c.want {
			t.Errorf("%q: hint %q, want %q", c.in, got, c.want)
		}
		if !strings.Contains(h.PlainView(), c.want) {
			t.Errorf("%q: the kind is not on screen", c.in)
		}
	}
	h := newHarness(t, &fakeservice.Service{}, canWrite)
	h.Key("right", "n")
	f := h.screen().Form()
	f.SetValue("alias", "x")
	f.SetValue("pixKey", "11912345678")
	h.save()
	if !strings.Contains(f.Error("pixKey"), "+55") {
		t.Fatalf("11 bare digits that fail as a CPF should suggest +55: %q", f.Error("pixKey"))
	}
}

func TestWalletChecksumRefusedThenAcceptedInChecksummedForm(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	h.Key("n")
	f := h.screen().Form()
	f.SetValue("alias", "cold")
	f.SetValue("walletChain", "POLYGON")
	f.SetValue("walletAddress", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")
	h.save()
	if len(svc.WalletsSent) != 0 || !strings.Contains(f.Error("walletAddress"), "checksum does not match") {
		t.Fatalf("bad checksum: sent %v, error %q", svc.WalletsSent, f.Error("walletAddress"))
	}
	f.SetValue("walletAddress", "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359")
	if !strings.Contains(h.PlainView(), "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359") {
		t.Fatalf("the checksummed form is not shown:\n%s", h.PlainView())
	}
	h.save()
	if len(svc.WalletsSent) != 1 || svc.WalletsSent[0].WalletAddress != "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" || svc.WalletsSent[0].WalletChain != "POLYGON" {
		t.Fatalf("sent %+v, want the checksummed address on POLYGON", svc.WalletsSent)
	}
}

func TestServiceErrorLandsOnTheFieldItNames(t *testing.T) {
	svc := &fakeservice.Service{CreateErr: &api.Error{Status: 400, Code: "INVALID_PIX_KEY", Message: "pixKey: no such key in the PIX directory",
		Method: "POST", Path: "/v2/account/beneficiaries/bank-accounts/brl/"}}
	h := newHarness(t, svc, canWrite)
	h.Key("right", "n")
	f := h.screen().Form()
	f.SetValue("alias", "x")
	f.SetValue("pixKey", "fulano@example.com")
	svc.Holders = map[string]api.PixInfo{"fulano@example.com": {Name: "Fulano de Tal", TaxID: "***.982.247-**", BankName: "Banco Exemplo"}}
	h.save()
	if len(h.Asks) != 1 {
		t.Fatalf("the holder was not shown before saving: %d confirmations", len(h.Asks))
	}
	h.Run(h.Asks[0].OnYes)
	if h.screen().Form() == nil {
		t.Fatal("the form must stay open after a refusal")
	}
	if f.Sending() || f.FocusedKey() != "pixKey" || f.Error("pixKey") != "pixKey: no such key in the PIX directory" {
		t.Fatalf("sending %v focus %q error %q", f.Sending(), f.FocusedKey(), f.Error("pixKey"))
	}
	es := h.Journal()
	if len(es) != 1 || !strings.HasPrefix(es[0].Outcome, "error: ") {
		t.Fatalf("journal = %+v", es)
	}
}

func TestWriteActionsHiddenWithoutBeneficiaryPermission(t *testing.T) {
	svc := &fakeservice.Service{Wallets: []api.Wallet{{ID: uuid.New(), Alias: "w", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "BASE"}}}
	h := newHarness(t, svc, api.Permissions{Convert: true})
	for _, b := range h.Screen.KeyMap() {
		if b.Enabled() && (b.Help().Desc == "new beneficiary" || b.Help().Desc == "delete") {
			t.Fatalf("binding %q is live without the beneficiary permission", b.Help().Desc)
		}
	}
	h.Key("n")
	if h.screen().Form() != nil {
		t.Fatal("n opened a form without the beneficiary permission")
	}
	if len(h.Toasts) == 0 || !strings.Contains(h.Toasts[0].Text, "beneficiary permission") {
		t.Fatalf("toasts = %+v", h.Toasts)
	}
	h.Key("d")
	if len(h.Asks) != 0 {
		t.Fatal("d asked to delete without the permission")
	}
	if !strings.Contains(h.PlainView(), "read only: this access lacks the beneficiary permission") {
		t.Fatalf("the reason is not on screen:\n%s", h.PlainView())
	}
}

func TestDeleteWalletIsConfirmedThenJournaled(t *testing.T) {
	id := uuid.New()
	svc := &fakeservice.Service{Wallets: []api.Wallet{{ID: id, Alias: "hot", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", WalletChain: "CELO"}}}
	h := newHarness(t, svc, canWrite)
	h.Key("d")
	if len(h.Asks) != 1 {
		t.Fatalf("want one confirmation, got %d", len(h.Asks))
	}
	ask := h.Asks[0]
	for _, want := range []string{"hot", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "CELO", "Filial"} {
		if !strings.Contains(ask.Title+ask.Body, want) {
			t.Errorf("confirmation lacks %q:\n%s\n%s", want, ask.Title, ask.Body)
		}
	}
	if len(svc.Deleted) != 0 {
		t.Fatal("deleted before the confirmation")
	}
	h.Run(ask.OnYes)
	if len(svc.Deleted) != 1 || svc.Deleted[0] != id {
		t.Fatalf("deleted = %v", svc.Deleted)
	}
	if h.screen().kinds[0].Table().Len() != 0 {
		t.Fatal("the deleted wallet is still listed")
	}
	es := h.Journal()
	if len(es) != 1 || es[0].Action != "delete-beneficiary-wallet" || es[0].IDs["beneficiary"] != id.String() || es[0].Outcome != "deleted" {
		t.Fatalf("journal = %+v", es)
	}
}

func TestNoDeleteForUSD(t *testing.T) {
	h := newHarness(t, &fakeservice.Service{}, canWrite)
	h.Key("right", "right") // USD
	for _, b := range h.Screen.KeyMap() {
		if b.Enabled() && b.Help().Desc == "delete" {
			t.Fatal("delete offered for USD accounts, which the service cannot delete")
		}
	}
}

func TestABAAndCOPRules(t *testing.T) {
	h := newHarness(t, &fakeservice.Service{}, canWrite)
	h.Key("right", "right", "n")
	f := h.screen().Form()
	f.SetValue("bankRoutingNumber", "123456789")
	h.save()
	if !strings.Contains(f.Error("bankRoutingNumber"), "check digit") {
		t.Fatalf("ABA 123456789: %q", f.Error("bankRoutingNumber"))
	}
	f.SetValue("bankRoutingNumber", "021000021")
	if f.Error("bankRoutingNumber") != "" {
		t.Fatalf("ABA 021000021 refused: %q", f.Error("bankRoutingNumber"))
	}
	h.Key("esc")
	h.Key("right") // COP
	f = copWithoutPayee(h)
	f.SetValue("beneficiaryEmail", "not-an-email")
	if f.Error("beneficiaryEmail") == "" {
		t.Fatal("a bad e-mail is accepted")
	}
}

// copWithoutPayee opens the COP form of the tab shown and submits it with
// neither a Bre-B key nor a bank account: the rule names the key.
func copWithoutPayee(h harness) *form.Form {
	h.T.Helper()
	f := h.newForm("COP account")
	f.SetValue("alias", "bogota")
	f.SetValue("beneficiaryName", "Juan")
	h.save()
	if !strings.Contains(f.Error("breBKey"), "Bre-B key") {
		h.T.Fatalf("COP without key nor account: %q", f.Error("breBKey"))
	}
	return f
}

// The COP rule ("a Bre-B key or a bank account") is about several fields:
// its error goes as soon as one of them changes, even one it is not shown
// under.
func TestCOPRuleErrorClearsWhenTheFieldsItNamesAreFilled(t *testing.T) {
	h := newHarness(t, &fakeservice.Service{}, canWrite)
	h.Key("right", "right", "right") // COP
	f := copWithoutPayee(h)
	// The bank account instead of the key: the complaint under the key
	// goes with the first bank field typed.
	f.SetValue("bankAccountNumber", "12345678")
	if e := f.Error("breBKey"); e != "" {
		t.Fatalf("the rule's error stays under the Bre-B key once the account number is typed: %q", e)
	}
	if v := h.PlainView(); strings.Contains(v, "type a Bre-B key, or the bank account") {
		t.Fatalf("the rule's error is still shown:\n%s", v)
	}
	h.save()
	if !strings.Contains(f.Error("bankId"), "bank id or the bank name") {
		t.Fatalf("an account without its bank: %q", f.Error("bankId"))
	}
	f.SetValue("bankName", "Bancolombia")
	if e := f.Error("bankId"); e != "" {
		t.Fatalf("the bank named, the error under the bank id stays: %q", e)
	}
}

func TestFilterNarrowsTheShownKind(t *testing.T) {
	svc := &fakeservice.Service{Wallets: []api.Wallet{
		{ID: uuid.New(), Alias: "alpha", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "BASE"},
		{ID: uuid.New(), Alias: "beta", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", WalletChain: "CELO"},
	}}
	h := newHarness(t, svc, canWrite)
	h.Send(ui.FilterMsg{Query: "celo"})
	v := h.PlainView()
	if strings.Contains(v, "alpha") || !strings.Contains(v, "beta") || !strings.Contains(v, "1 of 2") {
		t.Fatalf("filter celo:\n%s", v)
	}
}

func TestSmallTerminal(t *testing.T) {
	svc := &fakeservice.Service{Wallets: []api.Wallet{{ID: uuid.New(), Alias: "alpha", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "BASE"}}}
	h := newHarness(t, svc, canWrite)
	h.Screen.SetSize(40, 12)
	if v := h.PlainView(); !strings.Contains(v, "0x5aAeb") {
		t.Fatalf("a narrow list must keep the address:\n%s", v)
	}
	for _, sz := range [][2]int{{40, 12}, {20, 5}, {1, 1}, {120, 40}} {
		h.Screen.SetSize(sz[0], sz[1])
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.Key("n")
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.save()
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.Key("esc")
	}
}
