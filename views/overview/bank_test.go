package overview

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

func mainBank() *api.OwnBRLAccount {
	return &api.OwnBRLAccount{BankCode: "341", BankName: "Itaú Unibanco S.A.", ISPB: "60701190", BranchCode: "0417", AccountNumber: "52013-7",
		AccountType: "checking", HolderName: "Acme Pagamentos Ltda", TaxID: "11222333000181", PixKey: "pix@acme.example"}
}

func subBank() *api.OwnBRLAccount {
	return &api.OwnBRLAccount{BankCode: "341", BankName: "Itaú Unibanco S.A.", ISPB: "60701190", BranchCode: "0932", AccountNumber: "11873-4",
		AccountType: "checking", HolderName: "Maria Souza", TaxID: "52998224725", PixKey: "+5511988887777"}
}

func (f *fake) OwnBRLAccount(_ context.Context, sub uuid.UUID) (*api.OwnBRLAccount, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.bank[sub]; ok {
		c := *b
		return &c, nil
	}
	return nil, &api.Error{Status: http.StatusConflict, Code: "IDENTITY_NOT_CONFIRMED", Message: "account has no confirmed identity"}
}

// The account's own bank account for a TED: bank, branch, account, and
// the holder and tax id a sending bank checks; each account its own; b
// copies it whole. In two columns it is a block of the left column, one
// part a line.
func TestOverviewShowsTheAccountsOwnBankAccount(t *testing.T) {
	d := start(t, newFake(), session(ui.Account{}, approver))
	d.Screen.SetSize(120, 40)
	v := d.PlainView()
	for _, want := range []string{"Receive by TED · b copies", "  341 Itaú Unibanco S.A.", "  branch 0417", "  account 52013-7 (checking)", "  Acme Pagamentos Ltda", "  CNPJ 11.222.333/0001-81"} {
		if !strings.Contains(v, want) {
			t.Errorf("main account: overview lacks %q:\n%s", want, v)
		}
	}
	d.Out = nil
	d.Key("b")
	if !copied(d, "Bank 341 Itaú Unibanco S.A.\nBranch 0417\nAccount 52013-7 (checking)\nAcme Pagamentos Ltda\nCNPJ 11.222.333/0001-81\n") {
		t.Errorf("b did not copy the TED details: %v", d.Out)
	}

	d = start(t, newFake(), session(ui.Account{ID: subID, Name: "Filial"}, approver))
	d.Screen.SetSize(120, 40)
	if v := d.PlainView(); !strings.Contains(v, "branch 0932") || !strings.Contains(v, "account 11873-4") || !strings.Contains(v, "Maria Souza") ||
		!strings.Contains(v, "CPF 529.982.247-25") || strings.Contains(v, "52013-7") {
		t.Errorf("sub-account: not its own bank account:\n%s", v)
	}

	// An account without a confirmed identity has none yet, and says why.
	f := newFake()
	delete(f.bank, subID)
	d = start(t, f, session(ui.Account{ID: subID, Name: "Filial"}, approver))
	d.Screen.SetSize(120, 40)
	if v := leftColumn(d.PlainView()); !strings.Contains(v, "Receive by TED none until the account's KYC is approved") {
		t.Errorf("no bank account is not explained:\n%s", v)
	}
	d.Out = nil
	d.Key("b")
	if len(d.Out) != 0 {
		t.Errorf("b with no bank account sent %v", d.Out)
	}
}

// The sizes the dashboard promises: every line fits; the TED details are
// whole wherever shown, and pointed to where they are not (but at 40x12,
// whose screen the blocks above fill); b copies them at any size. The
// limits keep their place at 120x30: the TED block takes the left
// column's room, not the right's.
func TestOverviewBankAccountAtEverySize(t *testing.T) {
	f := newFake()
	f.bank[uuid.Nil].HolderName = "Acme Pagamentos e Serviços Financeiros Ltda"
	d := start(t, f, session(ui.Account{}, approver))
	for _, sz := range [][2]int{{120, 40}, {120, 30}, {100, 20}, {80, 24}, {80, 40}, {40, 12}} {
		d.Screen.SetSize(sz[0], sz[1])
		raw := ui.Fit(d.Screen.View(), sz[0], sz[1])
		for _, l := range strings.Split(raw, "\n") {
			if lipgloss.Width(l) > sz[0] {
				t.Errorf("%dx%d: line too wide: %q", sz[0], sz[1], ansi.Strip(l))
			}
		}
		v := d.PlainView()
		d.Out = nil
		d.Key("b")
		if !copied(d, bankText(f.bank[uuid.Nil])) {
			t.Errorf("%dx%d: b did not copy the TED details", sz[0], sz[1])
		}
		switch {
		case strings.Contains(v, "0417"):
			for _, want := range []string{"0417", "52013-7", "Acme Pagamentos e Serviços", "Financeiros Ltda", "CNPJ 11.222.333/0001-81"} {
				if !strings.Contains(v, want) {
					t.Errorf("%dx%d: TED details cut (%q missing):\n%s", sz[0], sz[1], want, v)
				}
			}
		case sz[1] >= 20 && !strings.Contains(v, "TED"):
			// At 40x12 the access block already fills the screen; the
			// key map still offers b.
			t.Errorf("%dx%d: the TED details are neither shown nor pointed to:\n%s", sz[0], sz[1], v)
		}
		if sz == [2]int{120, 30} && (!strings.Contains(v, "49,500.00") || !strings.Contains(v, "52013-7")) {
			t.Errorf("120x30: the limits or the TED details gave way:\n%s", v)
		}
	}
}

// leftColumn is the text of the left column of a two-column view, its
// lines joined by spaces.
func leftColumn(v string) string {
	var words []string
	for _, l := range strings.Split(v, "\n") {
		left, _, _ := strings.Cut(l, "│")
		words = append(words, strings.Fields(left)...)
	}
	return strings.Join(words, " ")
}

// copied reports whether the screen asked the terminal to copy text.
func copied(d *screentest.Driver, text string) bool {
	want := fmt.Sprint(tea.SetClipboard(text)())
	for _, m := range d.Out {
		if fmt.Sprint(m) == want {
			return true
		}
	}
	return false
}
