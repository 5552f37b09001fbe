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

// Tab indexes of the kinds added for the live service.
const (
	tabEUR = 4
	tabARS = 5
)

// toTab moves the screen to tab i as a user does, with →.
func toTab(h harness, i int) {
	for range i {
		h.Key("right")
	}
}

func TestEURBadIBANOnItsFieldThenTheGoodOneIsSentAndListed(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	toTab(h, tabEUR)
	if v := h.PlainView(); !strings.Contains(v, "[EUR 0]") || !strings.Contains(v, "no EUR account registered") {
		t.Fatalf("the EUR tab is not on screen:\n%s", v)
	}
	f := h.newForm("EUR")
	h.Type("Fournisseur")
	h.Key("tab")
	h.Type("Dupont SARL")
	h.Key("tab")
	h.Type("FR14 2004 1010 0505 0001 3M02 607") // last digit wrong
	h.save()
	if len(svc.EURSent) != 0 {
		t.Fatalf("a bad IBAN was sent: %+v", svc.EURSent)
	}
	if f.FocusedKey() != "iban" || !strings.Contains(f.Error("iban"), "check digits do not match") {
		t.Fatalf("want the error on the IBAN; focus %q error %q", f.FocusedKey(), f.Error("iban"))
	}
	if v := h.PlainView(); !strings.Contains(v, "check digits do not match") {
		t.Fatalf("the IBAN error is not on screen:\n%s", v)
	}
	h.Key("backspace")
	h.Type("6")
	if hint := f.Hint("iban"); !strings.Contains(hint, "FR14 2004 1010 0505 0001 3M02 606") || !strings.Contains(hint, "FRA") {
		t.Fatalf("IBAN hint = %q", hint)
	}
	h.save()
	if len(svc.EURSent) != 1 {
		t.Fatalf("sent %d EUR requests, want 1", len(svc.EURSent))
	}
	got := svc.EURSent[0]
	want := api.CreateEURAccountRequest{Alias: "Fournisseur", IBAN: "FR1420041010050500013M02606", Country: "FRA", BankBeneficiaryName: "Dupont SARL"}
	if got != want {
		t.Fatalf("request = %+v\nwant %+v", got, want)
	}
	if h.screen().Form() != nil {
		t.Fatal("the form should close once the account is created")
	}
	row, ok := h.screen().kinds[tabEUR].Table().Selected()
	if !ok || row.Cells[0] != "Fournisseur" {
		t.Fatalf("the new account is not the selected row: %+v", row)
	}
	if v := h.PlainView(); !strings.Contains(v, "[EUR 1]") || !strings.Contains(v, "FR14 2004 1010 0505 0001 3M02 606") {
		t.Fatalf("the new account is not listed:\n%s", v)
	}
	if es := h.Journal(); len(es) != 1 || es[0].Action != "create-beneficiary-eur" || es[0].Outcome != "created" {
		t.Fatalf("journal = %+v", es)
	}
	// The save was confirmed, repeating what is registered and that the
	// service can never delete it.
	if len(h.Asks) != 1 || !strings.Contains(h.Asks[0].Body, "PERMANENT: the service offers no delete for EUR accounts") ||
		!strings.Contains(h.Asks[0].Body, "IBAN: FR1420041010050500013M02606") {
		t.Fatalf("the save was not confirmed with its facts: %+v", h.Asks)
	}
	// No delete in the live catalogue: d says so, and asks nothing.
	h.Key("d")
	if len(h.Asks) != 1 || len(h.Toasts) == 0 || !strings.Contains(h.Toasts[len(h.Toasts)-1].Text, "no delete for EUR accounts") {
		t.Fatalf("d on EUR: asks %d toasts %+v", len(h.Asks), h.Toasts)
	}
}

func TestEURServiceRefusalLandsOnTheBICField(t *testing.T) {
	svc := &fakeservice.Service{CreateErr: &api.Error{Status: 400, Code: "INVALID_FIELD", Message: "bic: bank code does not match the IBAN's bank",
		Method: "POST", Path: "/v2/account/beneficiaries/bank-accounts/eur/"}}
	h := newHarness(t, svc, canWrite)
	toTab(h, tabEUR)
	h.Key("n")
	f := h.screen().Form()
	f.SetValue("alias", "Lieferant")
	f.SetValue("bankBeneficiaryName", "Muster GmbH")
	f.SetValue("iban", "DE89 3704 0044 0532 0130 00")
	f.SetValue("bic", "deutdeff")
	f.SetValue("country", "DEU")
	f.SetValue("isBusiness", "yes")
	h.save()
	if len(svc.EURSent) != 1 || svc.EURSent[0].BIC != "DEUTDEFF" || !svc.EURSent[0].IsBusiness || svc.EURSent[0].Country != "DEU" {
		t.Fatalf("sent %+v", svc.EURSent)
	}
	if h.screen().Form() == nil || f.FocusedKey() != "bic" || f.Error("bic") != "bic: bank code does not match the IBAN's bank" {
		t.Fatalf("focus %q bic error %q", f.FocusedKey(), f.Error("bic"))
	}
	if v := h.PlainView(); !strings.Contains(v, "bank code does not match") {
		t.Fatalf("the refusal is not on screen:\n%s", v)
	}
}

func TestARSBadCVUOnItsFieldThenTheGoodOneIsSentAndListed(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	toTab(h, tabARS)
	f := h.newForm("ARS")
	h.Type("Proveedor")
	h.Key("tab")
	h.Type("2850590840090418135201") // first block's check digit wrong
	h.save()
	if len(svc.ARSSent) != 0 || f.FocusedKey() != "cvu" || f.Error("cvu") == "" {
		t.Fatalf("bad CVU: sent %+v focus %q error %q", svc.ARSSent, f.FocusedKey(), f.Error("cvu"))
	}
	if v := h.PlainView(); !strings.Contains(v, f.Error("cvu")[:20]) {
		t.Fatalf("the CVU error is not on screen:\n%s", v)
	}
	for range 22 {
		h.Key("backspace")
	}
	h.Type("285-0590940090418135201")
	if hint := f.Hint("cvu"); !strings.Contains(hint, "28505909 40090418135201") {
		t.Fatalf("CVU hint = %q", hint)
	}
	h.save()
	if len(svc.ARSSent) != 1 || svc.ARSSent[0] != (api.CreateARSAccountRequest{Alias: "Proveedor", CVU: "2850590940090418135201"}) {
		t.Fatalf("sent %+v", svc.ARSSent)
	}
	if v := h.PlainView(); h.screen().Form() != nil || !strings.Contains(v, "[ARS 1]") || !strings.Contains(v, "Proveedor") {
		t.Fatalf("the new account is not listed:\n%s", v)
	}
}

// A CVU already registered is named in the confirmation, and only a
// second yes saves it again; a no at the second question saves nothing.
func TestDuplicateCVUNeedsASecondYes(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.ARS = []api.ARSAccount{{ID: uuid.New(), Alias: "Proveedor BA", CVU: "2850590940090418135201"}}
	h := newHarness(t, svc, canWrite)
	toTab(h, tabARS)
	for _, second := range []bool{false, true} {
		h.newForm("ARS")
		h.Type("Otro nombre")
		h.Key("tab")
		h.Type("2850590940090418135201")
		n := len(h.Asks)
		h.Key("ctrl+s")
		if len(h.Asks) != n+1 || !strings.Contains(h.Asks[n].Body, `CVU 2850590940090418135201 is "Proveedor BA"'s`) {
			t.Fatalf("the duplicate is not named: %+v", h.Asks[n:])
		}
		h.Run(h.Asks[n].OnYes)
		if len(svc.ARSSent) != 0 || len(h.Asks) != n+2 || !strings.Contains(h.Asks[n+1].Title, "Second yes") {
			t.Fatalf("one yes saved a duplicate: sent %+v, asks %+v", svc.ARSSent, h.Asks[n:])
		}
		if !second {
			h.Key("esc") // the form is left: nothing saved
			if len(svc.ARSSent) != 0 {
				t.Fatalf("sent %+v", svc.ARSSent)
			}
			continue
		}
		h.Run(h.Asks[n+1].OnYes)
		if len(svc.ARSSent) != 1 || svc.ARSSent[0].Alias != "Otro nombre" {
			t.Fatalf("the second yes did not save: %+v", svc.ARSSent)
		}
	}
}

func TestEURListDropsAnOlderLoad(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.EUR = []api.EURAccount{{ID: uuid.New(), Alias: "first", IBAN: "DE89370400440532013000"}}
	h := newHarness(t, svc, canWrite)
	toTab(h, tabEUR)
	staletest.Refresh(h.Driver, func() { svc.EUR = []api.EURAccount{{ID: uuid.New(), Alias: "second", IBAN: "GB82WEST12345698765432"}} }, "second", "first").Check(t)
}

// openPixForm opens the BRL form on a PIX key, filled, not sent.
func openPixForm(h harness, alias, key string) {
	h.Key("right")
	f := h.newForm("BRL")
	f.SetValue("alias", alias)
	f.SetValue("pixKey", key)
}

// unknownKey is the PIX key field's error for a key the fake directory
// does not know: the words of the Quote and Approvals screens, then what
// it means here.
func unknownKey(key string) string {
	return "no holder for this key: pix key " + key + " not found (NOT_FOUND, HTTP 404): check it with the payee"
}

var fulano = api.PixInfo{Name: "Fulano de Tal", TaxID: "***.982.247-**", BankName: "Banco Exemplo S.A."}

func TestPixKeyHolderIsShownBeforeSaving(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.Holders = map[string]api.PixInfo{"52998224725": fulano}
	h := newHarness(t, svc, canWrite)
	openPixForm(h, "Fulano", "529.982.247-25")
	h.save()
	if len(svc.PixAsked) != 1 || svc.PixAsked[0] != "52998224725" {
		t.Fatalf("pix-info asked %v, want the normalised key", svc.PixAsked)
	}
	if len(h.Asks) != 1 {
		t.Fatalf("want the holder in a confirmation, got %d", len(h.Asks))
	}
	ask := h.Asks[0]
	for _, want := range []string{"Fulano de Tal", "***.982.247-**", "Banco Exemplo S.A.", "52998224725", `"Fulano"`, "Filial"} {
		if !strings.Contains(ask.Title+ask.Body, want) {
			t.Errorf("the confirmation lacks %q:\n%s\n%s", want, ask.Title, ask.Body)
		}
	}
	if len(svc.BRLSent) != 0 {
		t.Fatalf("saved before the holder was confirmed: %+v", svc.BRLSent)
	}
	// No: nothing is saved, the form stays to fix the key.
	if ask.OnNo != nil {
		h.Run(ask.OnNo)
	}
	if len(svc.BRLSent) != 0 || h.screen().Form() == nil {
		t.Fatalf("after no: sent %+v, form open %v", svc.BRLSent, h.screen().Form() != nil)
	}
	// Again, and yes: saved with the key, and listed.
	h.save()
	if len(h.Asks) != 2 {
		t.Fatalf("ctrl+s again did not show the holder: %d asks", len(h.Asks))
	}
	h.Run(h.Asks[1].OnYes)
	if len(svc.BRLSent) != 1 || svc.BRLSent[0].PixKey != "52998224725" || svc.BRLSent[0].Alias != "Fulano" {
		t.Fatalf("sent %+v", svc.BRLSent)
	}
	if v := h.PlainView(); h.screen().Form() != nil || !strings.Contains(v, "Fulano") {
		t.Fatalf("not listed after yes:\n%s", v)
	}
}

func TestUnknownPixKeyIsSaidOnItsField(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	openPixForm(h, "Ninguém", "ninguem@example.com")
	h.save()
	f := h.screen().Form()
	if len(svc.PixAsked) != 1 {
		t.Fatalf("pix-info was not asked: %v", svc.PixAsked)
	}
	if len(h.Asks) != 0 || len(svc.BRLSent) != 0 {
		t.Fatalf("an unknown key went on: asks %d sent %+v", len(h.Asks), svc.BRLSent)
	}
	if f == nil || f.Sending() || f.FocusedKey() != "pixKey" || f.Error("pixKey") != unknownKey("ninguem@example.com") {
		t.Fatalf("focus %q error %q", f.FocusedKey(), f.Error("pixKey"))
	}
	if v := h.PlainView(); !strings.Contains(v, "✗ no holder for this key") {
		t.Fatalf("not said on screen:\n%s", v)
	}
	// A bank account is not looked up: it goes at once.
	f.SetValue("mode", modeBank)
	f.SetValue("taxId", "529.982.247-25")
	f.SetValue("userName", "Fulano de Tal")
	f.SetValue("bankCode", "341")
	f.SetValue("branchCode", "1")
	f.SetValue("accountNumber", "1")
	h.save()
	if len(svc.PixAsked) != 1 || len(svc.BRLSent) != 1 || svc.BRLSent[0].PixKey != "" {
		t.Fatalf("bank account: asked %v sent %+v", svc.PixAsked, svc.BRLSent)
	}
}

// TestPixHolderOfAnEarlierKeyIsDropped: the key changed while its holder
// was asked: the late answer neither asks nor saves; the new key is asked.
func TestPixHolderOfAnEarlierKeyIsDropped(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.Holders = map[string]api.PixInfo{"52998224725": fulano, "fulano@example.com": fulano}
	h := newHarness(t, svc, canWrite)
	openPixForm(h, "Fulano", "529.982.247-25")
	var ask tea.Cmd
	h.Screen, ask = h.Screen.Update(screentest.KeyPress("ctrl+s"))
	late := staletest.Answers(ask)
	f := h.screen().Form()
	f.SetSending(false) // as if the operator could type meanwhile
	f.SetValue("pixKey", "fulano@example.com")
	for _, msg := range late {
		h.Send(msg)
	}
	if len(h.Asks) != 0 || len(svc.BRLSent) != 0 {
		t.Fatalf("the earlier key's holder went on: asks %d sent %+v", len(h.Asks), svc.BRLSent)
	}
	h.save()
	if len(h.Asks) != 1 || !strings.Contains(h.Asks[0].Body, "fulano@example.com") {
		t.Fatalf("the new key's holder: %+v", h.Asks)
	}
}

// TestPixHolderOfAnotherAccountIsDropped: account A asked who a key pays;
// the screen rebuilt for B, with its own form open, ignores A's answer and
// A's yes.
func TestPixHolderOfAnotherAccountIsDropped(t *testing.T) {
	svcA := &fakeservice.Service{}
	svcA.Holders = map[string]api.PixInfo{"52998224725": fulano}
	a := fakeservice.Session(t, "operator@example.com", canWrite)
	a.Account = ui.Account{ID: subAccount, Name: "Filial"}
	ha := harness{fakeservice.Drive(t, a, func(s *ui.Session) ui.Screen { return New(s, svcA) }, 100, 30)}
	openPixForm(ha, "A key", "529.982.247-25")
	_, askA := ha.Screen.Update(screentest.KeyPress("ctrl+s"))
	ha.Run(askA)
	if len(ha.Asks) != 1 {
		t.Fatal("A was not asked")
	}
	yesA := ha.Asks[0].OnYes

	svcB := &fakeservice.Service{}
	svcB.Holders = map[string]api.PixInfo{"52998224725": {Name: "Beltrano", TaxID: "***.111.222-**", BankName: "Banco B"}}
	b := staletest.OtherAccount(a)
	h := harness{fakeservice.Drive(t, b, func(s *ui.Session) ui.Screen { return New(s, svcB) }, 100, 30)}
	openPixForm(h, "B key", "529.982.247-25")
	_, own := h.Screen.Update(screentest.KeyPress("ctrl+s"))
	staletest.AnotherAccount{FromA: []tea.Cmd{askA, yesA}, B: h.Driver, Own: own,
		Held: func() string {
			return fmt.Sprintf("sent %d, asks %d, sending %v", len(svcB.BRLSent), len(h.Asks), h.screen().Form().Sending())
		},
		Then: func(t *testing.T, d *screentest.Driver) {
			if len(h.Asks) != 1 || !strings.Contains(h.Asks[0].Body, "Beltrano") || len(svcB.BRLSent) != 0 {
				t.Fatalf("B's own holder: asks %+v sent %+v", h.Asks, svcB.BRLSent)
			}
		}}.Check(t)
}

// TestNarrowTabsKeepTheOneShown: six tabs do not fit in 40 columns; the
// tab shown stays named, with its place.
func TestNarrowTabsKeepTheOneShown(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.ARS = []api.ARSAccount{{ID: uuid.New(), Alias: "Proveedor", CVU: "2850590940090418135201"}}
	h := newHarness(t, svc, canWrite)
	h.Screen.SetSize(40, 12)
	toTab(h, tabARS)
	v := h.PlainView()
	if !strings.Contains(v, "[ARS 1] 6/6") || !strings.Contains(v, "Proveedor") {
		t.Fatalf("40 columns:\n%s", v)
	}
	screentest.CheckSize(t, h.Screen.View(), 40, 12)
}

// TestPixHolderShowsUnderTheKeyAsTyped: once a valid key is typed and
// typing pauses, its holder shows under the field; keys typed on the way
// are not looked up; ctrl+s then confirms without asking again.
func TestPixHolderShowsUnderTheKeyAsTyped(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.Holders = map[string]api.PixInfo{"52998224725": fulano}
	h := newHarness(t, svc, canWrite)
	h.Key("right", "n")
	h.Type("Fulano")
	h.Key("tab", "tab")
	h.Type("529.982.247-25")
	if len(svc.PixAsked) != 0 {
		t.Fatalf("asked before typing paused: %v", svc.PixAsked)
	}
	h.Advance(lookupDelay)
	if len(svc.PixAsked) != 1 || svc.PixAsked[0] != "52998224725" {
		t.Fatalf("asked %v, want the final key once", svc.PixAsked)
	}
	v := h.PlainView()
	for _, want := range []string{"Holder: Fulano de Tal · ***.982.247-** · Banco Exemplo S.A."} {
		if !strings.Contains(v, want) {
			t.Fatalf("the holder is not under the key (%q):\n%s", want, v)
		}
	}
	h.save()
	if len(svc.PixAsked) != 1 || len(h.Asks) != 1 || !strings.Contains(h.Asks[0].Body, "Fulano de Tal") {
		t.Fatalf("ctrl+s: asked %v, confirmations %d", svc.PixAsked, len(h.Asks))
	}
	// Another key: the holder shown goes away with the old value.
	h.Key("backspace")
	if v := h.PlainView(); strings.Contains(v, "Fulano de Tal") {
		t.Fatalf("the holder of the earlier key is still shown:\n%s", v)
	}
}

func TestUnknownPixKeyIsSaidAsTyped(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	h.Key("right", "n")
	h.Type("Ninguém")
	h.Key("tab", "tab")
	h.Type("ninguem@example.com")
	h.Advance(lookupDelay)
	f := h.screen().Form()
	if f.Error("pixKey") != unknownKey("ninguem@example.com") || !strings.Contains(h.PlainView(), "✗ no holder for this key") {
		t.Fatalf("error %q:\n%s", f.Error("pixKey"), h.PlainView())
	}
	h.save()
	if len(h.Asks) != 0 || len(svc.BRLSent) != 0 || len(svc.PixAsked) != 1 {
		t.Fatalf("an unknown key went on: asks %d sent %v asked %v", len(h.Asks), svc.BRLSent, svc.PixAsked)
	}
}
