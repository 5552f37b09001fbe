package fakeservice

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Live is what the fake keeps of the beneficiaries the live service added
// (EUR and ARS) and of the PIX directory.
type Live struct {
	EUR     []api.EURAccount
	ARS     []api.ARSAccount
	EURSent []api.CreateEURAccountRequest
	ARSSent []api.CreateARSAccountRequest
	// Holders are the PIX directory: a key not in it is unknown (404).
	Holders map[string]api.PixInfo
	// PixAsked are the keys asked about, in order.
	PixAsked []string
	// PixErr, when set, is the directory's answer to every key: a look-up
	// that failed for another reason than an unknown key.
	PixErr error
}

// ListEURAccounts is the fake service's answer.
func (f *Service) ListEURAccounts(_ context.Context, b api.BeneficiaryFilter) (api.Page[api.EURAccount], error) {
	return listed(f, b.SubAccountID, &f.EUR)
}

// ListARSAccounts is the fake service's answer.
func (f *Service) ListARSAccounts(_ context.Context, b api.BeneficiaryFilter) (api.Page[api.ARSAccount], error) {
	return listed(f, b.SubAccountID, &f.ARS)
}

// CreateEURAccount is the fake service's answer.
func (f *Service) CreateEURAccount(_ context.Context, acct uuid.UUID, req api.CreateEURAccountRequest) (uuid.UUID, error) {
	return created(f, acct, req, &f.EURSent, &f.EUR, func(id uuid.UUID) api.EURAccount {
		return api.EURAccount{ID: id, Alias: req.Alias, Description: req.Description, IBAN: req.IBAN, BIC: req.BIC,
			Country: req.Country, BankBeneficiaryName: req.BankBeneficiaryName, IsBusiness: req.IsBusiness}
	})
}

// CreateARSAccount is the fake service's answer.
func (f *Service) CreateARSAccount(_ context.Context, acct uuid.UUID, req api.CreateARSAccountRequest) (uuid.UUID, error) {
	return created(f, acct, req, &f.ARSSent, &f.ARS, func(id uuid.UUID) api.ARSAccount {
		return api.ARSAccount{ID: id, Alias: req.Alias, Description: req.Description, CVU: req.CVU}
	})
}

// PixInfo answers from Holders; an unknown key is the service's 404.
func (f *Service) PixInfo(_ context.Context, key string) (*api.PixInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.PixAsked = append(f.PixAsked, key)
	if f.PixErr != nil {
		return nil, f.PixErr
	}
	if info, ok := f.Holders[key]; ok {
		return &info, nil
	}
	return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: fmt.Sprintf("pix key %s not found", key)}
}
