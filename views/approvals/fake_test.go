package approvals

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// inboxService is the service as the screen sees it. It follows the
// service's rules on decisions (no self-approval, decided operations are
// final, the last approval needed executes the operation) and lists the
// inbox in two pages, so that the screen proves it loads every page.
type inboxService struct {
	mu       sync.Mutex
	me       string // the caller's e-mail
	ops      []*api.Operation
	approved []uuid.UUID
	rejected map[uuid.UUID]string // operation: reason
}

var _ Service = (*inboxService)(nil)

func (f *inboxService) ListApproverOperations(_ context.Context, cursor string) (api.Page[api.Operation], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	half := len(f.ops) / 2
	page := api.Page[api.Operation]{Cursor: "page2"}
	from, to := 0, half
	if cursor != "" {
		from, to, page.Cursor = half, len(f.ops), ""
	}
	for _, o := range f.ops[from:to] {
		listed := *o // the list leaves out what only the detail carries
		listed.Approvers, listed.DecodedQuote, listed.Beneficiary = nil, nil, nil
		page.Items = append(page.Items, listed)
	}
	return page, nil
}

// pending is the pending operation id, or an error as the service says it.
func (f *inboxService) pending(id uuid.UUID) (*api.Operation, error) {
	i := slices.IndexFunc(f.ops, func(o *api.Operation) bool { return o.ID == id })
	switch {
	case i < 0:
		return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: "no such operation"}
	case f.ops[i].Status != api.OperationPending:
		return nil, &api.Error{Status: 409, Code: "ALREADY_DECIDED"}
	}
	return f.ops[i], nil
}

func (f *inboxService) GetOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range f.ops {
		if o.ID == id {
			c := *o
			return &c, nil
		}
	}
	return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: "no such operation"}
}

func (f *inboxService) ApproveOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, err := f.pending(id)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(o.RequesterEmail, f.me) {
		return nil, &api.Error{Status: 403, Code: "SELF_APPROVAL", Message: "an access cannot approve its own request"}
	}
	f.approved = append(f.approved, id)
	o.Approvals++
	for i := range o.Approvers {
		o.Approvers[i].HasApproved = o.Approvers[i].HasApproved || o.Approvers[i].Email == f.me
	}
	if o.Approvals >= o.MinApprovals {
		o.Status, o.ExecutedID = api.OperationExecuted, uuid.NewString()
	}
	c := *o
	return &c, nil
}

func (f *inboxService) RejectOperation(_ context.Context, id uuid.UUID, reason string) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, err := f.pending(id)
	if err != nil {
		return nil, errors.Join(errors.New("not pending"), err)
	}
	if f.rejected == nil {
		f.rejected = map[uuid.UUID]string{}
	}
	f.rejected[id] = reason
	o.Status, o.Reason = api.OperationRejected, reason
	c := *o
	return &c, nil
}

// add parks another operation, as a requester would while a screen runs.
func (f *inboxService) add(o *api.Operation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ops = append(f.ops, o)
}
