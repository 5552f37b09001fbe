package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// makeTicketLocked creates the ticket a plan describes, debits an INTERNAL
// input and schedules its lifecycle. The caller holds s.mu.
func (s *Server) makeTicketLocked(p *ticketPlan, now time.Time) (*ticket, error) {
	q, acct, req := p.q, p.acct, p.req
	id := s.newID()
	t := &ticket{acct: acct, accessID: p.who.ID, q: *q, outKind: p.outKind, outID: p.outID}
	fees := make([]Fee, len(q.Fees))
	for i, f := range q.Fees {
		reb := f.Type == "Conversion Fee"
		f.Rebatable = &reb
		fees[i] = f
	}
	t.Ticket = Ticket{
		ID: id, ExternalID: req.ExternalID, WorkspaceID: acct.MainID, UserID: acct.ID,
		Status: TicketUnpaid, CreatedAt: NewTime(now), UpdatedAt: NewTime(now), ExpiresAt: NewTime(now.Add(p.ttl)),
		Quote: TicketQuote{
			ID: q.ID, TicketID: id, InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputPaymentMethod, InputAmount: q.InputAmount,
			OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputPaymentMethod, OutputAmount: q.OutputAmount,
			MarkupCurrency: q.MarkupCurrency, MarkupAmount: q.MarkupAmount, SendMethod: q.SendMethod,
			InputThirdParty: q.InputThirdParty, OutputThirdParty: q.OutputThirdParty, BasePrice: q.BasePrice, PairName: q.pairName(),
			CreatedAt: NewTime(time.UnixMilli(q.IssuedAt)), AppliedFees: fees,
		},
	}
	// Input side.
	switch {
	case q.InputPaymentMethod == "PIX":
		ref := strings.ToUpper(strings.ReplaceAll(id.String(), "-", ""))[:25]
		extra := ""
		if req.TicketBrlPixInput != nil {
			extra = req.TicketBrlPixInput.AdditionalData
		}
		code, err := brcode.Encode(brcode.Payload{Key: acct.PixKey, Amount: q.InputAmount, MerchantName: merchantName(acct.Name), MerchantCity: "SAO PAULO", TxID: ref})
		if err != nil {
			return nil, fmt.Errorf("BR Code for ticket %s: %w", id, err)
		}
		t.BrlPixInputInfo = &BrlPixInputInfo{ID: s.newID().String(), TicketID: id.String(), ReferenceLabel: ref, AdditionalData: extra, BrCode: code}
	case money.IsChain(q.InputPaymentMethod):
		info := &BlockchainSenderInfo{WalletAddress: p.fromWallet}
		if q.SendMethod == SendTransfer {
			info.DisposableDepositAddress = acct.Wallet
		}
		t.BlockchainSenderInfo = info
	}
	// Output side.
	switch p.outKind {
	case "brl":
		b := p.brl
		r := &BrazilianFiatReceiverInfo{PixKey: b.PixKey, TaxID: b.TaxID, UserName: b.UserName, BankCode: b.BankCode, BranchCode: b.BranchCode, AccountNumber: b.AccountNumber, AccountType: b.AccountType}
		if req.TicketBrlPixOutput != nil {
			r.PixMessage = req.TicketBrlPixOutput.PixMessage
		}
		t.BrazilianFiatReceiverInfo = r
	case "wallet":
		w := p.wallet
		t.BlockchainReceiverInfo = &BlockchainReceiverInfo{ID: s.newID().String(), TicketID: id.String(), WalletAddress: w.WalletAddress, WalletChain: w.WalletChain, WalletMemo: w.WalletMemo}
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
		r.ID, r.TicketID = s.newID().String(), id.String()
		t.BlockchainReceiverInfo = &r
	case "own":
		t.BlockchainReceiverInfo = &BlockchainReceiverInfo{ID: s.newID().String(), TicketID: id.String(), WalletAddress: acct.Wallet, WalletChain: q.OutputPaymentMethod}
	case "usd":
		b := p.usd
		t.AmericanFiatReceiverInfo = &AmericanFiatInfo{
			AccountHolderName: b.BankBeneficiaryName, BankAccountNumber: b.BankAccountNumber, BankRoutingNumber: b.BankRoutingNumber,
			AccountType: "checking", BankName: b.BankName, BankAddress: addressLine(b.BankAddress), DepositMessage: p.reference, PaymentRail: q.OutputPaymentMethod,
		}
	}
	if in := req.TicketBlockchainInput; in != nil && (in.Permit != nil || in.Personal != nil) {
		info := &BlockchainInputInfo{}
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
		t.MarkupInfo = &MarkupInfo{MarkupWalletAddress: req.TicketMarkupInput.MarkupWalletAddress}
	}

	s.stampInfoIDs(t)
	s.recordTicketEvent(t, "TICKET-CREATED", now)
	switch {
	case q.InputPaymentMethod == "INTERNAL":
		s.move(acct, q.InputCurrency, q.InputAmount.Neg(), t.ID, moveDebit, now)
		t.debited = q.InputAmount
		s.startProcessingLocked(t, now, "DEPOSIT-SUCCESS")
	case q.InputPaymentMethod == "PIX":
		if q.InputAmount.LessThanOrEqual(decimalInt(autoFundPIXLimit)) {
			t.fundAt = now.Add(s.scaled(pixFundDelay))
			s.schedule(t.fundAt, dueFund, t.ID, nil)
		}
		s.schedule(t.ExpiresAt.Time, dueExpire, t.ID, nil)
	default: // on-chain TRANSFER or PERMIT
		t.fundAt = now.Add(s.scaled(chainFundDelay))
		s.schedule(t.fundAt, dueFund, t.ID, nil)
		s.schedule(t.ExpiresAt.Time, dueExpire, t.ID, nil)
	}
	// One row, written once its first transitions are known (the ledger's
	// reference to it is checked at commit).
	s.insertTicket(t)
	return t, nil
}

func merchantName(name string) string {
	name = strings.ToUpper(name)
	if len(name) > 25 {
		name = name[:25]
	}
	return name
}

func addressLine(a Address) string {
	parts := []string{}
	for _, p := range []string{a.StreetLine1, a.StreetLine2, a.City, a.State, a.PostalCode, a.Country} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// POST /v2/account/tickets/[?subAccountId]: 201 {ticket}, or 202
// {operation} when the access's creations need approval.
func (s *Server) createTicket(c *call) error {
	var req ticketRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	// The token is read before the store lock, which every writer waits
	// on; its error still comes after the scope's, as it always has.
	q, qerr := s.quoteOf(c.who, req.QuoteToken)
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	if qerr != nil {
		return qerr
	}
	p, err := s.planTicket(acct, c.who, &req, c.now, true, q)
	if err != nil {
		return err
	}
	if c.who.Perms.OperationRequester {
		op := s.parkLocked(p, c.body, c.now)
		return c.reply(http.StatusAccepted, map[string]any{"operation": s.operationView(op, true)})
	}
	t, err := s.makeTicketLocked(p, c.now)
	if err != nil {
		return err
	}
	return c.replyCreated(t)
}

// GET /v2/account/tickets/ with the seed's filters.
func (s *Server) listTickets(c *call) error {
	q := c.query
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	status := q.Get("status")
	if status != "" && !slices.Contains(ticketStatuses(), status) {
		return badRequest(codeInvalidField, "status: unknown ticket status %q (known: %s)", truncate(status, 20), strings.Join(ticketStatuses(), ", "))
	}
	inCur, outCur := q.Get("inputCurrency"), q.Get("outputCurrency")
	for _, f := range []struct{ name, v string }{{"inputCurrency", inCur}, {"outputCurrency", outCur}} {
		if f.v != "" && !knownCurrency(f.v) {
			return badRequest(codeInvalidField, "%s: unknown currency %q", f.name, truncate(f.v, 12))
		}
	}
	inMethod, outMethod := q.Get("inputPaymentMethod"), q.Get("outputPaymentMethod")
	e2e, ext := q.Get("endToEndId"), q.Get("externalId")
	f := store.TicketFilter{Status: status, InputCurrency: inCur, OutputCurrency: outCur, InputMethod: inMethod, OutputMethod: outMethod, ExternalID: ext, EndToEndID: e2e, From: w.from, To: w.to}
	s.mu.RLock()
	acct, err := c.scope()
	if err != nil {
		s.mu.RUnlock()
		return err
	}
	items, next, err := s.ticketPage(acct, f, q.Get("cursor"), pageSize)
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return c.reply(http.StatusOK, ticketList{Tickets: items, Cursor: next})
}

type ticketList struct {
	Tickets []json.RawMessage `json:"tickets"` // stored Ticket JSON
	Cursor  string            `json:"cursor"`
}

// findTicket reads the ticket of the path in the operated account; writing
// says whether the caller holds s.mu for writing (and so reads through its
// transaction). The caller holds s.mu.
func (c *call) findTicket(writing bool) (*ticket, error) {
	id, err := c.pathUUID("id")
	if err != nil {
		return nil, err
	}
	acct, err := c.scope()
	if err != nil {
		return nil, err
	}
	t, err := c.s.loadTicket(writing, acct, id)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, notFound("ticket", id)
	}
	return t, nil
}

// GET /v2/account/tickets/{id}
func (s *Server) getTicket(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := c.findTicket(false)
	if err != nil {
		return err
	}
	return c.replyTicket(http.StatusOK, t)
}

// POST /v2/sandbox/tickets/{id}/fund: the payer pays now (sandbox only).
func (s *Server) fundTicket(c *call) error {
	if err := c.writable(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := c.findTicket(true)
	if err != nil {
		return err
	}
	if t.Status != TicketUnpaid {
		return conflict(codeNotFundable, "ticket %s is %s; only UNPAID tickets can be funded", t.ID, t.Status)
	}
	s.fundLocked(t, c.now)
	s.saveTicket(t)
	return c.replyTicket(http.StatusOK, t)
}

// GET /v2/account/tickets/{id}/receipt: a PDF, for PAID tickets only.
func (s *Server) ticketReceipt(c *call) error {
	s.mu.RLock()
	t, err := c.findTicket(false)
	var view Ticket
	var acctName string
	if err == nil {
		view, acctName = t.Ticket, t.acct.Name
	}
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	if view.Status != TicketPaid {
		return conflict(codeReceiptNA, "ticket %s is %s; a receipt exists only once it is PAID", view.ID, view.Status)
	}
	pdf := receiptPDF(&view, acctName)
	return c.replyRaw(http.StatusOK, "application/pdf", pdf, map[string]string{"Content-Disposition": "attachment; filename=ticket-receipt.pdf"})
}

// replyTicket answers {"ticket": t} from the ticket's stored JSON: the
// bytes just written (or read) are the answer, not encoded a second time.
// The caller has not changed t since it was saved or read.
func (c *call) replyTicket(status int, t *ticket) error {
	if t.stored == nil {
		return c.reply(status, map[string]any{"ticket": t.Ticket})
	}
	body := make([]byte, 0, len(t.stored)+len(`{"ticket":}`))
	body = append(body, `{"ticket":`...)
	body = append(append(body, t.stored...), '}')
	return c.replyRaw(status, "application/json", body, nil)
}

// replyCreated answers a creation with the superset of §7.1: the live
// service's flat id, brCode and expiration beside {ticket}, the ticket
// being the JSON just stored (not encoded a second time).
func (c *call) replyCreated(t *ticket) error {
	if t.stored == nil {
		return c.reply(http.StatusCreated, createdAnswer(&t.Ticket))
	}
	head, err := json.Marshal(headOf(&t.Ticket))
	if err != nil {
		return err
	}
	body := make([]byte, 0, len(head)+len(t.stored)+len(`,"ticket":}`))
	body = append(body, head[:len(head)-1]...)
	body = append(body, `,"ticket":`...)
	body = append(append(body, t.stored...), '}')
	return c.replyRaw(http.StatusCreated, "application/json", body, nil)
}
