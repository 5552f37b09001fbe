package fakeservice

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// ListUBOs is the fake service's answer.
func (f *Service) ListUBOs(context.Context, uuid.UUID, string) (api.Page[api.UBO], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Page[api.UBO]{Items: slices.Clone(f.UBOs)}, nil
}

// ListW8BENs is the fake service's answer.
func (f *Service) ListW8BENs(context.Context, uuid.UUID) ([]api.W8BEN, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.W8BENs), nil
}

// ListProofOfAddressAttempts is the fake service's answer.
func (f *Service) ListProofOfAddressAttempts(context.Context, api.TimeRangeFilter) (api.Page[api.ProofOfAddressAttempt], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Page[api.ProofOfAddressAttempt]{Items: slices.Clone(f.POA)}, nil
}

// CreateUBO is the fake service's answer.
func (f *Service) CreateUBO(_ context.Context, _ uuid.UUID, req api.CreateUBORequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.UBOSent = append(f.UBOSent, req)
	id := uuid.New()
	f.UBOs = append(f.UBOs, api.UBO{ID: id, FullName: req.FullName, DateOfBirth: req.DateOfBirth, CountryOfTaxID: req.CountryOfTaxID,
		TaxIDNumber: req.TaxIDNumber, HasControl: req.HasControl, PercentageOfOwnership: req.PercentageOfOwnership})
	return id, nil
}

// SubmitW8BEN is the fake service's answer: the answer carries a form URL.
func (f *Service) SubmitW8BEN(_ context.Context, _ uuid.UUID, req api.W8BENRequest) (*api.W8BEN, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.W8Sent = append(f.W8Sent, req)
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	f.W8JSON = append(f.W8JSON, string(b))
	w := api.W8BEN{ID: uuid.New(), W8BenURL: "https://forms.example/w8ben/" + uuid.NewString() + ".pdf"}
	f.W8BENs = append(f.W8BENs, w)
	return &w, nil
}
