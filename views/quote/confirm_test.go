package quote

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// moreFake is what the fake answers for the holder, the limits and the
// parked operation.
type moreFake struct {
	// holders maps a PIX key to its holder; an unknown key is a 404.
	holders  map[string]api.PixInfo
	pixAsked []string
	limits   *api.AccountLimits
	// ops are the successive reads of the parked operation: each read
	// takes the next one, the last one stays.
	ops     []api.Operation
	opReads int
	// rails are the fiat rails the account may use (nil: every one).
	rails *api.AccountMetadata
}

func (f *fake) Metadata(context.Context, uuid.UUID) (*api.AccountMetadata, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.more.rails == nil {
		return &api.AccountMetadata{BrlUnlocked: true, UsdUnlocked: true, EurUnlocked: true, ArsUnlocked: true, CopUnlocked: true}, nil
	}
	m := *f.more.rails
	return &m, nil
}

func (f *fake) GetBRLAccount(_ context.Context, _, id uuid.UUID) (*api.BRLAccount, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, b := range f.brl {
		if b.ID == id {
			return &b, nil
		}
	}
	return nil, &api.Error{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: "no such beneficiary"}
}

func (f *fake) PixInfo(_ context.Context, key string) (*api.PixInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.more.pixAsked = append(f.more.pixAsked, key)
	if i, ok := f.more.holders[key]; ok {
		return &i, nil
	}
	return nil, &api.Error{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: "PIX key " + key + " is not registered in the PIX directory"}
}

func (f *fake) Limits(context.Context, uuid.UUID) (*api.AccountLimits, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.more.limits == nil {
		return &api.AccountLimits{}, nil
	}
	l := *f.more.limits
	return &l, nil
}

func (f *fake) GetOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.more.ops) == 0 {
		return nil, &api.Error{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: "no such operation"}
	}
	i := min(f.more.opReads, len(f.more.ops)-1)
	f.more.opReads++
	op := f.more.ops[i]
	op.ID = id
	return &op, nil
}
