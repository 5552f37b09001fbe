package sandbox_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

func TestBeneficiaryValidation(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 7})
	op := e.as("operator")
	bad := []struct {
		name  string
		err   error
		code  string
		field string
	}{
		{"CPF check digit", errOf(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "x", TaxID: "529.982.247-24", UserName: "Ana", BankCode: "341", BranchCode: "0001", AccountNumber: "12345-6", AccountType: "checking"})), "INVALID_FIELD", "taxId"},
		{"CNPJ check digit", errOf(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "x", PixKey: "11.222.333/0001-80"})), "INVALID_FIELD", "pixKey"},
		{"PIX phone without +55", errOf(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "x", PixKey: "+1 555 0100"})), "INVALID_FIELD", "pixKey"},
		{"account type", errOf(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "x", TaxID: "529.982.247-25", UserName: "Ana", BankCode: "341", BranchCode: "0001", AccountNumber: "123456", AccountType: "current"})), "INVALID_FIELD", "accountType"},
		{"key and bank fields", errOf(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "x", PixKey: "a@b.example", BankCode: "341"})), "INVALID_FIELD", "pixKey"},
		{"EIP-55 checksum", errOf(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "x", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", WalletChain: "POLYGON"})), "INVALID_FIELD", "walletAddress"},
		{"unknown chain", errOf(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "x", WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WalletChain: "SOLANA"})), "INVALID_FIELD", "walletChain"},
		{"ABA routing", errOf(op.CreateUSDAccount(ctx(t), uuid.Nil, api.CreateUSDAccountRequest{Alias: "x", BankAccountNumber: "123456789", BankRoutingNumber: "123456789", BankBeneficiaryName: "Globex"})), "INVALID_FIELD", "bankRoutingNumber"},
		{"USD country", errOf(op.CreateUSDAccount(ctx(t), uuid.Nil, api.CreateUSDAccountRequest{Alias: "x", BankAccountNumber: "123456789", BankRoutingNumber: "021000021", BankBeneficiaryName: "Globex", BeneficiaryAddress: &api.Address{Country: "XYZ"}})), "INVALID_FIELD", "beneficiaryAddress.country"},
		{"COP without key or bank", errOf(op.CreateCOPAccount(ctx(t), uuid.Nil, api.CreateCOPAccountRequest{Alias: "x", BeneficiaryName: "Café"})), "MISSING_FIELD", "breBKey"},
		{"COP e-mail", errOf(op.CreateCOPAccount(ctx(t), uuid.Nil, api.CreateCOPAccountRequest{Alias: "x", BeneficiaryName: "Café", BreBKey: "@123", BeneficiaryEmail: "not-an-email"})), "INVALID_FIELD", "beneficiaryEmail"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			ae := wantCode(t, c.err, http.StatusBadRequest, c.code)
			if !strings.HasPrefix(ae.Message, c.field+":") {
				t.Errorf("message %q does not start with the field %q", ae.Message, c.field)
			}
		})
	}

	// Every kind of good registration, and what reads back.
	keys := map[string]string{"529.982.247-25": "CPF", "11.222.333/0001-81": "CNPJ", "+5511987654321": "PHONE", "Ops@Example.com": "EMAIL", "123e4567-e12b-12d1-a456-426655440000": "EVP"}
	for key, kind := range keys {
		id := must[uuid.UUID](t)(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "pix " + kind, PixKey: key}))
		b := must[*api.BRLAccount](t)(op.GetBRLAccount(ctx(t), uuid.Nil, id))
		if b.PixKeyType != kind {
			t.Errorf("PIX key %s recognised as %q, want %s", key, b.PixKeyType, kind)
		}
	}
	bankID := must[uuid.UUID](t)(op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "bank", TaxID: "12.ABC.345/01DE-35", UserName: "Acme", BankCode: "341", BranchCode: "0001", AccountNumber: "12345-6", AccountType: "checking"}))
	if b := must[*api.BRLAccount](t)(op.GetBRLAccount(ctx(t), uuid.Nil, bankID)); b.TaxID != "12ABC34501DE35" || b.AccountNumber != "123456" {
		t.Errorf("bank beneficiary stored as %+v", b)
	}
	_, err := op.CreateBRLAccount(ctx(t), uuid.Nil, api.CreateBRLAccountRequest{Alias: "BANK", PixKey: "+5511987654321"})
	wantCode(t, err, http.StatusConflict, "ALIAS_TAKEN")

	wid := must[uuid.UUID](t)(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "lower", WalletAddress: "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", WalletChain: "BASE"}))
	w := must[*api.Wallet](t)(op.GetWallet(ctx(t), uuid.Nil, wid))
	if w.WalletAddress != "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" {
		t.Errorf("unchecksummed address stored as %s, want the EIP-55 form", w.WalletAddress)
	}
	page := must[api.Page[api.Wallet]](t)(op.ListWallets(ctx(t), api.WalletFilter{WalletChain: "BASE", Alias: "low"}))
	if len(page.Items) != 1 || page.Items[0].ID != wid {
		t.Errorf("wallet filters: %d items", len(page.Items))
	}
	if err := op.DeleteWallet(ctx(t), uuid.Nil, wid); err != nil {
		t.Fatal(err)
	}
	_, err = op.GetWallet(ctx(t), uuid.Nil, wid)
	wantCode(t, err, http.StatusNotFound, "NOT_FOUND")
	uid := must[uuid.UUID](t)(op.CreateUSDAccount(ctx(t), uuid.Nil, api.CreateUSDAccountRequest{Alias: "usd", BankAccountNumber: "123456789", BankRoutingNumber: "021000021", BankBeneficiaryName: "Globex", BeneficiaryAddress: &api.Address{StreetLine1: "1 Main St", City: "NYC", State: "NY", PostalCode: "10001", Country: "USA"}}))
	if u := must[*api.USDAccount](t)(op.GetUSDAccount(ctx(t), uuid.Nil, uid)); u.BankBeneficiaryAddress.City != "NYC" {
		t.Errorf("USD beneficiary %+v", u)
	}
	must[uuid.UUID](t)(op.CreateCOPAccount(ctx(t), uuid.Nil, api.CreateCOPAccountRequest{Alias: "cop", BeneficiaryName: "Café Andino", BreBKey: "@3001234567"}))
	cops := must[api.Page[api.COPAccount]](t)(op.ListCOPAccounts(ctx(t), api.BeneficiaryFilter{Alias: "cop"}))
	if len(cops.Items) != 1 {
		t.Errorf("COP alias filter: %d items", len(cops.Items))
	}
	usds := must[api.Page[api.USDAccount]](t)(op.ListUSDAccounts(ctx(t), api.BeneficiaryFilter{}))
	if len(usds.Items) < 3 {
		t.Errorf("USD list: %d items, want the demo's and the new one", len(usds.Items))
	}
}
