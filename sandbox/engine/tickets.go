package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// makeTicketLocked creates the ticket a plan describes, debits an INTERNAL
// input and schedules its lifecycle. The caller holds e.mu.
func (e *Engine) makeTicketLocked(p *ticketPlan, now time.Time) (*ticket, error) {
	t := e.newTicket(p, now)
	if err := e.fillInput(t, p); err != nil {
		return nil, err
	}
	e.fillOutput(t, p)
	fillRequested(t, p)
	e.stampInfoIDs(t)
	e.recordTicketEvent(t, "TICKET-CREATED", now)
	e.startTicketLocked(t, now)
	// One row, written once its first transitions are known (the ledger's
	// reference to it is checked at commit).
	e.insertTicket(t)
	return t, nil
}

// newTicket is a fresh unpaid ticket carrying the quote it was made from.
func (e *Engine) newTicket(p *ticketPlan, now time.Time) *ticket {
	q, acct, req := p.q, p.acct, p.req
	id := e.newID()
	t := &ticket{acct: acct, accessID: p.who.ID, q: *q, outKind: p.outKind, outID: p.outID}
	fees := make([]records.Fee, len(q.Fees))
	for i, f := range q.Fees {
		reb := Rebatable(f.Type)
		f.Rebatable = &reb
		fees[i] = f
	}
	t.Ticket = records.Ticket{
		ID: id, ExternalID: req.ExternalID, WorkspaceID: acct.MainID, UserID: acct.ID,
		Status: records.TicketUnpaid, CreatedAt: records.NewTime(now), UpdatedAt: records.NewTime(now), ExpiresAt: records.NewTime(now.Add(p.ttl)),
		Quote: records.TicketQuote{
			ID: q.ID, TicketID: id, InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputPaymentMethod, InputAmount: q.InputAmount,
			OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputPaymentMethod, OutputAmount: q.OutputAmount,
			MarkupCurrency: q.MarkupCurrency, MarkupAmount: q.MarkupAmount, SendMethod: q.SendMethod,
			InputThirdParty: q.InputThirdParty, OutputThirdParty: q.OutputThirdParty, BasePrice: q.BasePrice, PairName: q.PairName(),
			OutputBrCode: q.OutputBrCode, TicketRefundID: q.TicketRefundID,
			CreatedAt: records.NewTime(time.UnixMilli(q.IssuedAt)), AppliedFees: fees,
		},
	}
	return t
}

// fillInput says how the money comes in: the BR Code to pay by PIX, or the
// wallet the coins are sent from.
func (e *Engine) fillInput(t *ticket, p *ticketPlan) error {
	q, acct, req, id := p.q, p.acct, p.req, t.ID
	switch {
	case q.InputPaymentMethod == "PIX":
		ref := strings.ToUpper(strings.ReplaceAll(id.String(), "-", ""))[:25]
		extra := ""
		if req.TicketBrlPixInput != nil {
			extra = req.TicketBrlPixInput.AdditionalData
		}
		code, err := brcode.Encode(brcode.Payload{Key: acct.PixKey, Amount: q.InputAmount, MerchantName: merchantName(acct.Name), MerchantCity: "SAO PAULO", TxID: ref})
		if err != nil {
			return fmt.Errorf("BR Code for ticket %s: %w", id, err)
		}
		t.BrlPixInputInfo = &records.BrlPixInputInfo{ID: e.newID().String(), TicketID: id.String(), ReferenceLabel: ref, AdditionalData: extra, BrCode: code}
	case money.IsChain(q.InputPaymentMethod):
		info := &records.BlockchainSenderInfo{WalletAddress: p.fromWallet}
		if q.SendMethod == records.SendTransfer {
			info.DisposableDepositAddress = acct.Wallet
		}
		t.BlockchainSenderInfo = info
	}
	return nil
}

// fillOutput says where the money goes, from the receiver the plan chose.
func (e *Engine) fillOutput(t *ticket, p *ticketPlan) {
	q, acct, req, id := p.q, p.acct, p.req, t.ID
	switch p.outKind {
	case "brl":
		b := p.brl
		r := &records.BrazilianFiatReceiverInfo{PixKey: b.PixKey, TaxID: b.TaxID, UserName: b.UserName, BankCode: b.BankCode, BranchCode: b.BranchCode, AccountNumber: b.AccountNumber, AccountType: b.AccountType}
		if req.TicketBrlPixOutput != nil {
			r.PixMessage = req.TicketBrlPixOutput.PixMessage
		}
		t.BrazilianFiatReceiverInfo = r
	case "wallet":
		w := p.wallet
		t.BlockchainReceiverInfo = &records.BlockchainReceiverInfo{ID: e.newID().String(), TicketID: id.String(), WalletAddress: w.WalletAddress, WalletChain: w.WalletChain, WalletMemo: w.WalletMemo}
	case "pix":
		r := *p.pixTo
		if req.TicketBrlPixOutput != nil {
			r.PixMessage = req.TicketBrlPixOutput.PixMessage
		}
		t.BrazilianFiatReceiverInfo = &r
	case "eur":
		r := *p.eurTo
		r.Amount = q.OutputAmount
		t.EuropeanFiatReceiverInfo = &r
	case "ars":
		r := *p.arsTo
		t.ArgentineFiatReceiverInfo = &r
	case "inline":
		r := *p.chainTo
		r.ID, r.TicketID = e.newID().String(), id.String()
		t.BlockchainReceiverInfo = &r
	case "own":
		t.BlockchainReceiverInfo = &records.BlockchainReceiverInfo{ID: e.newID().String(), TicketID: id.String(), WalletAddress: acct.Wallet, WalletChain: q.OutputPaymentMethod}
	case "move":
		// The receiver is the other account's service wallet, inside the
		// service (INTERNAL): no chain transaction.
		t.BlockchainReceiverInfo = &records.BlockchainReceiverInfo{ID: e.newID().String(), TicketID: id.String(), WalletAddress: p.moveTo.Wallet, WalletChain: q.OutputPaymentMethod}
	case "usd":
		b := p.usd
		t.AmericanFiatReceiverInfo = &records.AmericanFiatInfo{
			AccountHolderName: b.BankBeneficiaryName, BankAccountNumber: b.BankAccountNumber, BankRoutingNumber: b.BankRoutingNumber,
			AccountType: "checking", BankName: b.BankName, BankAddress: addressLine(b.BankAddress), DepositMessage: p.reference, PaymentRail: q.OutputPaymentMethod,
		}
	}
}

// fillRequested keeps what the request added beside the two sides: the
// signatures of a permit, the ticket refunded, the markup's wallet.
func fillRequested(t *ticket, p *ticketPlan) {
	q, req := p.q, p.req
	if in := req.TicketBlockchainInput; in != nil && (in.Permit != nil || in.Personal != nil) {
		info := &records.BlockchainInputInfo{}
		if pm := in.Permit; pm != nil {
			info.R, info.S, info.V, info.Nonce, info.Deadline = pm.R, pm.S, pm.V, pm.Nonce, pm.Deadline
		}
		if ps := in.Personal; ps != nil {
			info.PersonalSignature, info.PersonalSignatureDeadline = ps.Signature, ps.Deadline
		}
		t.BlockchainInputInfo = info
	}
	if q.TicketRefundID != "" {
		t.RefundableParameter, _ = json.Marshal(map[string]string{"ticketRefundId": q.TicketRefundID})
	}
	if q.MarkupAmount.IsPositive() && req.TicketMarkupInput != nil {
		t.MarkupInfo = &records.MarkupInfo{MarkupWalletAddress: req.TicketMarkupInput.MarkupWalletAddress}
	}
}

// startTicketLocked sets a new ticket going: an internal input is debited
// at once and processing starts; otherwise funding (automatic for a small
// PIX, always on a chain) and expiry are scheduled.
func (e *Engine) startTicketLocked(t *ticket, now time.Time) {
	q, acct := &t.q, t.acct
	switch {
	case q.InputPaymentMethod == "INTERNAL":
		e.move(acct, q.InputCurrency, q.InputAmount.Neg(), t.ID, moveDebit, now)
		t.debited = q.InputAmount
		e.startProcessingLocked(t, now, "DEPOSIT-SUCCESS")
	case q.InputPaymentMethod == "PIX":
		if q.InputAmount.LessThanOrEqual(decimalInt(autoFundPIXLimit)) {
			t.fundAt = now.Add(e.scaled(PIXFundDelay))
			e.schedule(t.fundAt, dueFund, t.ID, nil)
		}
		e.schedule(t.ExpiresAt.Time, dueExpire, t.ID, nil)
	default: // on-chain TRANSFER or PERMIT
		t.fundAt = now.Add(e.scaled(chainFundDelay))
		e.schedule(t.fundAt, dueFund, t.ID, nil)
		e.schedule(t.ExpiresAt.Time, dueExpire, t.ID, nil)
	}
}

func merchantName(name string) string {
	name = strings.ToUpper(name)
	if r := []rune(name); len(r) > 25 {
		name = string(r[:25]) // 25 characters, never half of one
	}
	return name
}

func addressLine(a records.Address) string {
	parts := []string{}
	for _, p := range []string{a.StreetLine1, a.StreetLine2, a.City, a.State, a.PostalCode, a.Country} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// StoredTicket is a ticket as just stored or read: its record, and the
// JSON it is stored as, which an answer about it is made of (nil only for
// a ticket never stored).
type StoredTicket struct {
	records.Ticket
	JSON []byte
}

func (t *ticket) handle() *StoredTicket { return &StoredTicket{Ticket: t.Ticket, JSON: t.stored} }

// CreateTicket creates the ticket a request describes in the operated
// account, or, when the caller's creations need approval, parks it as a
// pending multi-signature operation (body is the request as sent, which
// the operation shows): one of the two results is set.
func (e *Engine) CreateTicket(c Caller, req *TicketRequest, body []byte) (*StoredTicket, *OperationInfo, error) {
	if err := c.writable(); err != nil {
		return nil, nil, err
	}
	// The token is read before the store lock, which every writer waits
	// on; its error still comes after the scope's, as it always has.
	q, qerr := e.quoteOf(c.Access, req.QuoteToken)
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, nil, err
	}
	if qerr != nil {
		return nil, nil, qerr
	}
	p, err := e.planTicket(acct, c.Access, req, c.Now, true, q)
	if err != nil {
		return nil, nil, err
	}
	if c.Access.Perms.OperationRequester {
		op := e.parkLocked(p, body, c.Now)
		info := e.info(op, true)
		return nil, &info, nil
	}
	t, err := e.makeTicketLocked(p, c.Now)
	if err != nil {
		return nil, nil, err
	}
	return t.handle(), nil, nil
}

// TicketFilter is a ticket list query (the seed's filters); empty fields
// do not filter.
type TicketFilter struct {
	Status, InputCurrency, OutputCurrency, InputMethod, OutputMethod string
	ExternalID, EndToEndID                                           string
	Window                                                           Window
}

// TicketPage is a page of the operated account's tickets matching f,
// newest first, from the cursor, as their stored JSON.
func (e *Engine) TicketPage(c Caller, f TicketFilter, cursor string) ([]json.RawMessage, string, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, "", err
	}
	return e.ticketPage(acct, store.TicketFilter{
		Status: f.Status, InputCurrency: f.InputCurrency, OutputCurrency: f.OutputCurrency, InputMethod: f.InputMethod,
		OutputMethod: f.OutputMethod, ExternalID: f.ExternalID, EndToEndID: f.EndToEndID, From: f.Window.From, To: f.Window.To,
	}, cursor, PageSize)
}

// findTicket reads a ticket of the operated account; writing says whether
// the caller holds e.mu for writing (and so reads through its
// transaction). The caller holds e.mu.
func (e *Engine) findTicket(c Caller, id uuid.UUID, writing bool) (*ticket, error) {
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	t, err := e.loadTicket(writing, acct, id)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, notFound("ticket", id)
	}
	return t, nil
}

// FindTicket is a ticket of the operated account.
func (e *Engine) FindTicket(c Caller, id uuid.UUID) (*StoredTicket, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, err := e.findTicket(c, id, false)
	if err != nil {
		return nil, err
	}
	return t.handle(), nil
}

// PaidTicket is a PAID ticket of the operated account, for its receipt,
// and the account's name.
func (e *Engine) PaidTicket(c Caller, id uuid.UUID) (records.Ticket, string, error) {
	e.mu.RLock()
	t, err := e.findTicket(c, id, false)
	var view records.Ticket
	var acctName string
	if err == nil {
		view, acctName = t.Ticket, t.acct.Name
	}
	e.mu.RUnlock()
	if err != nil {
		return records.Ticket{}, "", err
	}
	if view.Status != records.TicketPaid {
		return records.Ticket{}, "", conflict(CodeReceiptNA, "ticket %s is %s; a receipt exists only once it is PAID", view.ID, view.Status)
	}
	return view, acctName, nil
}

// FundTicket has the payer of an UNPAID ticket pay now (sandbox only).
func (e *Engine) FundTicket(c Caller, id uuid.UUID) (*StoredTicket, error) {
	if err := c.writable(); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.findTicket(c, id, true)
	if err != nil {
		return nil, err
	}
	if t.Status != records.TicketUnpaid {
		return nil, conflict(CodeNotFundable, "ticket %s is %s; only UNPAID tickets can be funded", t.ID, t.Status)
	}
	e.fundLocked(t, c.Now)
	e.saveTicket(t)
	return t.handle(), nil
}
