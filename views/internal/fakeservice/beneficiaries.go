package fakeservice

import (
	"context"
	"errors"
	"slices"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

func (f *Service) note(acct uuid.UUID) { f.Accounts = append(f.Accounts, acct) }

// ListWallets is the fake service's answer.
func (f *Service) ListWallets(_ context.Context, w api.WalletFilter) (api.Page[api.Wallet], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(w.SubAccountID)
	return api.Page[api.Wallet]{Items: slices.Clone(f.Wallets)}, nil
}

// ListBRLAccounts is the fake service's answer.
func (f *Service) ListBRLAccounts(_ context.Context, b api.BeneficiaryFilter) (api.Page[api.BRLAccount], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(b.SubAccountID)
	return api.Page[api.BRLAccount]{Items: slices.Clone(f.BRL)}, nil
}

// ListUSDAccounts is the fake service's answer: there are none.
func (f *Service) ListUSDAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.USDAccount], error) {
	return api.Page[api.USDAccount]{}, nil
}

// ListCOPAccounts is the fake service's answer: there are none.
func (f *Service) ListCOPAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.COPAccount], error) {
	return api.Page[api.COPAccount]{}, nil
}

// create notes a create call and, unless CreateErr is set, keeps the record
// add makes of the new id.
func (f *Service) create(acct uuid.UUID, add func(id uuid.UUID)) (uuid.UUID, error) {
	f.note(acct)
	if f.CreateErr != nil {
		return uuid.Nil, f.CreateErr
	}
	id := uuid.New()
	add(id)
	return id, nil
}

// CreateBRLAccount is the fake service's answer.
func (f *Service) CreateBRLAccount(_ context.Context, acct uuid.UUID, req api.CreateBRLAccountRequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.BRLSent = append(f.BRLSent, req)
	return f.create(acct, func(id uuid.UUID) {
		f.BRL = append(f.BRL, api.BRLAccount{ID: id, Alias: req.Alias, PixKey: req.PixKey, TaxID: req.TaxID, UserName: req.UserName,
			BankCode: req.BankCode, BranchCode: req.BranchCode, AccountNumber: req.AccountNumber, AccountType: req.AccountType})
	})
}

// CreateWallet is the fake service's answer.
func (f *Service) CreateWallet(_ context.Context, acct uuid.UUID, req api.CreateWalletRequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.WalletsSent = append(f.WalletsSent, req)
	return f.create(acct, func(id uuid.UUID) {
		f.Wallets = append(f.Wallets, api.Wallet{ID: id, Alias: req.Alias, WalletAddress: req.WalletAddress, WalletChain: req.WalletChain})
	})
}

// DeleteWallet is the fake service's answer.
func (f *Service) DeleteWallet(_ context.Context, acct, id uuid.UUID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	f.Deleted = append(f.Deleted, id)
	f.Wallets = slices.DeleteFunc(f.Wallets, func(w api.Wallet) bool { return w.ID == id })
	return nil
}

// DeleteBRLAccount is the Beneficiaries screen's delete of a BRL account.
func (f *Service) DeleteBRLAccount(_ context.Context, acct, id uuid.UUID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	f.Deleted = append(f.Deleted, id)
	f.BRL = slices.DeleteFunc(f.BRL, func(b api.BRLAccount) bool { return b.ID == id })
	return nil
}

// CreateUSDAccount is refused: the fake keeps no USD accounts.
func (f *Service) CreateUSDAccount(context.Context, uuid.UUID, api.CreateUSDAccountRequest) (uuid.UUID, error) {
	return uuid.Nil, errors.New("the fake service keeps no USD accounts")
}

// CreateCOPAccount is refused: the fake keeps no COP accounts.
func (f *Service) CreateCOPAccount(context.Context, uuid.UUID, api.CreateCOPAccountRequest) (uuid.UUID, error) {
	return uuid.Nil, errors.New("the fake service keeps no COP accounts")
}
