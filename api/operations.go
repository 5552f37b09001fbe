package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

// ListApproverOperations returns one page of the operations the caller
// approves (the list items carry no approvers, decoded quote or beneficiary).
func (c *Client) ListApproverOperations(ctx context.Context, cursor string) (Page[Operation], error) {
	return page[Operation](ctx, c, call{method: http.MethodGet, path: pathApproverOps, query: newQuery().cursor(cursor).values()}, keyOperations)
}

// GetOperation reads one operation with its detail fields. The seed returns
// the operation itself; an {operation} envelope is accepted too.
func (c *Client) GetOperation(ctx context.Context, id uuid.UUID) (*Operation, error) {
	cl := call{method: http.MethodGet, path: itemUUID(pathOperations, id)}
	resp, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	var probe struct {
		ID        *json.RawMessage `json:"id"`
		Operation *json.RawMessage `json:"operation"`
	}
	if err := c.decode(cl, resp, &probe); err != nil {
		return nil, err
	}
	var op Operation
	if probe.ID == nil && probe.Operation != nil {
		err = c.decodeEnvelope(cl, resp, keyOperation, &op)
	} else {
		err = c.decode(cl, resp, &op)
	}
	if err != nil {
		return nil, err
	}
	return &op, nil
}

// ApproveOperation approves a pending operation. The caller can never
// approve its own request (403) nor approve twice (409).
func (c *Client) ApproveOperation(ctx context.Context, id uuid.UUID) (*Operation, error) {
	return object[Operation](ctx, c, call{method: http.MethodPost, path: itemUUID(pathOperations, id) + "/approve"}, keyOperation)
}

// RejectOperation rejects a pending operation; the reason is required.
func (c *Client) RejectOperation(ctx context.Context, id uuid.UUID, reason string) (*Operation, error) {
	if strings.TrimSpace(reason) == "" {
		return nil, errors.New("reject: give a reason; the requester sees it")
	}
	cl := call{method: http.MethodPost, path: itemUUID(pathOperations, id) + "/reject", body: rejectBody{Reason: reason}}
	return object[Operation](ctx, c, cl, keyOperation)
}
