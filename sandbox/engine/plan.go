package engine

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Ticket lifetimes and the sandbox's lifecycle delays (before --speed).
const (
	conversionTTL     = 5 * time.Minute
	plainTTL          = 24 * time.Hour
	autoFundPIXLimit  = 1000 // BRL; larger PIX inputs wait for the fund endpoint
	chainFundDelay    = 4 * time.Second
	deliveryDelay     = 2 * time.Second
	minCustomDuration = 300
)

// DeliveryDelay is how long a delivery takes once processing starts,
// before the speed factor: the soonest a ticket's balances move after it
// is made.
const DeliveryDelay = deliveryDelay

// PIXFundDelay is how long a PIX input of at most autoFundPIXLimit waits
// for its payer, before the speed factor.
const PIXFundDelay = 3 * time.Second

// MaxExternalIDLen is the longest externalId a ticket or a payment
// session may carry.
const MaxExternalIDLen = 128

// ticketRequest is the create-ticket body. Ids are strings here so that a
// malformed one is reported with its field name.
type TicketRequest struct {
	QuoteToken             string            `json:"quoteToken"`
	ExternalID             string            `json:"externalId,omitempty"`
	CustomDuration         *int64            `json:"customDuration,omitempty"`
	TicketBrlPixInput      *PixInputBlock    `json:"ticketBrlPixInput,omitempty"`
	TicketBlockchainInput  *ChainInputBlock  `json:"ticketBlockchainInput,omitempty"`
	TicketBrlPixOutput     *PixOutputBlock   `json:"ticketBrlPixOutput,omitempty"`
	TicketBlockchainOutput *ChainOutputBlock `json:"ticketBlockchainOutput,omitempty"`
	TicketUsdOutput        *USDOutputBlock   `json:"ticketUsdOutput,omitempty"`
	TicketUsdWireOutput    *WireOutputBlock  `json:"ticketUsdWireOutput,omitempty"`
	TicketEurSepaOutput    *SEPAOutputBlock  `json:"ticketEurSepaOutput,omitempty"`
	TicketArsOutput        *ARSOutputBlock   `json:"ticketArsOutput,omitempty"`
	TicketCopOutput        *COPOutputBlock   `json:"ticketCopOutput,omitempty"`
	TicketMarkupInput      *MarkupBlock      `json:"ticketMarkupInput,omitempty"`
}

type PixInputBlock struct {
	RemitterID     string `json:"remitterId,omitempty"`
	AdditionalData string `json:"additionalData,omitempty"`
}

type ChainInputBlock struct {
	WalletAddress string                     `json:"walletAddress"`
	Permit        *records.Permit            `json:"permit,omitempty"`
	Personal      *records.PersonalSignature `json:"personal,omitempty"`
}

// pixOutputBlock holds every variant of ticketBrlPixOutput (§7.1); which
// one was sent is decided in planPixOutput.
type PixOutputBlock struct {
	BeneficiaryBrlBankAccountID string `json:"beneficiaryBrlBankAccountId,omitempty"`
	PixKey                      string `json:"pixKey,omitempty"`
	BrCode                      string `json:"brCode,omitempty"`
	TaxID                       string `json:"taxId,omitempty"`
	UserName                    string `json:"userName,omitempty"`
	BankCode                    string `json:"bankCode,omitempty"`
	BranchCode                  string `json:"branchCode,omitempty"`
	AccountNumber               string `json:"accountNumber,omitempty"`
	AccountType                 string `json:"accountType,omitempty"`
	PixMessage                  string `json:"pixMessage,omitempty"`
}

// chainOutputBlock is a registered wallet by id or an inline wallet.
type ChainOutputBlock struct {
	BeneficiaryWalletID string `json:"beneficiaryWalletId,omitempty"`
	WalletChain         string `json:"walletChain,omitempty"`
	WalletAddress       string `json:"walletAddress,omitempty"`
	WalletMemo          string `json:"walletMemo,omitempty"`
}

type USDOutputBlock struct {
	BeneficiaryUsdBankAccountID string `json:"beneficiaryUsdBankAccountId"`
	AchReference                string `json:"achReference,omitempty"`
}

type WireOutputBlock struct {
	BeneficiaryUsdBankAccountID string `json:"beneficiaryUsdBankAccountId"`
	WireMessage                 string `json:"wireMessage,omitempty"`
}

type SEPAOutputBlock struct {
	BeneficiaryEurBankAccountID string `json:"beneficiaryEurBankAccountId"`
	SepaReference               string `json:"sepaReference,omitempty"`
}

type ARSOutputBlock struct {
	BeneficiaryArsBankAccountID string `json:"beneficiaryArsBankAccountId"`
}

type COPOutputBlock struct {
	BeneficiaryCopBankAccountID string `json:"beneficiaryCopBankAccountId"`
}

type MarkupBlock struct {
	MarkupWalletAddress string `json:"markupWalletAddress"`
}

// ticketPlan is a create-ticket request checked against its quote and the
// account: everything needed to make the ticket.
type ticketPlan struct {
	q       *QuoteClaims
	req     *TicketRequest
	acct    *Account
	who     *Access
	ttl     time.Duration
	outKind string // brl, wallet, own, usd, cop, internal, move, and the inline pix, inline
	outID   uuid.UUID
	brl     *records.BRLAccount
	wallet  *records.Wallet
	// pixTo is the receiver of an inline PIX output (key, BR Code or bank
	// fields); chainTo the receiver of an inline wallet.
	pixTo      *records.BrazilianFiatReceiverInfo
	chainTo    *records.BlockchainReceiverInfo
	reference  string // achReference, wireMessage or sepaReference
	eurTo      *records.EuropeanFiatInfo
	arsTo      *records.ArgentineFiatReceiverInfo
	usd        *records.USDAccount
	cop        *records.COPAccount
	moveTo     *Account // the account an INTERNAL output moves to (§8.5)
	fromWallet string   // blockchain input wallet (checksummed)
	nowAt      time.Time
}

// FieldUUID reads a body field holding an id: MISSING_FIELD when empty,
// INVALID_FIELD when it is not a UUID.
func FieldUUID(field, raw string) (uuid.UUID, error) {
	if strings.TrimSpace(raw) == "" {
		return uuid.Nil, badRequest(CodeMissingField, "%s: required", field)
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, badRequest(CodeInvalidField, "%s: %q is not a UUID", field, truncate(raw, 40))
	}
	return id, nil
}

func isHexString(s string, n int) bool {
	if !strings.HasPrefix(s, "0x") || len(s) != 2+n {
		return false
	}
	for _, r := range s[2:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// isServiceWallet reports whether addr is a service wallet of the caller's
// accounts (the main account or one of its sub-accounts).
func (st *state) isServiceWallet(addr string) bool {
	for _, a := range st.accounts {
		if strings.EqualFold(a.Wallet, addr) {
			return true
		}
	}
	return false
}

// planTicket validates a create-ticket request (seed rules 1–6 and §6)
// against the operated account, q being the request's quote (quoteOf).
// The caller holds e.mu. checkExpiry is false when an approved operation
// executes (its quote is honoured while the operation is pending).
func (e *Engine) planTicket(acct *Account, who *Access, req *TicketRequest, now time.Time, checkExpiry bool, q *QuoteClaims) (*ticketPlan, error) {
	if q.AccountID != acct.ID {
		want := q.SubAccountID
		if want == "" {
			want = "none (the main account)"
		}
		return nil, badRequest(CodeSubAccountMismatch, "subAccountId: the quote was made for subAccountId %s; create the ticket with the same subAccountId", want)
	}
	if err := railRefusal(acct, q.InputCurrency, q.InputPaymentMethod, q.OutputCurrency, q.OutputPaymentMethod); err != nil {
		return nil, err
	}
	if checkExpiry && !now.Before(q.Expiry()) {
		return nil, badRequest(CodeQuoteExpired, "quoteToken: the quote expired at %s (quotes live 15 s); request a new quote", q.Expiry().Format(time.RFC3339))
	}
	p := &ticketPlan{q: q, req: req, acct: acct, who: who, nowAt: now}
	if validate.Chars(req.ExternalID) > MaxExternalIDLen {
		return nil, badRequest(CodeInvalidField, "externalId: at most %d characters", MaxExternalIDLen)
	}

	// Lifetime.
	p.ttl = plainTTL
	if q.conversion() {
		p.ttl = conversionTTL
	}
	if req.CustomDuration != nil {
		d := *req.CustomDuration
		maxD := int64(259200)
		if q.conversion() {
			maxD = 600
		}
		if d < minCustomDuration || d > maxD {
			return nil, badRequest(CodeInvalidField, "customDuration: must be between %d and %d seconds for this ticket, got %d", minCustomDuration, maxD, d)
		}
		p.ttl = time.Duration(d) * time.Second
	}

	if err := e.planInput(p); err != nil {
		return nil, err
	}
	if err := e.planOutput(p); err != nil {
		return nil, err
	}
	if err := e.checkFlags(p); err != nil {
		return nil, err
	}
	// Markup (seed rule 6 and §6).
	if q.MarkupAmount.IsPositive() {
		if req.TicketMarkupInput == nil || strings.TrimSpace(req.TicketMarkupInput.MarkupWalletAddress) == "" {
			return nil, badRequest(CodeMissingField, "ticketMarkupInput.markupWalletAddress: required, the quote has a markup of %s %s", q.MarkupAmount, q.MarkupCurrency)
		}
		addr := req.TicketMarkupInput.MarkupWalletAddress
		if _, _, err := validate.EVMAddress(addr); err != nil {
			return nil, badRequest(CodeInvalidField, "ticketMarkupInput.markupWalletAddress: %v", err)
		}
		if !e.st.isServiceWallet(addr) {
			return nil, badRequest(CodeInvalidField, "ticketMarkupInput.markupWalletAddress: %s is not a service wallet of this account (use %s)", addr, acct.Wallet)
		}
		if !who.Perms.Markup {
			return nil, forbidden("missing permission markup: the quote carries a markup")
		}
	} else if req.TicketMarkupInput != nil {
		return nil, badRequest(CodeUnexpectedBlock, "ticketMarkupInput: the quote has no markup; remove the block")
	}
	// INTERNAL input is debited at creation.
	if q.InputPaymentMethod == "INTERNAL" {
		bal := acct.balances[q.InputCurrency]
		if bal.LessThan(q.InputAmount) {
			return nil, badRequest(CodeInsufficient, "inputAmount: %s %s needed, the %s balance is %s", q.InputAmount, q.InputCurrency, q.InputCurrency, bal)
		}
	}
	return p, nil
}

func (e *Engine) planInput(p *ticketPlan) error {
	q, req := p.q, p.req
	switch {
	case q.InputPaymentMethod == "PIX":
		if req.TicketBlockchainInput != nil {
			return badRequest(CodeUnexpectedBlock, "ticketBlockchainInput: the quote's input is BRL via PIX; remove the block")
		}
		if req.TicketBrlPixInput != nil && validate.Chars(req.TicketBrlPixInput.AdditionalData) > 72 {
			return badRequest(CodeInvalidField, "ticketBrlPixInput.additionalData: at most 72 characters")
		}
	case money.IsChain(q.InputPaymentMethod):
		if req.TicketBrlPixInput != nil {
			return badRequest(CodeUnexpectedBlock, "ticketBrlPixInput: the quote's input is %s on %s; remove the block", q.InputCurrency, q.InputPaymentMethod)
		}
		in := req.TicketBlockchainInput
		if in == nil {
			return badRequest(CodeMissingField, "ticketBlockchainInput: required, the quote's input is %s on %s", q.InputCurrency, q.InputPaymentMethod)
		}
		if strings.TrimSpace(in.WalletAddress) == "" {
			return badRequest(CodeMissingField, "ticketBlockchainInput.walletAddress: required (the sending wallet)")
		}
		addr, _, err := validate.EVMAddress(in.WalletAddress)
		if err != nil {
			return badRequest(CodeInvalidField, "ticketBlockchainInput.walletAddress: %v", err)
		}
		p.fromWallet = addr
		service := e.st.isServiceWallet(addr)
		signed := in.Permit != nil || in.Personal != nil
		switch {
		case service && signed:
			return badRequest(CodeUnexpectedBlock, "ticketBlockchainInput: %s is a service wallet; omit permit and personal", addr)
		case q.SendMethod == records.SendTransfer && signed:
			return badRequest(CodeUnexpectedBlock, "ticketBlockchainInput: the quote's send method is TRANSFER; omit permit and personal and transfer the tokens to %s", p.acct.Wallet)
		case q.SendMethod == records.SendPermit && !service && !signed:
			return badRequest(CodeMissingField, "ticketBlockchainInput.permit: required for send method PERMIT (or ticketBlockchainInput.personal)")
		}
		if pm := in.Permit; pm != nil {
			if !isHexString(pm.R, 64) {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.permit.r: must be 0x and 64 hex digits")
			}
			if !isHexString(pm.S, 64) {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.permit.s: must be 0x and 64 hex digits")
			}
			if pm.V != 27 && pm.V != 28 && pm.V != 0 && pm.V != 1 {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.permit.v: must be 27 or 28 (or 0 or 1), got %d", pm.V)
			}
			if pm.Nonce < 0 {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.permit.nonce: must not be negative")
			}
			if pm.Deadline <= p.now().Unix() {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.permit.deadline: %d is in the past (Unix seconds)", pm.Deadline)
			}
		}
		if ps := in.Personal; ps != nil {
			if !isHexString(ps.Signature, 130) {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.personal.signature: must be 0x and 130 hex digits")
			}
			if ps.Deadline <= p.now().Unix() {
				return badRequest(CodeInvalidField, "ticketBlockchainInput.personal.deadline: %d is in the past (Unix seconds)", ps.Deadline)
			}
		}
	default: // INTERNAL
		if req.TicketBrlPixInput != nil {
			return badRequest(CodeUnexpectedBlock, "ticketBrlPixInput: the quote's input is the %s balance; remove the block", q.InputCurrency)
		}
		if req.TicketBlockchainInput != nil {
			return badRequest(CodeUnexpectedBlock, "ticketBlockchainInput: the quote's input is the %s balance; remove the block", q.InputCurrency)
		}
	}
	return nil
}

// planNow is the time a plan is checked at (set by the caller).
func (p *ticketPlan) now() time.Time { return p.nowAt }
