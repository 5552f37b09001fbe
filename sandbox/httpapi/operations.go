package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Multi-signature operations (§3, §5, §7.5): the approver's inbox, an
// operation's detail, approval and rejection.

// operationView is the wire form of an operation; a detail adds
// approvers, decodedQuote and beneficiary.
func operationView(op *engine.OperationInfo) Operation {
	v := Operation{
		ID: op.ID, RequesterEmail: op.RequesterEmail, OperationType: engine.OperationCreateTicket, Payload: op.Payload,
		Status: op.Status, Approvals: op.Approvals, MinApprovals: op.MinApprovals, CreatedAt: records.NewTime(op.CreatedAt),
		SubAccountID: op.Account.SubAccountID(), SubAccountName: op.Account.Name, ExecutedID: op.ExecutedID, Reason: op.Reason, RejectedBy: op.RejectedBy,
	}
	if op.Approvers != nil {
		v.Approvers = []Approver{}
		for _, a := range op.Approvers {
			v.Approvers = append(v.Approvers, Approver{AccessID: a.AccessID, Email: a.Email, HasApproved: a.HasApproved})
		}
		v.DecodedQuote = decodedQuote(op.Quote)
		v.Beneficiary = beneficiaryView(op.Beneficiary)
	}
	return v
}

// decodedQuote is the quote of a parked request, as the detail shows it.
func decodedQuote(q *engine.QuoteClaims) json.RawMessage {
	v := struct {
		Quote
		QuoteToken   string `json:"quoteToken,omitempty"`
		SubAccountID string `json:"subAccountId"`
		ExpiresAt    string `json:"expiresAt"`
	}{Quote: quoteView(q, ""), SubAccountID: q.SubAccountID, ExpiresAt: fmtTime(q.Expiry())}
	b, _ := json.Marshal(v)
	return b
}

// beneficiaryView is the beneficiary a parked output pays, as the detail
// shows it: its kind, then its record.
func beneficiaryView(b *engine.Beneficiary) json.RawMessage {
	if b == nil {
		return nil
	}
	var v any
	switch r := b.Record.(type) {
	case *records.BRLAccount:
		v = struct {
			Kind string `json:"kind"`
			records.BRLAccount
		}{b.Kind, *r}
	case *records.Wallet:
		v = struct {
			Kind string `json:"kind"`
			records.Wallet
		}{b.Kind, *r}
	case *records.USDAccount:
		v = struct {
			Kind string `json:"kind"`
			records.USDAccount
		}{b.Kind, *r}
	case *records.COPAccount:
		v = struct {
			Kind string `json:"kind"`
			records.COPAccount
		}{b.Kind, *r}
	default:
		m := map[string]string{"kind": b.Kind, "walletAddress": b.WalletAddress, "walletChain": b.WalletChain}
		if b.Kind == "ACCOUNT" {
			m["id"], m["name"] = b.AccountID.String(), b.AccountName
		}
		v = m
	}
	out, _ := json.Marshal(v)
	return out
}

// GET /v2/account/multi-sig-operations/approver?cursor=
func (s *Server) approverInbox(c *call) error {
	items, next, err := s.eng.OperationPage(c.caller(), c.query.Get("status"), c.query.Get("cursor"))
	if err != nil {
		return err
	}
	out := make([]Operation, len(items))
	for i := range items {
		out[i] = operationView(&items[i])
	}
	return c.reply(http.StatusOK, map[string]any{"operations": out, "cursor": next})
}

// GET /v2/account/multi-sig-operations/{id}
func (s *Server) getOperation(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	op, err := s.eng.Operation(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, operationView(&op))
}

// decide applies an approver's decision to the operation of the path and
// replies with the operation. An access that may not write, or is no
// approver, is refused before the path's id is read.
func (s *Server) decide(c *call, apply func(engine.Caller, uuid.UUID) (engine.OperationInfo, error)) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.who.MayApprove(); err != nil {
		return err
	}
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	op, err := apply(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"operation": operationView(&op)})
}

// POST /v2/account/multi-sig-operations/{id}/approve
func (s *Server) approveOperation(c *call) error {
	return s.decide(c, s.eng.Approve)
}

// POST /v2/account/multi-sig-operations/{id}/reject {reason}
func (s *Server) rejectOperation(c *call) error {
	var req struct {
		Reason string `json:"reason"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	req.Reason = strings.TrimSpace(req.Reason)
	if req.Reason == "" {
		return badRequest(codeMissingField, "reason: required, say why the operation is rejected")
	}
	if validate.Chars(req.Reason) > 500 {
		return badRequest(codeInvalidField, "reason: at most 500 characters")
	}
	return s.decide(c, func(who engine.Caller, id uuid.UUID) (engine.OperationInfo, error) {
		return s.eng.Reject(who, id, req.Reason)
	})
}

// Operation is a multi-signature operation; its detail adds approvers,
// decodedQuote and beneficiary (§3, §5, §7.5).
type Operation struct {
	ID             uuid.UUID               `json:"id"`
	RequesterEmail string                  `json:"requesterEmail"`
	OperationType  string                  `json:"operationType"`
	Payload        json.RawMessage         `json:"payload,omitempty"`
	Status         records.OperationStatus `json:"status"`
	Approvals      int32                   `json:"approvals"`
	MinApprovals   int32                   `json:"minApprovals"`
	CreatedAt      records.Time            `json:"createdAt"`
	SubAccountID   string                  `json:"subAccountId"`
	SubAccountName string                  `json:"subAccountName"`
	ExecutedID     string                  `json:"executedId"`
	Reason         string                  `json:"reason,omitempty"`
	RejectedBy     string                  `json:"rejectedBy,omitempty"`
	Approvers      []Approver              `json:"approvers,omitempty"`
	DecodedQuote   json.RawMessage         `json:"decodedQuote,omitempty"`
	Beneficiary    json.RawMessage         `json:"beneficiary,omitempty"`
}

// Approver is one approver of an operation and whether it approved.
type Approver struct {
	AccessID    uuid.UUID `json:"accessId"`
	Email       string    `json:"email"`
	HasApproved bool      `json:"hasApproved"`
}
