package fakeservice

import (
	"context"
	"errors"
	"slices"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

func (f *Service) note(acct uuid.UUID) { f.Accounts = append(f.Accounts, acct) }

// listed is every beneficiary list's answer: it notes the account asked
// for and gives a copy of what the fake keeps, in one page.
func listed[T any](f *Service, acct uuid.UUID, kept *[]T) (api.Page[T], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	return api.Page[T]{Items: slices.Clone(*kept)}, nil
}

// deleted is every beneficiary delete's answer: it notes the account and
// the id and drops the record from what the fake keeps.
func deleted[T any](f *Service, acct, id uuid.UUID, kept *[]T, idOf func(T) uuid.UUID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	f.Deleted = append(f.Deleted, id)
	*kept = slices.DeleteFunc(*kept, func(r T) bool { return idOf(r) == id })
	return nil
}

// ListWallets is the fake service's answer.
func (f *Service) ListWallets(_ context.Context, w api.WalletFilter) (api.Page[api.Wallet], error) {
	return listed(f, w.SubAccountID, &f.Wallets)
}

// ListBRLAccounts is the fake service's answer.
func (f *Service) ListBRLAccounts(_ context.Context, b api.BeneficiaryFilter) (api.Page[api.BRLAccount], error) {
	return listed(f, b.SubAccountID, &f.BRL)
}

// ListUSDAccounts is the fake service's answer: there are none.
func (f *Service) ListUSDAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.USDAccount], error) {
	return api.Page[api.USDAccount]{}, nil
}

// ListCOPAccounts is the fake service's answer: there are none.
func (f *Service) ListCOPAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.COPAccount], error) {
	return api.Page[api.COPAccount]{}, nil
}

// created is every beneficiary create's answer: it keeps the request in
// sent, notes the account and, unless CreateErr is set, keeps the record
// made of the request with a new id.
func created[R, T any](f *Service, acct uuid.UUID, req R, sent *[]R, kept *[]T, record func(id uuid.UUID) T) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	*sent = append(*sent, req)
	f.note(acct)
	if f.CreateErr != nil {
		return uuid.Nil, f.CreateErr
	}
	id := uuid.New()
	*kept = append(*kept, record(id))
	return id, nil
}

// CreateBRLAccount is the fake service's answer.
func (f *Service) CreateBRLAccount(_ context.Context, acct uuid.UUID, req api.CreateBRLAccountRequest) (uuid.UUID, error) {
	return created(f, acct, req, &f.BRLSent, &f.BRL, func(id uuid.UUID) api.BRLAccount {
		return api.BRLAccount{ID: id, Alias: req.Alias, PixKey: req.PixKey, TaxID: req.TaxID, UserName: req.UserName,
			BankCode: req.BankCode, BranchCode: req.BranchCode, AccountNumber: req.AccountNumber, AccountType: req.AccountType}
	})
}

// CreateWallet is the fake service's answer.
func (f *Service) CreateWallet(_ context.Context, acct uuid.UUID, req api.CreateWalletRequest) (uuid.UUID, error) {
	return created(f, acct, req, &f.WalletsSent, &f.Wallets, func(id uuid.UUID) api.Wallet {
		return api.Wallet{ID: id, Alias: req.Alias, WalletAddress: req.WalletAddress, WalletChain: req.WalletChain}
	})
}

// DeleteWallet is the fake service's answer.
func (f *Service) DeleteWallet(_ context.Context, acct, id uuid.UUID) error {
	return deleted(f, acct, id, &f.Wallets, func(w api.Wallet) uuid.UUID { return w.ID })
}

// DeleteBRLAccount is the Beneficiaries screen's delete of a BRL account.
func (f *Service) DeleteBRLAccount(_ context.Context, acct, id uuid.UUID) error {
	return deleted(f, acct, id, &f.BRL, func(b api.BRLAccount) uuid.UUID { return b.ID })
}

// CreateUSDAccount is refused: the fake keeps no USD accounts.
func (f *Service) CreateUSDAccount(context.Context, uuid.UUID, api.CreateUSDAccountRequest) (uuid.UUID, error) {
	return uuid.Nil, errors.New("the fake service keeps no USD accounts")
}

// CreateCOPAccount is refused: the fake keeps no COP accounts.
func (f *Service) CreateCOPAccount(context.Context, uuid.UUID, api.CreateCOPAccountRequest) (uuid.UUID, error) {
	return uuid.Nil, errors.New("the fake service keeps no COP accounts")
}
