package engine

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// operationTTL is how long a parked request waits for its approvals.
const operationTTL = 24 * time.Hour

// OperationCreateTicket is the type of every operation: a parked ticket
// creation.
const OperationCreateTicket = "CREATE_TICKET"

func decimalInt(n int64) decimal.Decimal { return decimal.NewFromInt(n) }

// parkLocked turns a validated ticket creation into a pending operation.
// The caller holds e.mu.
func (e *Engine) parkLocked(p *ticketPlan, body []byte, now time.Time) *Operation {
	op := &Operation{
		ID: e.newID(), Requester: p.who, Acct: p.acct, Status: records.OperationPending, CreatedAt: now, ExpiresAt: now.Add(operationTTL),
		Payload: json.RawMessage(append([]byte(nil), body...)), req: *p.req, q: *p.q,
		approvals: map[uuid.UUID]bool{}, MinApprovals: e.st.minApprovals,
	}
	e.st.operations.add(now, op.ID, op)
	e.schedule(op.ExpiresAt, dueOpExpire, uuid.Nil, op)
	e.saveOperation(op)
	return op
}

// executeLocked creates the parked ticket. The quote is honoured while the
// operation is pending; everything else (beneficiaries, balance,
// permissions) is checked again now. A refusal fails the operation.
func (e *Engine) executeLocked(op *Operation, now time.Time) {
	op.DecidedAt = now
	p, err := e.planTicket(op.Acct, op.Requester, &op.req, now, false, &op.q)
	if err == nil {
		var t *ticket
		if t, err = e.makeTicketLocked(p, now); err == nil {
			op.Status = records.OperationExecuted
			op.ExecutedID = t.ID.String()
			return
		}
	}
	op.Status = records.OperationFailed
	msg := err.Error()
	if r, ok := err.(*Refusal); ok {
		msg = r.Message
	}
	op.Reason = "the ticket could not be created: " + msg
}

// OperationInfo is an operation as it stands, copied under the lock: what
// its views show. Approvers, Quote and Beneficiary are its detail's (nil
// in a list).
type OperationInfo struct {
	ID                             uuid.UUID
	RequesterEmail                 string
	Status                         records.OperationStatus
	Approvals, MinApprovals        int32
	CreatedAt                      time.Time
	Account                        *Account
	ExecutedID, Reason, RejectedBy string
	Payload                        json.RawMessage

	Approvers   []Approval
	Quote       *QuoteClaims
	Beneficiary *Beneficiary
}

// Approval is an approver of the main account and whether it approved an
// operation.
type Approval struct {
	AccessID    uuid.UUID
	Email       string
	HasApproved bool
}

// Beneficiary is the beneficiary a parked ticket would pay: its kind
// (BRL, WALLET, USD, COP) and a copy of its record, or the account's own
// wallet (OWN_WALLET, with its address and chain).
type Beneficiary struct {
	Kind                       string
	Record                     any // *BRLAccount, *Wallet, *USDAccount or *COPAccount
	WalletAddress, WalletChain string
	// The account funds move to (ACCOUNT, §8.5).
	AccountID   uuid.UUID
	AccountName string
}

// info is the operation as it stands; detail adds its approvers, quote
// and beneficiary. The caller holds e.mu.
func (e *Engine) info(op *Operation, detail bool) OperationInfo {
	v := OperationInfo{
		ID: op.ID, RequesterEmail: op.Requester.Email, Status: op.Status, Approvals: int32(len(op.approvals)), MinApprovals: op.MinApprovals,
		CreatedAt: op.CreatedAt, Account: op.Acct, ExecutedID: op.ExecutedID, Reason: op.Reason, RejectedBy: op.RejectedBy, Payload: op.Payload,
	}
	if detail {
		v.Approvers = []Approval{}
		for _, a := range e.st.accesses {
			if a.Perms.OperationApprover && !a.Revoked {
				v.Approvers = append(v.Approvers, Approval{AccessID: a.ID, Email: a.Email, HasApproved: op.approvals[a.ID]})
			}
		}
		q := op.q
		v.Quote = &q
		v.Beneficiary = e.beneficiaryOf(op)
	}
	return v
}

// beneficiaryOf is the beneficiary record the parked output references.
func (e *Engine) beneficiaryOf(op *Operation) *Beneficiary {
	r, acct := &op.req, op.Acct
	switch {
	case r.TicketBrlPixOutput != nil:
		if id, err := uuid.Parse(r.TicketBrlPixOutput.BeneficiaryBrlBankAccountID); err == nil {
			if b, ok := acct.brl.get(id); ok {
				c := *b
				return &Beneficiary{Kind: "BRL", Record: &c}
			}
		}
	case r.TicketBlockchainOutput != nil:
		if id, err := uuid.Parse(r.TicketBlockchainOutput.BeneficiaryWalletID); err == nil {
			if id == uuid.Nil {
				return &Beneficiary{Kind: "OWN_WALLET", WalletAddress: acct.Wallet, WalletChain: op.q.OutputPaymentMethod}
			} else if to, ok := e.st.accounts[id]; ok && to.MainID == acct.MainID {
				return &Beneficiary{Kind: "ACCOUNT", AccountID: to.ID, AccountName: to.Name, WalletAddress: to.Wallet, WalletChain: op.q.OutputPaymentMethod}
			} else if w, ok := acct.wallets.get(id); ok {
				c := *w
				return &Beneficiary{Kind: "WALLET", Record: &c}
			}
		}
	case r.TicketUsdOutput != nil:
		if id, err := uuid.Parse(r.TicketUsdOutput.BeneficiaryUsdBankAccountID); err == nil {
			if b, ok := acct.usd.get(id); ok {
				c := *b
				return &Beneficiary{Kind: "USD", Record: &c}
			}
		}
	case r.TicketCopOutput != nil:
		if id, err := uuid.Parse(r.TicketCopOutput.BeneficiaryCopBankAccountID); err == nil {
			if b, ok := acct.cop.get(id); ok {
				c := *b
				return &Beneficiary{Kind: "COP", Record: &c}
			}
		}
	}
	return nil
}

// MayApprove refuses an access that is not an approver: only approvers
// see and decide multi-signature operations.
func (a *Access) MayApprove() error {
	if !a.Perms.OperationApprover {
		return forbidden("missing permission operationApprover: only approvers see and decide multi-signature operations")
	}
	return nil
}

// visible reports whether who may see operations of the account.
func visible(who *Access, acct *Account) bool {
	if acct.Main {
		return !who.MainBlacklisted
	}
	return !who.Blacklisted[acct.ID]
}

// OperationPage is a page of the operations an approver sees, newest
// first, in a status ("" for all).
func (e *Engine) OperationPage(c Caller, status, cursor string) ([]OperationInfo, string, error) {
	if err := c.Access.MayApprove(); err != nil {
		return nil, "", err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	items, next, err := e.st.operations.page(cursor, PageSize, Window{}, func(op *Operation) bool {
		return visible(c.Access, op.Acct) && (status == "" || string(op.Status) == status)
	})
	if err != nil {
		return nil, "", err
	}
	out := make([]OperationInfo, len(items))
	for i, op := range items {
		out[i] = e.info(op, false)
	}
	return out, next, nil
}

// findOperation finds an operation the caller may see: approvers see all
// of the main account's operations, a requester its own. The caller holds
// e.mu.
func (e *Engine) findOperation(who *Access, id uuid.UUID) (*Operation, error) {
	op, ok := e.st.operations.get(id)
	if !ok || !visible(who, op.Acct) {
		return nil, notFound("multi-signature operation", id)
	}
	if !who.Perms.OperationApprover && op.Requester.ID != who.ID {
		return nil, forbidden("missing permission operationApprover: only approvers and the requester see this operation")
	}
	return op, nil
}

// Operation is the detail of an operation the caller may see.
func (e *Engine) Operation(c Caller, id uuid.UUID) (OperationInfo, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	op, err := e.findOperation(c.Access, id)
	if err != nil {
		return OperationInfo{}, err
	}
	return e.info(op, true), nil
}

// decide applies an approver's decision to an operation under the write
// lock and returns the operation's detail. The caller must be an approver
// who may write, and not its requester; the operation must still be
// pending.
func (e *Engine) decide(c Caller, id uuid.UUID, apply func(op *Operation) error) (OperationInfo, error) {
	if err := c.writable(); err != nil {
		return OperationInfo{}, err
	}
	if err := c.Access.MayApprove(); err != nil {
		return OperationInfo{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	op, err := e.findOperation(c.Access, id)
	if err != nil {
		return OperationInfo{}, err
	}
	if op.Requester.ID == c.Access.ID {
		return OperationInfo{}, refuse(Forbidden, CodeSelf, "you requested this operation; another approver must decide it")
	}
	if op.Status != records.OperationPending {
		return OperationInfo{}, conflict(CodeAlreadyDecided, "operation %s is already %s", op.ID, op.Status)
	}
	if err := apply(op); err != nil {
		return OperationInfo{}, err
	}
	e.saveOperation(op)
	return e.info(op, true), nil
}

// Approve approves an operation; the last approval it needs creates its
// ticket.
func (e *Engine) Approve(c Caller, id uuid.UUID) (OperationInfo, error) {
	return e.decide(c, id, func(op *Operation) error {
		if op.approvals[c.Access.ID] {
			return conflict(CodeAlreadyApproved, "you already approved operation %s; it needs %d more approval(s) from other approvers", op.ID, int(op.MinApprovals)-len(op.approvals))
		}
		op.approvals[c.Access.ID] = true
		if int32(len(op.approvals)) >= op.MinApprovals {
			e.executeLocked(op, c.Now)
		}
		return nil
	})
}

// Reject rejects an operation, for reason (checked by the caller).
func (e *Engine) Reject(c Caller, id uuid.UUID, reason string) (OperationInfo, error) {
	return e.decide(c, id, func(op *Operation) error {
		op.Status = records.OperationRejected
		op.Reason = reason
		op.RejectedBy = c.Access.Email
		op.DecidedAt = c.Now
		return nil
	})
}
