package fakeservice

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// The approver inbox follows the service's rules on decisions: no
// self-approval, decided operations are final, and the last approval needed
// executes the operation.

func (f *Service) find(id uuid.UUID) *api.Operation {
	for _, o := range f.Ops {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// listForm is an operation as the inbox lists it: without what only its
// detail carries.
func listForm(o api.Operation) api.Operation {
	o.Approvers, o.DecodedQuote, o.Beneficiary = nil, nil, nil
	return o
}

// ListApproverOperations is the fake service's answer in two pages, so that a
// screen proves it loads every page.
func (f *Service) ListApproverOperations(_ context.Context, cursor string) (api.Page[api.Operation], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Lists++
	half := len(f.Ops) / 2
	ops, next := f.Ops[:half], "page2"
	if cursor != "" {
		ops, next = f.Ops[half:], ""
	}
	var items []api.Operation
	for _, o := range ops {
		items = append(items, listForm(*o))
	}
	return api.Page[api.Operation]{Items: items, Cursor: next}, nil
}

// GetOperation is the fake service's answer.
func (f *Service) GetOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Gets++
	o := f.find(id)
	if o == nil {
		return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: "no such operation"}
	}
	c := *o
	return &c, nil
}

// ApproveOperation is the fake service's answer.
func (f *Service) ApproveOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := f.find(id)
	switch {
	case o == nil:
		return nil, &api.Error{Status: 404, Code: "NOT_FOUND"}
	case strings.EqualFold(o.RequesterEmail, f.Me):
		return nil, &api.Error{Status: 403, Code: "SELF_APPROVAL", Message: "an access cannot approve its own request"}
	case o.Status != api.OperationPending:
		return nil, &api.Error{Status: 409, Code: "ALREADY_DECIDED"}
	}
	f.Approved = append(f.Approved, id)
	o.Approvals++
	for i := range o.Approvers {
		if o.Approvers[i].Email == f.Me {
			o.Approvers[i].HasApproved = true
		}
	}
	if o.Approvals >= o.MinApprovals {
		o.Status = api.OperationExecuted
		o.ExecutedID = uuid.NewString()
	}
	c := *o
	return &c, nil
}

// RejectOperation is the fake service's answer.
func (f *Service) RejectOperation(_ context.Context, id uuid.UUID, reason string) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := f.find(id)
	if o == nil || o.Status != api.OperationPending {
		return nil, errors.New("not pending")
	}
	if f.Rejected == nil {
		f.Rejected = map[uuid.UUID]string{}
	}
	f.Rejected[id] = reason
	o.Status, o.Reason = api.OperationRejected, reason
	c := *o
	return &c, nil
}

// AddOp parks another operation, as a requester would while a screen runs.
func (f *Service) AddOp(o *api.Operation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Ops = append(f.Ops, o)
}
