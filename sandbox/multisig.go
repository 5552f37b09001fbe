package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// operationTTL is how long a parked request waits for its approvals.
const operationTTL = 24 * time.Hour

const operationCreateTicket = "CREATE_TICKET"

func decimalInt(n int64) decimal.Decimal { return decimal.NewFromInt(n) }

// parkLocked turns a validated ticket creation into a pending operation.
// The caller holds s.mu.
func (s *Server) parkLocked(p *ticketPlan, body []byte, now time.Time) *operation {
	op := &operation{
		ID: s.newID(), Requester: p.who, Acct: p.acct, Status: OperationPending, CreatedAt: now, ExpiresAt: now.Add(operationTTL),
		Payload: json.RawMessage(append([]byte(nil), body...)), req: *p.req, q: *p.q,
		approvals: map[uuid.UUID]bool{}, MinApprovals: s.st.minApprovals,
	}
	s.st.operations.add(now, op.ID, op)
	s.schedule(op.ExpiresAt, dueOpExpire, uuid.Nil, op)
	s.saveOperation(op)
	return op
}

// decodedQuote is the quote of a parked request, as the detail shows it.
func decodedQuote(q *quoteClaims) json.RawMessage {
	v := struct {
		Quote
		QuoteToken   string `json:"quoteToken,omitempty"`
		SubAccountID string `json:"subAccountId"`
		ExpiresAt    string `json:"expiresAt"`
	}{Quote: quoteView(q, ""), SubAccountID: q.SubAccountID, ExpiresAt: fmtTime(q.expiry())}
	b, _ := json.Marshal(v)
	return b
}

// beneficiaryOf is the beneficiary record the parked output references.
func beneficiaryOf(op *operation) json.RawMessage {
	r, acct := &op.req, op.Acct
	var v any
	switch {
	case r.TicketBrlPixOutput != nil:
		if id, err := uuid.Parse(r.TicketBrlPixOutput.BeneficiaryBrlBankAccountID); err == nil {
			if b, ok := acct.brl.get(id); ok {
				v = struct {
					Kind string `json:"kind"`
					BRLAccount
				}{"BRL", *b}
			}
		}
	case r.TicketBlockchainOutput != nil:
		if id, err := uuid.Parse(r.TicketBlockchainOutput.BeneficiaryWalletID); err == nil {
			if id == uuid.Nil {
				v = map[string]string{"kind": "OWN_WALLET", "walletAddress": acct.Wallet, "walletChain": op.q.OutputPaymentMethod}
			} else if w, ok := acct.wallets.get(id); ok {
				v = struct {
					Kind string `json:"kind"`
					Wallet
				}{"WALLET", *w}
			}
		}
	case r.TicketUsdOutput != nil:
		if id, err := uuid.Parse(r.TicketUsdOutput.BeneficiaryUsdBankAccountID); err == nil {
			if b, ok := acct.usd.get(id); ok {
				v = struct {
					Kind string `json:"kind"`
					USDAccount
				}{"USD", *b}
			}
		}
	case r.TicketCopOutput != nil:
		if id, err := uuid.Parse(r.TicketCopOutput.BeneficiaryCopBankAccountID); err == nil {
			if b, ok := acct.cop.get(id); ok {
				v = struct {
					Kind string `json:"kind"`
					COPAccount
				}{"COP", *b}
			}
		}
	}
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// operationView is the wire form; detail adds approvers, decodedQuote and
// beneficiary. The caller holds s.mu.
func (s *Server) operationView(op *operation, detail bool) Operation {
	v := Operation{
		ID: op.ID, RequesterEmail: op.Requester.Email, OperationType: operationCreateTicket, Payload: op.Payload,
		Status: op.Status, Approvals: int32(len(op.approvals)), MinApprovals: op.MinApprovals, CreatedAt: NewTime(op.CreatedAt),
		SubAccountID: op.Acct.subAccountID(), SubAccountName: op.Acct.Name, ExecutedID: op.ExecutedID, Reason: op.Reason, RejectedBy: op.RejectedBy,
	}
	if detail {
		v.Approvers = []Approver{}
		for _, a := range s.st.accesses {
			if a.Perms.OperationApprover {
				v.Approvers = append(v.Approvers, Approver{AccessID: a.ID, Email: a.Email, HasApproved: op.approvals[a.ID]})
			}
		}
		v.DecodedQuote = decodedQuote(&op.q)
		v.Beneficiary = beneficiaryOf(op)
	}
	return v
}

func (c *call) requireApprover() error {
	if !c.who.Perms.OperationApprover {
		return forbidden("missing permission operationApprover: only approvers see and decide multi-signature operations")
	}
	return nil
}

// visible reports whether the caller may see operations of the account.
func (c *call) visible(acct *account) bool {
	if acct.Main {
		return !c.who.MainBlacklisted
	}
	return !c.who.Blacklisted[acct.ID]
}

// GET /v2/account/multi-sig-operations/approver?cursor=
func (s *Server) approverInbox(c *call) error {
	if err := c.requireApprover(); err != nil {
		return err
	}
	status := c.query.Get("status")
	s.mu.RLock()
	defer s.mu.RUnlock()
	items, next, err := s.st.operations.page(c.query.Get("cursor"), pageSize, window{}, func(op *operation) bool {
		return c.visible(op.Acct) && (status == "" || string(op.Status) == status)
	})
	if err != nil {
		return err
	}
	out := make([]Operation, len(items))
	for i, op := range items {
		out[i] = s.operationView(op, false)
	}
	return c.reply(http.StatusOK, map[string]any{"operations": out, "cursor": next})
}

// findOperation finds an operation the caller may see: approvers see all
// of the main account's operations, a requester its own.
func (c *call) findOperation() (*operation, error) {
	id, err := c.pathUUID("id")
	if err != nil {
		return nil, err
	}
	op, ok := c.s.st.operations.get(id)
	if !ok || !c.visible(op.Acct) {
		return nil, notFound("multi-signature operation", id)
	}
	if !c.who.Perms.OperationApprover && op.Requester.ID != c.who.ID {
		return nil, forbidden("missing permission operationApprover: only approvers and the requester see this operation")
	}
	return op, nil
}

// GET /v2/account/multi-sig-operations/{id}
func (s *Server) getOperation(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	op, err := c.findOperation()
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, s.operationView(op, true))
}

// decide applies an approver's decision to the operation of the path
// under the write lock and replies with the operation. The caller must be
// an approver who may write, and not its requester; the operation must
// still be pending.
func (s *Server) decide(c *call, apply func(op *operation) error) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.requireApprover(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	op, err := c.findOperation()
	if err != nil {
		return err
	}
	if op.Requester.ID == c.who.ID {
		return errf(http.StatusForbidden, codeSelf, "you requested this operation; another approver must decide it")
	}
	if op.Status != OperationPending {
		return conflict(codeAlreadyDecided, "operation %s is already %s", op.ID, op.Status)
	}
	if err := apply(op); err != nil {
		return err
	}
	s.saveOperation(op)
	return c.reply(http.StatusOK, map[string]any{"operation": s.operationView(op, true)})
}

// POST /v2/account/multi-sig-operations/{id}/approve
func (s *Server) approveOperation(c *call) error {
	return s.decide(c, func(op *operation) error {
		if op.approvals[c.who.ID] {
			return conflict(codeAlreadyApproved, "you already approved operation %s; it needs %d more approval(s) from other approvers", op.ID, int(op.MinApprovals)-len(op.approvals))
		}
		op.approvals[c.who.ID] = true
		if int32(len(op.approvals)) >= op.MinApprovals {
			s.executeLocked(op, c.now)
		}
		return nil
	})
}

// executeLocked creates the parked ticket. The quote is honoured while the
// operation is pending; everything else (beneficiaries, balance,
// permissions) is checked again now. A refusal fails the operation.
func (s *Server) executeLocked(op *operation, now time.Time) {
	op.DecidedAt = now
	p, err := s.planTicket(op.Acct, op.Requester, &op.req, now, false, &op.q)
	if err == nil {
		var t *ticket
		if t, err = s.makeTicketLocked(p, now); err == nil {
			op.Status = OperationExecuted
			op.ExecutedID = t.ID.String()
			return
		}
	}
	op.Status = OperationFailed
	msg := err.Error()
	if ae, ok := err.(*apiError); ok {
		msg = ae.Message
	}
	op.Reason = "the ticket could not be created: " + msg
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
	if len(req.Reason) > 500 {
		return badRequest(codeInvalidField, "reason: at most 500 characters")
	}
	return s.decide(c, func(op *operation) error {
		op.Status = OperationRejected
		op.Reason = req.Reason
		op.RejectedBy = c.who.Email
		op.DecidedAt = c.now
		return nil
	})
}
