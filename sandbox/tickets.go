package sandbox

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Ticket lifetimes and the sandbox's lifecycle delays (before --speed).
const (
	conversionTTL     = 5 * time.Minute
	plainTTL          = 24 * time.Hour
	autoFundPIXLimit  = 1000 // BRL; larger PIX inputs wait for the fund endpoint
	pixFundDelay      = 3 * time.Second
	chainFundDelay    = 4 * time.Second
	deliveryDelay     = 2 * time.Second
	maxExternalIDLen  = 128
	minCustomDuration = 300
)

const codeUnknownBeneficiary = "UNKNOWN_BENEFICIARY"

// ticketRequest is the create-ticket body. Ids are strings here so that a
// malformed one is reported with its field name.
type ticketRequest struct {
	QuoteToken             string            `json:"quoteToken"`
	ExternalID             string            `json:"externalId,omitempty"`
	CustomDuration         *int64            `json:"customDuration,omitempty"`
	TicketBrlPixInput      *pixInputBlock    `json:"ticketBrlPixInput,omitempty"`
	TicketBlockchainInput  *chainInputBlock  `json:"ticketBlockchainInput,omitempty"`
	TicketBrlPixOutput     *pixOutputBlock   `json:"ticketBrlPixOutput,omitempty"`
	TicketBlockchainOutput *chainOutputBlock `json:"ticketBlockchainOutput,omitempty"`
	TicketUsdOutput        *usdOutputBlock   `json:"ticketUsdOutput,omitempty"`
	TicketUsdWireOutput    *wireOutputBlock  `json:"ticketUsdWireOutput,omitempty"`
	TicketEurSepaOutput    *sepaOutputBlock  `json:"ticketEurSepaOutput,omitempty"`
	TicketArsOutput        *arsOutputBlock   `json:"ticketArsOutput,omitempty"`
	TicketCopOutput        *copOutputBlock   `json:"ticketCopOutput,omitempty"`
	TicketMarkupInput      *markupBlock      `json:"ticketMarkupInput,omitempty"`
}

type pixInputBlock struct {
	RemitterID     string `json:"remitterId,omitempty"`
	AdditionalData string `json:"additionalData,omitempty"`
}

type chainInputBlock struct {
	WalletAddress string             `json:"walletAddress"`
	Permit        *Permit            `json:"permit,omitempty"`
	Personal      *PersonalSignature `json:"personal,omitempty"`
}

// pixOutputBlock holds every variant of ticketBrlPixOutput (§7.1); which
// one was sent is decided in planPixOutput.
type pixOutputBlock struct {
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
type chainOutputBlock struct {
	BeneficiaryWalletID string `json:"beneficiaryWalletId,omitempty"`
	WalletChain         string `json:"walletChain,omitempty"`
	WalletAddress       string `json:"walletAddress,omitempty"`
	WalletMemo          string `json:"walletMemo,omitempty"`
}

type usdOutputBlock struct {
	BeneficiaryUsdBankAccountID string `json:"beneficiaryUsdBankAccountId"`
	AchReference                string `json:"achReference,omitempty"`
}

type wireOutputBlock struct {
	BeneficiaryUsdBankAccountID string `json:"beneficiaryUsdBankAccountId"`
	WireMessage                 string `json:"wireMessage,omitempty"`
}

type sepaOutputBlock struct {
	BeneficiaryEurBankAccountID string `json:"beneficiaryEurBankAccountId"`
	SepaReference               string `json:"sepaReference,omitempty"`
}

type arsOutputBlock struct {
	BeneficiaryArsBankAccountID string `json:"beneficiaryArsBankAccountId"`
}

type copOutputBlock struct {
	BeneficiaryCopBankAccountID string `json:"beneficiaryCopBankAccountId"`
}

type markupBlock struct {
	MarkupWalletAddress string `json:"markupWalletAddress"`
}

// ticketPlan is a create-ticket request checked against its quote and the
// account: everything needed to make the ticket.
type ticketPlan struct {
	q       *quoteClaims
	req     *ticketRequest
	acct    *account
	who     *access
	ttl     time.Duration
	outKind string // brl, wallet, own, usd, cop, internal, and the inline pix, inline
	outID   uuid.UUID
	brl     *BRLAccount
	wallet  *Wallet
	// pixTo is the receiver of an inline PIX output (key, BR Code or bank
	// fields); chainTo the receiver of an inline wallet.
	pixTo      *BrazilianFiatReceiverInfo
	chainTo    *BlockchainReceiverInfo
	reference  string // achReference, wireMessage or sepaReference
	eurTo      *EuropeanFiatInfo
	arsTo      *ArgentineFiatReceiverInfo
	usd        *USDAccount
	cop        *COPAccount
	fromWallet string // blockchain input wallet (checksummed)
	nowAt      time.Time
}

func bodyUUID(field, raw string) (uuid.UUID, error) {
	if strings.TrimSpace(raw) == "" {
		return uuid.Nil, badRequest(codeMissingField, "%s: required", field)
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, badRequest(codeInvalidField, "%s: %q is not a UUID", field, truncate(raw, 40))
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
// The caller holds s.mu. checkExpiry is false when an approved operation
// executes (its quote is honoured while the operation is pending).
func (s *Server) planTicket(acct *account, who *access, req *ticketRequest, now time.Time, checkExpiry bool, q *quoteClaims) (*ticketPlan, error) {
	if q.AccountID != acct.ID {
		want := q.SubAccountID
		if want == "" {
			want = "none (the main account)"
		}
		return nil, badRequest(codeSubAccountMismatch, "subAccountId: the quote was made for subAccountId %s; create the ticket with the same subAccountId", want)
	}
	if checkExpiry && !now.Before(q.expiry()) {
		return nil, badRequest(codeQuoteExpired, "quoteToken: the quote expired at %s (quotes live 15 s); request a new quote", q.expiry().Format(time.RFC3339))
	}
	p := &ticketPlan{q: q, req: req, acct: acct, who: who, nowAt: now}
	if len(req.ExternalID) > maxExternalIDLen {
		return nil, badRequest(codeInvalidField, "externalId: at most %d characters", maxExternalIDLen)
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
			return nil, badRequest(codeInvalidField, "customDuration: must be between %d and %d seconds for this ticket, got %d", minCustomDuration, maxD, d)
		}
		p.ttl = time.Duration(d) * time.Second
	}

	if err := s.planInput(p); err != nil {
		return nil, err
	}
	if err := s.planOutput(p); err != nil {
		return nil, err
	}
	if err := s.checkFlags(p); err != nil {
		return nil, err
	}
	// Markup (seed rule 6 and §6).
	if q.MarkupAmount.IsPositive() {
		if req.TicketMarkupInput == nil || strings.TrimSpace(req.TicketMarkupInput.MarkupWalletAddress) == "" {
			return nil, badRequest(codeMissingField, "ticketMarkupInput.markupWalletAddress: required, the quote has a markup of %s %s", q.MarkupAmount, q.MarkupCurrency)
		}
		addr := req.TicketMarkupInput.MarkupWalletAddress
		if _, _, err := validate.EVMAddress(addr); err != nil {
			return nil, badRequest(codeInvalidField, "ticketMarkupInput.markupWalletAddress: %v", err)
		}
		if !s.st.isServiceWallet(addr) {
			return nil, badRequest(codeInvalidField, "ticketMarkupInput.markupWalletAddress: %s is not a service wallet of this account (use %s)", addr, acct.Wallet)
		}
		if !who.Perms.Markup {
			return nil, forbidden("missing permission markup: the quote carries a markup")
		}
	} else if req.TicketMarkupInput != nil {
		return nil, badRequest(codeUnexpectedBlock, "ticketMarkupInput: the quote has no markup; remove the block")
	}
	// INTERNAL input is debited at creation.
	if q.InputPaymentMethod == "INTERNAL" {
		bal := acct.balances[q.InputCurrency]
		if bal.LessThan(q.InputAmount) {
			return nil, badRequest(codeInsufficient, "inputAmount: %s %s needed, the %s balance is %s", q.InputAmount, q.InputCurrency, q.InputCurrency, bal)
		}
	}
	return p, nil
}

func (s *Server) planInput(p *ticketPlan) error {
	q, req := p.q, p.req
	switch {
	case q.InputPaymentMethod == "PIX":
		if req.TicketBlockchainInput != nil {
			return badRequest(codeUnexpectedBlock, "ticketBlockchainInput: the quote's input is BRL via PIX; remove the block")
		}
		if req.TicketBrlPixInput != nil && len(req.TicketBrlPixInput.AdditionalData) > 72 {
			return badRequest(codeInvalidField, "ticketBrlPixInput.additionalData: at most 72 characters")
		}
	case money.IsChain(q.InputPaymentMethod):
		if req.TicketBrlPixInput != nil {
			return badRequest(codeUnexpectedBlock, "ticketBrlPixInput: the quote's input is %s on %s; remove the block", q.InputCurrency, q.InputPaymentMethod)
		}
		in := req.TicketBlockchainInput
		if in == nil {
			return badRequest(codeMissingField, "ticketBlockchainInput: required, the quote's input is %s on %s", q.InputCurrency, q.InputPaymentMethod)
		}
		if strings.TrimSpace(in.WalletAddress) == "" {
			return badRequest(codeMissingField, "ticketBlockchainInput.walletAddress: required (the sending wallet)")
		}
		addr, _, err := validate.EVMAddress(in.WalletAddress)
		if err != nil {
			return badRequest(codeInvalidField, "ticketBlockchainInput.walletAddress: %v", err)
		}
		p.fromWallet = addr
		service := s.st.isServiceWallet(addr)
		signed := in.Permit != nil || in.Personal != nil
		switch {
		case service && signed:
			return badRequest(codeUnexpectedBlock, "ticketBlockchainInput: %s is a service wallet; omit permit and personal", addr)
		case q.SendMethod == SendTransfer && signed:
			return badRequest(codeUnexpectedBlock, "ticketBlockchainInput: the quote's send method is TRANSFER; omit permit and personal and transfer the tokens to %s", p.acct.Wallet)
		case q.SendMethod == SendPermit && !service && !signed:
			return badRequest(codeMissingField, "ticketBlockchainInput.permit: required for send method PERMIT (or ticketBlockchainInput.personal)")
		}
		if pm := in.Permit; pm != nil {
			if !isHexString(pm.R, 64) {
				return badRequest(codeInvalidField, "ticketBlockchainInput.permit.r: must be 0x and 64 hex digits")
			}
			if !isHexString(pm.S, 64) {
				return badRequest(codeInvalidField, "ticketBlockchainInput.permit.s: must be 0x and 64 hex digits")
			}
			if pm.V != 27 && pm.V != 28 && pm.V != 0 && pm.V != 1 {
				return badRequest(codeInvalidField, "ticketBlockchainInput.permit.v: must be 27 or 28 (or 0 or 1), got %d", pm.V)
			}
			if pm.Nonce < 0 {
				return badRequest(codeInvalidField, "ticketBlockchainInput.permit.nonce: must not be negative")
			}
			if pm.Deadline <= p.now().Unix() {
				return badRequest(codeInvalidField, "ticketBlockchainInput.permit.deadline: %d is in the past (Unix seconds)", pm.Deadline)
			}
		}
		if ps := in.Personal; ps != nil {
			if !isHexString(ps.Signature, 130) {
				return badRequest(codeInvalidField, "ticketBlockchainInput.personal.signature: must be 0x and 130 hex digits")
			}
			if ps.Deadline <= p.now().Unix() {
				return badRequest(codeInvalidField, "ticketBlockchainInput.personal.deadline: %d is in the past (Unix seconds)", ps.Deadline)
			}
		}
	default: // INTERNAL
		if req.TicketBrlPixInput != nil {
			return badRequest(codeUnexpectedBlock, "ticketBrlPixInput: the quote's input is the %s balance; remove the block", q.InputCurrency)
		}
		if req.TicketBlockchainInput != nil {
			return badRequest(codeUnexpectedBlock, "ticketBlockchainInput: the quote's input is the %s balance; remove the block", q.InputCurrency)
		}
	}
	return nil
}

// planNow is the time a plan is checked at (set by the caller).
func (p *ticketPlan) now() time.Time { return p.nowAt }
