package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Time is a timestamp as the service sends it: ISO 8601 / RFC 3339 with
// optional fractional seconds. An empty string or null decodes to the zero
// time (the seed leaves many timestamps empty until they happen, such as
// settledAt or frozenUntil), and the zero time encodes as an empty string.
type Time struct{ time.Time }

// layouts are tried in order; the service is documented as ISO 8601 UTC.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02"}

// UnmarshalJSON accepts a string timestamp, an empty string or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	if s == "" {
		t.Time = time.Time{}
		return nil
	}
	for _, l := range timeLayouts {
		if v, err := time.Parse(l, s); err == nil {
			t.Time = v
			return nil
		}
	}
	return fmt.Errorf("timestamp %q is not ISO 8601", s)
}

// MarshalJSON writes RFC 3339 with fractional seconds in UTC, or "" when zero.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte(`""`), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339Nano))
}

// NewTime wraps a time.Time.
func NewTime(t time.Time) Time { return Time{t} }

// TicketStatus is a ticket's state. Values the project knows are the
// constants below; any other value the service sends is kept as it came.
type TicketStatus string

// Ticket states as the live service names them (spec/service.md §7.2).
const (
	// TicketUnpaid waits for its input to be paid.
	TicketUnpaid TicketStatus = "UNPAID"
	// TicketPending is funded but queued (a fiat rail outside business
	// hours, or behind the account's queue).
	TicketPending TicketStatus = "PENDING"
	// TicketOnHold is funded and held for review.
	TicketOnHold     TicketStatus = "ON-HOLD"
	TicketProcessing TicketStatus = "PROCESSING"
	TicketPaid       TicketStatus = "PAID"
	TicketFailed     TicketStatus = "FAILED"
	// TicketPartialFailed: part of a split delivery failed.
	TicketPartialFailed TicketStatus = "PARTIAL-FAILED"
	// TicketCanceled was cancelled while unpaid, by the caller or because
	// it expired unfunded (Reason says which).
	TicketCanceled TicketStatus = "CANCELED"
)

// TicketStatuses lists the known states in lifecycle order.
var TicketStatuses = []TicketStatus{TicketUnpaid, TicketPending, TicketOnHold, TicketProcessing, TicketPaid, TicketFailed, TicketPartialFailed, TicketCanceled}

// Final reports whether no further transition is expected. A value the
// project does not know is not final: polling goes on rather than stopping
// on a state that may still move money.
func (s TicketStatus) Final() bool {
	switch s {
	case TicketPaid, TicketFailed, TicketPartialFailed, TicketCanceled:
		return true
	}
	return false
}

// OperationStatus is a multi-signature operation's state.
type OperationStatus string

// Multi-signature operation states (spec/service.md §5).
const (
	OperationPending  OperationStatus = "PENDING"
	OperationExecuted OperationStatus = "EXECUTED"
	OperationRejected OperationStatus = "REJECTED"
	OperationExpired  OperationStatus = "EXPIRED"
	OperationFailed   OperationStatus = "FAILED"
)

// TradeStatus is an end-of-day trade's state.
type TradeStatus string

// EoD trade states (spec/service.md §5).
const (
	TradePending   TradeStatus = "PENDING"
	TradeSettled   TradeStatus = "SETTLED"
	TradeCancelled TradeStatus = "CANCELLED"
)

// Send methods for blockchain inputs.
const (
	SendPermit   = "PERMIT"
	SendTransfer = "TRANSFER"
)

// Fee is one applied fee. Rebatable is only present on fees inside a ticket.
type Fee struct {
	Type        string          `json:"type"`
	Description string          `json:"description,omitempty"`
	Amount      decimal.Decimal `json:"amount"`
	Currency    string          `json:"currency"`
	Rebatable   *bool           `json:"rebatable,omitempty"`
}

// Quote is the response of GET /v2/account/quote/fixed-rate.
type Quote struct {
	QuoteToken           string          `json:"quoteToken"`
	InputCurrency        string          `json:"inputCurrency"`
	InputPaymentMethod   string          `json:"inputPaymentMethod"`
	InputAmount          decimal.Decimal `json:"inputAmount"`
	OutputCurrency       string          `json:"outputCurrency"`
	OutputPaymentMethod  string          `json:"outputPaymentMethod"`
	OutputAmount         decimal.Decimal `json:"outputAmount"`
	MarkupAmount         OptionalDecimal `json:"markupAmount"`
	MarkupCurrency       string          `json:"markupCurrency"`
	InputThirdParty      bool            `json:"inputThirdParty"`
	OutputThirdParty     bool            `json:"outputThirdParty"`
	AppliedFees          []Fee           `json:"appliedFees"`
	BasePrice            decimal.Decimal `json:"basePrice"`
	PairName             string          `json:"pairName"`
	BlockchainSendMethod string          `json:"blockchainSendMethod,omitempty"`
	OutputBrCode         string          `json:"outputBrCode,omitempty"`
	TicketRefundID       string          `json:"ticketRefundId,omitempty"`
}

// TicketQuote is the quote as embedded in a ticket.
type TicketQuote struct {
	ID                  uuid.UUID       `json:"id"`
	TicketID            uuid.UUID       `json:"ticketId"`
	InputCurrency       string          `json:"inputCurrency"`
	InputPaymentMethod  string          `json:"inputPaymentMethod"`
	InputAmount         decimal.Decimal `json:"inputAmount"`
	OutputCurrency      string          `json:"outputCurrency"`
	OutputPaymentMethod string          `json:"outputPaymentMethod"`
	OutputAmount        decimal.Decimal `json:"outputAmount"`
	MarkupCurrency      string          `json:"markupCurrency"`
	MarkupAmount        OptionalDecimal `json:"markupAmount"`
	SendMethod          string          `json:"sendMethod"`
	InputThirdParty     bool            `json:"inputThirdParty"`
	OutputThirdParty    bool            `json:"outputThirdParty"`
	BasePrice           decimal.Decimal `json:"basePrice"`
	PairName            string          `json:"pairName"`
	OutputBrCode        string          `json:"outputBrCode"`
	TicketRefundID      string          `json:"ticketRefundId"`
	CreatedAt           Time            `json:"createdAt"`
	AppliedFees         []Fee           `json:"appliedFees"`
}

// Rebate is present on a ticket when a rebate exists.
type Rebate struct {
	ID                       uuid.UUID       `json:"id"`
	TicketID                 uuid.UUID       `json:"ticketId"`
	Amount                   decimal.Decimal `json:"amount"`
	Currency                 string          `json:"currency"`
	DestinationWalletAddress string          `json:"destinationWalletAddress"`
}

// BrazilianFiatSenderInfo is the PIX payer.
type BrazilianFiatSenderInfo struct {
	ID             string `json:"id,omitempty"`
	TicketID       string `json:"ticketId,omitempty"`
	ReferenceLabel string `json:"referenceLabel"`
	AdditionalData string `json:"additionalData"`
	Name           string `json:"name"`
	TaxID          string `json:"taxId"`
	BankCode       string `json:"bankCode"`
	BranchCode     string `json:"branchCode"`
	AccountNumber  string `json:"accountNumber"`
	AccountType    string `json:"accountType"`
	EndToEndID     string `json:"endToEndId"`
	BrCode         string `json:"brCode"`
}

// BrazilianFiatReceiverInfo is the PIX receiver.
type BrazilianFiatReceiverInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	PixMessage    string `json:"pixMessage"`
	PixKey        string `json:"pixKey"`
	TaxID         string `json:"taxId"`
	UserName      string `json:"userName"`
	BankCode      string `json:"bankCode"`
	BranchCode    string `json:"branchCode"`
	AccountNumber string `json:"accountNumber"`
	AccountType   string `json:"accountType"`
	BrCode        string `json:"brCode"`
	EndToEndID    string `json:"endToEndId"`
}

// BrlPixInputInfo carries the BR Code to pay for a PIX input.
type BrlPixInputInfo struct {
	ID             string `json:"id"`
	TicketID       string `json:"ticketId"`
	ReferenceLabel string `json:"referenceLabel"`
	AdditionalData string `json:"additionalData"`
	BrCode         string `json:"brCode"`
}

// BlockchainSenderInfo is the on-chain payer.
type BlockchainSenderInfo struct {
	ID                       string `json:"id,omitempty"`
	TicketID                 string `json:"ticketId,omitempty"`
	WalletAddress            string `json:"walletAddress"`
	TxHash                   string `json:"txHash"`
	DisposableDepositAddress string `json:"disposableDepositAddress"`
}

// BlockchainReceiverInfo is the on-chain receiver.
type BlockchainReceiverInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	WalletAddress string `json:"walletAddress"`
	WalletChain   string `json:"walletChain"`
	WalletMemo    string `json:"walletMemo"`
	TxHash        string `json:"txHash"`
}

// AmericanFiatInfo is a US bank party (sender or receiver).
type AmericanFiatInfo struct {
	ID                string `json:"id,omitempty"`
	TicketID          string `json:"ticketId,omitempty"`
	AccountHolderName string `json:"accountHolderName"`
	BankAccountNumber string `json:"bankAccountNumber"`
	BankRoutingNumber string `json:"bankRoutingNumber"`
	AccountType       string `json:"accountType"`
	BankName          string `json:"bankName"`
	BankAddress       string `json:"bankAddress"`
	DepositMessage    string `json:"depositMessage"`
	PaymentRail       string `json:"paymentRail"`
}

// EuropeanFiatInfo is a European bank party (sender or receiver).
type EuropeanFiatInfo struct {
	ID                  string          `json:"id,omitempty"`
	TicketID            string          `json:"ticketId,omitempty"`
	BankBeneficiaryName string          `json:"bankBeneficiaryName"`
	IBAN                string          `json:"iban"`
	BIC                 string          `json:"bic"`
	BankName            string          `json:"bankName"`
	DepositMessage      string          `json:"depositMessage"`
	PaymentRail         string          `json:"paymentRail"`
	Currency            string          `json:"currency"`
	Amount              decimal.Decimal `json:"amount"`
}

// ArgentineFiatSenderInfo is the Argentine payer.
type ArgentineFiatSenderInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	CVU           string `json:"cvu"`
	CUIT          string `json:"cuit"`
	Name          string `json:"name"`
	TransactionID string `json:"transactionId"`
}

// ArgentineFiatReceiverInfo is the Argentine receiver.
type ArgentineFiatReceiverInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	CVU           string `json:"cvu"`
	CUIT          string `json:"cuit"`
	AccountHolder string `json:"accountHolder"`
	TransactionID string `json:"transactionId"`
}

// MarkupInfo records where a markup was paid.
type MarkupInfo struct {
	ID                  string `json:"id,omitempty"`
	TicketID            string `json:"ticketId,omitempty"`
	MarkupWalletAddress string `json:"markupWalletAddress"`
	TxHash              string `json:"txHash"`
}

// Ticket is a conversion or payment order.
type Ticket struct {
	ID                        uuid.UUID                  `json:"id"`
	ExternalID                string                     `json:"externalId"`
	WorkspaceID               uuid.UUID                  `json:"workspaceId"`
	UserID                    uuid.UUID                  `json:"userId"`
	Status                    TicketStatus               `json:"status"`
	Reason                    string                     `json:"reason"`
	FailureReason             string                     `json:"failureReason"`
	CreatedAt                 Time                       `json:"createdAt"`
	UpdatedAt                 Time                       `json:"updatedAt"`
	ExpiresAt                 Time                       `json:"expiresAt"`
	Quote                     TicketQuote                `json:"quote"`
	Rebate                    *Rebate                    `json:"rebate,omitempty"`
	BrazilianFiatSenderInfo   *BrazilianFiatSenderInfo   `json:"brazilianFiatSenderInfo,omitempty"`
	BrazilianFiatReceiverInfo *BrazilianFiatReceiverInfo `json:"brazilianFiatReceiverInfo,omitempty"`
	BlockchainSenderInfo      *BlockchainSenderInfo      `json:"blockchainSenderInfo,omitempty"`
	BlockchainReceiverInfo    *BlockchainReceiverInfo    `json:"blockchainReceiverInfo,omitempty"`
	AmericanFiatSenderInfo    *AmericanFiatInfo          `json:"americanFiatSenderInfo,omitempty"`
	AmericanFiatReceiverInfo  *AmericanFiatInfo          `json:"americanFiatReceiverInfo,omitempty"`
	EuropeanFiatSenderInfo    *EuropeanFiatInfo          `json:"europeanFiatSenderInfo,omitempty"`
	EuropeanFiatReceiverInfo  *EuropeanFiatInfo          `json:"europeanFiatReceiverInfo,omitempty"`
	ArgentineFiatSenderInfo   *ArgentineFiatSenderInfo   `json:"argentineFiatSenderInfo,omitempty"`
	ArgentineFiatReceiverInfo *ArgentineFiatReceiverInfo `json:"argentineFiatReceiverInfo,omitempty"`
	MarkupInfo                *MarkupInfo                `json:"markupInfo,omitempty"`
	BrlPixInputInfo           *BrlPixInputInfo           `json:"brlPixInputInfo,omitempty"`
	BlockchainInputInfo       *BlockchainInputInfo       `json:"blockchainInputInfo,omitempty"`
	// RefundableParameter is kept as the service sends it (its shape is
	// not documented); the sandbox names the refunded ticket there.
	RefundableParameter json.RawMessage `json:"RefundableParameter,omitempty"`
}

// BlockchainInputInfo records the signature a PERMIT input came with.
type BlockchainInputInfo struct {
	ID                        string `json:"id"`
	TicketID                  string `json:"ticketId"`
	R                         string `json:"r,omitempty"`
	S                         string `json:"s,omitempty"`
	V                         int    `json:"v,omitempty"`
	Nonce                     int64  `json:"nonce,omitempty"`
	Deadline                  int64  `json:"deadline,omitempty"`
	PersonalSignature         string `json:"personalSignature,omitempty"`
	PersonalSignatureDeadline int64  `json:"personalSignatureDeadline,omitempty"`
}

// BrCode returns the BR Code the payer must pay for a PIX input, if any.
func (t *Ticket) BrCode() string {
	if t.BrlPixInputInfo != nil && t.BrlPixInputInfo.BrCode != "" {
		return t.BrlPixInputInfo.BrCode
	}
	if t.BrazilianFiatSenderInfo != nil {
		return t.BrazilianFiatSenderInfo.BrCode
	}
	return ""
}

// Permit is an EIP-2612 permit signature for a blockchain PERMIT input.
type Permit struct {
	R        string `json:"r"`
	S        string `json:"s"`
	V        int    `json:"v"`
	Nonce    int64  `json:"nonce"`
	Deadline int64  `json:"deadline"`
}

// PersonalSignature is the alternative to Permit for a PERMIT input.
type PersonalSignature struct {
	Signature string `json:"signature"`
	Deadline  int64  `json:"deadline"`
}

// TicketBrlPixInput is the block for BRL input via PIX.
type TicketBrlPixInput struct {
	RemitterID     string `json:"remitterId,omitempty"`
	AdditionalData string `json:"additionalData,omitempty"`
}

// TicketBlockchainInput is the block for a blockchain input.
type TicketBlockchainInput struct {
	WalletAddress string             `json:"walletAddress"`
	Permit        *Permit            `json:"permit,omitempty"`
	Personal      *PersonalSignature `json:"personal,omitempty"`
}

// TicketBrlPixOutput is the block for BRL output via PIX. Exactly one
// variant is filled: a registered beneficiary, a PIX key, a BR Code to pay
// (the quote was asked with OutputBrCode), or the bank fields.
type TicketBrlPixOutput struct {
	BeneficiaryBrlBankAccountID *uuid.UUID `json:"beneficiaryBrlBankAccountId,omitempty"`
	PixKey                      string     `json:"pixKey,omitempty"`
	BrCode                      string     `json:"brCode,omitempty"`
	TaxID                       string     `json:"taxId,omitempty"`
	UserName                    string     `json:"userName,omitempty"`
	BankCode                    string     `json:"bankCode,omitempty"`
	BranchCode                  string     `json:"branchCode,omitempty"`
	AccountNumber               string     `json:"accountNumber,omitempty"`
	AccountType                 string     `json:"accountType,omitempty"`
	PixMessage                  string     `json:"pixMessage,omitempty"`
}

// PixToBeneficiary pays a registered BRL beneficiary.
func PixToBeneficiary(id uuid.UUID, message string) *TicketBrlPixOutput {
	return &TicketBrlPixOutput{BeneficiaryBrlBankAccountID: &id, PixMessage: message}
}

// TicketBlockchainOutput is the block for a blockchain output: a registered
// wallet by id, or an inline wallet (WalletChain and WalletAddress). The
// nil UUID as id means the operating account's own service wallet.
type TicketBlockchainOutput struct {
	BeneficiaryWalletID *uuid.UUID `json:"beneficiaryWalletId,omitempty"`
	WalletChain         string     `json:"walletChain,omitempty"`
	WalletAddress       string     `json:"walletAddress,omitempty"`
	WalletMemo          string     `json:"walletMemo,omitempty"`
}

// ToWallet pays a registered beneficiary wallet (uuid.Nil: the operating
// account's own wallet).
func ToWallet(id uuid.UUID) *TicketBlockchainOutput {
	return &TicketBlockchainOutput{BeneficiaryWalletID: &id}
}

// TicketUsdOutput is the block for a USD ACH output.
type TicketUsdOutput struct {
	BeneficiaryUsdBankAccountID uuid.UUID `json:"beneficiaryUsdBankAccountId"`
	AchReference                string    `json:"achReference,omitempty"`
}

// TicketUsdWireOutput is the block for a USD WIRE output.
type TicketUsdWireOutput struct {
	BeneficiaryUsdBankAccountID uuid.UUID `json:"beneficiaryUsdBankAccountId"`
	WireMessage                 string    `json:"wireMessage,omitempty"`
}

// SetUSDOutput fills the USD block the rail asks for: ticketUsdOutput
// (achReference) for ACH, ticketUsdWireOutput (wireMessage) for WIRE.
func (r *CreateTicketRequest) SetUSDOutput(rail string, id uuid.UUID, reference string) {
	r.TicketUsdOutput, r.TicketUsdWireOutput = nil, nil
	if rail == "WIRE" {
		r.TicketUsdWireOutput = &TicketUsdWireOutput{BeneficiaryUsdBankAccountID: id, WireMessage: reference}
		return
	}
	r.TicketUsdOutput = &TicketUsdOutput{BeneficiaryUsdBankAccountID: id, AchReference: reference}
}

// TicketEurSepaOutput is the block for a EUR SEPA output.
type TicketEurSepaOutput struct {
	BeneficiaryEurBankAccountID uuid.UUID `json:"beneficiaryEurBankAccountId"`
	SepaReference               string    `json:"sepaReference,omitempty"`
}

// TicketArsOutput is the block for an ARS CVU output [decided].
type TicketArsOutput struct {
	BeneficiaryArsBankAccountID uuid.UUID `json:"beneficiaryArsBankAccountId"`
}

// TicketCopOutput is the block for a COP bank output [decided].
type TicketCopOutput struct {
	BeneficiaryCopBankAccountID uuid.UUID `json:"beneficiaryCopBankAccountId"`
}

// TicketMarkupInput names the service wallet that receives the markup.
type TicketMarkupInput struct {
	MarkupWalletAddress string `json:"markupWalletAddress"`
}

// CreateTicketRequest is the body of POST /v2/account/tickets/.
type CreateTicketRequest struct {
	QuoteToken             string                  `json:"quoteToken"`
	ExternalID             string                  `json:"externalId,omitempty"`
	CustomDuration         int                     `json:"customDuration,omitempty"`
	TicketBrlPixInput      *TicketBrlPixInput      `json:"ticketBrlPixInput,omitempty"`
	TicketBlockchainInput  *TicketBlockchainInput  `json:"ticketBlockchainInput,omitempty"`
	TicketBrlPixOutput     *TicketBrlPixOutput     `json:"ticketBrlPixOutput,omitempty"`
	TicketBlockchainOutput *TicketBlockchainOutput `json:"ticketBlockchainOutput,omitempty"`
	TicketUsdOutput        *TicketUsdOutput        `json:"ticketUsdOutput,omitempty"`
	TicketUsdWireOutput    *TicketUsdWireOutput    `json:"ticketUsdWireOutput,omitempty"`
	TicketEurSepaOutput    *TicketEurSepaOutput    `json:"ticketEurSepaOutput,omitempty"`
	TicketArsOutput        *TicketArsOutput        `json:"ticketArsOutput,omitempty"`
	TicketCopOutput        *TicketCopOutput        `json:"ticketCopOutput,omitempty"`
	TicketMarkupInput      *TicketMarkupInput      `json:"ticketMarkupInput,omitempty"`
}

// CreateTicketResult says what became of a ticket creation: a ticket (201),
// or an operation parked for multi-signature approval (202).
type CreateTicketResult struct {
	Ticket    *Ticket
	Operation *Operation
	// Parked is true for a 202: the ticket exists only once approvers approve.
	Parked bool
	// Reconciled is true when the outcome was found by looking the ticket up
	// by externalId after the create call failed in transit.
	Reconciled bool
}

// Permissions are an access's permission flags.
type Permissions struct {
	ID                          string `json:"id,omitempty"`
	UpdatedAt                   string `json:"updatedAt,omitempty"`
	Admin                       bool   `json:"admin"`
	PayIn                       bool   `json:"payIn"`
	PayOut                      bool   `json:"payOut"`
	Convert                     bool   `json:"convert"`
	OnChain                     bool   `json:"onChain"`
	ViewOnly                    bool   `json:"viewOnly"`
	Markup                      bool   `json:"markup"`
	Beneficiary                 bool   `json:"beneficiary"`
	EnforceAllowedBeneficiaries bool   `json:"enforceAllowedBeneficiaries"`
	OperationRequester          bool   `json:"operationRequester"`
	OperationApprover           bool   `json:"operationApprover"`
	// ManageWebhooks lets the access register, change and delete
	// webhooks [decided, issue 27].
	ManageWebhooks bool `json:"manageWebhooks"`
	// ManageAccesses lets the access invite, change and revoke accesses
	// and manage its API keys [decided, spec/service.md §8.8].
	ManageAccesses bool `json:"manageAccesses"`
}

// MFA is an access's second factor record.
type MFA struct {
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// Access is a sub-access (a login on the business account).
type Access struct {
	ID               string      `json:"id"`
	Email            string      `json:"email"`
	CreatedAt        string      `json:"createdAt"`
	UpdatedAt        string      `json:"updatedAt"`
	FrozenUntil      string      `json:"frozenUntil"`
	AccessPermission Permissions `json:"accessPermission"`
	MFA              *MFA        `json:"mfa,omitempty"`
}

// AccessInfo is the caller's own access.
type AccessInfo struct {
	Email                    string      `json:"email"`
	MFAActivated             bool        `json:"mfaActivated"`
	PricingSet               bool        `json:"pricingSet"`
	PasswordUpdatedAt        Time        `json:"passwordUpdatedAt"`
	FrozenUntil              Time        `json:"frozenUntil"`
	AccountPermissions       Permissions `json:"accountPermissions"`
	BlacklistedAccountIDs    []uuid.UUID `json:"blacklistedAccountIds"`
	IsMainAccountBlacklisted bool        `json:"isMainAccountBlacklisted"`
}

// Frozen reports whether the access is frozen at now.
func (a *AccessInfo) Frozen(now time.Time) bool {
	return !a.FrozenUntil.IsZero() && a.FrozenUntil.After(now)
}

// Account is one account the access may operate [decided shape of GET /v2/accounts].
type Account struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	AccountType   string    `json:"accountType"`
	MainAccountID string    `json:"mainAccountId"`
}

// AccountInfo is the identity block of a sub-account.
type AccountInfo struct {
	ID          uuid.UUID `json:"id"`
	AccountType string    `json:"accountType"`
	Name        string    `json:"name"`
	// The full form (account-info, a sub-account's detail) adds these.
	CountrySubdivisionTaxResidence string `json:"countrySubdivisionTaxResidence,omitempty"`
	CountryTaxResidence            string `json:"countryTaxResidence,omitempty"`
	IdentityStatus                 string `json:"identityStatus,omitempty"`
	FullName                       string `json:"fullName,omitempty"`
	Birthdate                      string `json:"birthdate,omitempty"`
	TaxID                          string `json:"taxId,omitempty"`
}

// SubAccount is one item of GET /v2/account/sub-accounts.
type SubAccount struct {
	SubAccountID  uuid.UUID   `json:"subAccountId"`
	MainAccountID uuid.UUID   `json:"mainAccountId"`
	CreatedAt     Time        `json:"createdAt"`
	AccountInfo   AccountInfo `json:"accountInfo"`
}

// CreateSubAccountRequest is the body of POST /v2/account/sub-accounts.
type CreateSubAccountRequest struct {
	AccountType string `json:"accountType"` // INDIVIDUAL or COMPANY
	Name        string `json:"name"`
}

// Balances maps a currency code to its balance.
type Balances map[string]decimal.Decimal

// Operation is a multi-signature operation. Approvers, DecodedQuote and
// Beneficiary are only filled by the detail endpoint.
type Operation struct {
	ID             uuid.UUID       `json:"id"`
	RequesterEmail string          `json:"requesterEmail"`
	OperationType  string          `json:"operationType"`
	Payload        json.RawMessage `json:"payload,omitempty"`
	Status         OperationStatus `json:"status"`
	Approvals      int32           `json:"approvals"`
	MinApprovals   int32           `json:"minApprovals"`
	CreatedAt      Time            `json:"createdAt"`
	SubAccountID   string          `json:"subAccountId"`
	SubAccountName string          `json:"subAccountName"`
	ExecutedID     string          `json:"executedId"`
	// Reason is the rejection reason [decided: the seed is silent].
	Reason string `json:"reason,omitempty"`
	// RejectedBy is the e-mail of the approver who rejected it [decided].
	RejectedBy   string          `json:"rejectedBy,omitempty"`
	Approvers    []Approver      `json:"approvers,omitempty"`
	DecodedQuote json.RawMessage `json:"decodedQuote,omitempty"`
	Beneficiary  json.RawMessage `json:"beneficiary,omitempty"`
}

// Approver is one approver's state on an operation.
type Approver struct {
	AccessID    uuid.UUID `json:"accessId"`
	Email       string    `json:"email"`
	HasApproved bool      `json:"hasApproved"`
}

// Address is a postal address on beneficiary records.
type Address struct {
	StreetLine1 string `json:"streetLine1,omitempty"`
	StreetLine2 string `json:"streetLine2,omitempty"`
	City        string `json:"city,omitempty"`
	State       string `json:"state,omitempty"`
	PostalCode  string `json:"postalCode,omitempty"`
	Country     string `json:"country,omitempty"`
	// The older spelling, still sent by live clients: the service
	// returns both filled (spec/service.md §7.4).
	StreetAddress string `json:"streetAddress,omitempty"`
	ZipCode       string `json:"zipCode,omitempty"`
}

// Wallet is a beneficiary wallet.
type Wallet struct {
	ID            uuid.UUID `json:"id"`
	Alias         string    `json:"alias"`
	Description   string    `json:"description"`
	WalletAddress string    `json:"walletAddress"`
	WalletChain   string    `json:"walletChain"`
	WalletMemo    string    `json:"walletMemo"`
	CreatedAt     Time      `json:"createdAt"`
}

// CreateWalletRequest is the body of POST /v2/account/beneficiaries/wallets/.
type CreateWalletRequest struct {
	Alias         string `json:"alias"`
	Description   string `json:"description,omitempty"`
	WalletAddress string `json:"walletAddress"`
	WalletChain   string `json:"walletChain"`
	WalletMemo    string `json:"walletMemo,omitempty"`
}

// BRLAccount is a BRL beneficiary: a PIX key or a bank account.
type BRLAccount struct {
	ID            uuid.UUID `json:"id"`
	Alias         string    `json:"alias"`
	Description   string    `json:"description"`
	PixKey        string    `json:"pixKey"`
	PixKeyType    string    `json:"pixKeyType"`
	TaxID         string    `json:"taxId"`
	UserName      string    `json:"userName"`
	BankCode      string    `json:"bankCode"`
	BranchCode    string    `json:"branchCode"`
	AccountNumber string    `json:"accountNumber"`
	AccountType   string    `json:"accountType"`
	CreatedAt     Time      `json:"createdAt"`
}

// CreateBRLAccountRequest registers a BRL beneficiary: either PixKey, or all
// of the bank fields.
type CreateBRLAccountRequest struct {
	Alias         string `json:"alias"`
	Description   string `json:"description,omitempty"`
	PixKey        string `json:"pixKey,omitempty"`
	TaxID         string `json:"taxId,omitempty"`
	UserName      string `json:"userName,omitempty"`
	BankCode      string `json:"bankCode,omitempty"`
	BranchCode    string `json:"branchCode,omitempty"`
	AccountNumber string `json:"accountNumber,omitempty"`
	AccountType   string `json:"accountType,omitempty"`
}

// USDAccount is a USD bank-account beneficiary.
type USDAccount struct {
	ID                     uuid.UUID `json:"id"`
	UserID                 uuid.UUID `json:"userId"`
	Alias                  string    `json:"alias"`
	Description            string    `json:"description"`
	BankAccountNumber      string    `json:"bankAccountNumber"`
	BankRoutingNumber      string    `json:"bankRoutingNumber"`
	BankBeneficiaryName    string    `json:"bankBeneficiaryName"`
	BankBeneficiaryAddress Address   `json:"bankBeneficiaryAddress"`
	BankName               string    `json:"bankName"`
	BankAddress            Address   `json:"bankAddress"`
	FirstName              string    `json:"firstName"`
	LastName               string    `json:"lastName"`
	CreatedAt              Time      `json:"createdAt"`
}

// CreateUSDAccountRequest is the body of POST .../bank-accounts/usd/.
type CreateUSDAccountRequest struct {
	Alias               string   `json:"alias"`
	Description         string   `json:"description,omitempty"`
	BankAccountNumber   string   `json:"bankAccountNumber"`
	BankRoutingNumber   string   `json:"bankRoutingNumber"`
	BankBeneficiaryName string   `json:"bankBeneficiaryName"`
	BankName            string   `json:"bankName,omitempty"`
	BeneficiaryAddress  *Address `json:"beneficiaryAddress,omitempty"`
	BankAddress         *Address `json:"bankAddress,omitempty"`
	FirstName           string   `json:"firstName,omitempty"`
	LastName            string   `json:"lastName,omitempty"`
}

// COPAddress is the address block of a COP beneficiary.
type COPAddress struct {
	StreetLine1 string `json:"streetLine1,omitempty"`
	City        string `json:"city,omitempty"`
	State       string `json:"state,omitempty"`
	Country     string `json:"country,omitempty"`
	ZipCode     string `json:"zipCode,omitempty"`
}

// COPAccount is a COP bank-account beneficiary [decided list shape].
type COPAccount struct {
	ID                 uuid.UUID   `json:"id"`
	Alias              string      `json:"alias"`
	BeneficiaryName    string      `json:"beneficiaryName"`
	Description        string      `json:"description"`
	BeneficiaryType    string      `json:"beneficiaryType"`
	BeneficiaryEmail   string      `json:"beneficiaryEmail"`
	BeneficiaryAddress *COPAddress `json:"beneficiaryAddress,omitempty"`
	PhoneNumber        string      `json:"phoneNumber"`
	AccountType        string      `json:"accountType"`
	BankAccountNumber  string      `json:"bankAccountNumber"`
	DocumentNumber     string      `json:"documentNumber"`
	DocumentType       string      `json:"documentType"`
	BankID             string      `json:"bankId"`
	BankName           string      `json:"bankName"`
	BreBKey            string      `json:"breBKey"`
	CreatedAt          Time        `json:"createdAt"`
}

// CreateCOPAccountRequest is the body of POST .../bank-accounts/cop/.
type CreateCOPAccountRequest struct {
	Alias              string      `json:"alias"`
	BeneficiaryName    string      `json:"beneficiaryName"`
	Description        string      `json:"description,omitempty"`
	BeneficiaryType    string      `json:"beneficiaryType,omitempty"`
	BeneficiaryEmail   string      `json:"beneficiaryEmail,omitempty"`
	BeneficiaryAddress *COPAddress `json:"beneficiaryAddress,omitempty"`
	PhoneNumber        string      `json:"phoneNumber,omitempty"`
	AccountType        string      `json:"accountType,omitempty"`
	BankAccountNumber  string      `json:"bankAccountNumber,omitempty"`
	DocumentNumber     string      `json:"documentNumber,omitempty"`
	DocumentType       string      `json:"documentType,omitempty"`
	BankID             string      `json:"bankId,omitempty"`
	BankName           string      `json:"bankName,omitempty"`
	BreBKey            string      `json:"breBKey,omitempty"`
}

// TradeFee is a fee on an EoD trade (no rebatable flag).
type TradeFee struct {
	Type        string          `json:"type"`
	Description string          `json:"description"`
	Amount      decimal.Decimal `json:"amount"`
	Currency    string          `json:"currency"`
}

// Trade is an end-of-day trade.
type Trade struct {
	ID                  uuid.UUID       `json:"id"`
	InputCurrency       string          `json:"inputCurrency"`
	InputPaymentMethod  string          `json:"inputPaymentMethod"`
	InputAmount         decimal.Decimal `json:"inputAmount"`
	OutputCurrency      string          `json:"outputCurrency"`
	OutputPaymentMethod string          `json:"outputPaymentMethod"`
	OutputAmount        decimal.Decimal `json:"outputAmount"`
	BasePrice           decimal.Decimal `json:"basePrice"`
	AppliedFees         []TradeFee      `json:"appliedFees"`
	QuoteTokenID        uuid.UUID       `json:"quoteTokenId"`
	SettlementTerms     string          `json:"settlementTerms"`
	SettlementDate      Time            `json:"settlementDate"`
	Status              TradeStatus     `json:"status"`
	SettledAt           Time            `json:"settledAt"`
	SettlementTicketID  *uuid.UUID      `json:"settlementTicketId,omitempty"`
	CreatedAt           Time            `json:"createdAt"`
}

// UBO is an ultimate beneficial owner record.
type UBO struct {
	ID                    uuid.UUID `json:"id"`
	FullName              string    `json:"fullName"`
	DateOfBirth           string    `json:"dateOfBirth"`
	CountryOfTaxID        string    `json:"countryOfTaxId"`
	TaxIDNumber           string    `json:"taxIdNumber"`
	HasControl            string    `json:"hasControl"`
	PercentageOfOwnership string    `json:"percentageOfOwnership"`
	CreatedAt             Time      `json:"createdAt"`
}

// CreateUBORequest is the body of POST /v2/account/ubos/.
type CreateUBORequest struct {
	FullName                 string     `json:"fullName"`
	DateOfBirth              string     `json:"dateOfBirth"`
	CountryOfTaxID           string     `json:"countryOfTaxId"`
	TaxIDNumber              string     `json:"taxIdNumber"`
	HasControl               string     `json:"hasControl"`
	PercentageOfOwnership    string     `json:"percentageOfOwnership,omitempty"`
	UploadedIdentificationID *uuid.UUID `json:"uploadedIdentificationId,omitempty"`
	DocumentCountry          string     `json:"documentCountry,omitempty"`
	StreetLine1              string     `json:"streetLine1,omitempty"`
	StreetLine2              string     `json:"streetLine2,omitempty"`
	StreetLine3              string     `json:"streetLine3,omitempty"`
	City                     string     `json:"city,omitempty"`
	ZipCode                  string     `json:"zipCode,omitempty"`
	State                    string     `json:"state,omitempty"`
	Country                  string     `json:"country,omitempty"`
}

// MailingAddress is the W-8BEN mailing address.
type MailingAddress struct {
	StreetAddress string `json:"streetAddress"`
	City          string `json:"city"`
	State         string `json:"state"`
	ZipCode       string `json:"zipCode"`
	Country       string `json:"country"`
}

// W8BENRequest is the body of POST /v2/kyc/w8ben/. Pointer fields are the
// seed's nullable optional fields: nil is sent as null.
type W8BENRequest struct {
	UseDigitalSignature          bool            `json:"useDigitalSignature"`
	ForeignTinNotLegallyRequired *bool           `json:"foreignTinNotLegallyRequired"`
	IsClaimingTaxTreatyBenefits  *bool           `json:"isClaimingTaxTreatyBenefits"`
	TreatyArticle                *string         `json:"treatyArticle"`
	TreatyIncomeType             *string         `json:"treatyIncomeType"`
	TreatyWithholdingRate        *string         `json:"treatyWithholdingRate"`
	TreatyExplanation            *string         `json:"treatyExplanation"`
	UsTin                        *string         `json:"usTin"`
	ReferenceNumber              *string         `json:"referenceNumber"`
	MailingAddress               *MailingAddress `json:"mailingAddress"`
}

// W8BEN is a submitted W-8BEN form.
type W8BEN struct {
	ID        uuid.UUID `json:"id"`
	W8BenURL  string    `json:"w8BenUrl"`
	CreatedAt Time      `json:"createdAt"`
}

// ProofOfAddressAttempt is one proof-of-address attempt.
type ProofOfAddressAttempt struct {
	ID            uuid.UUID `json:"id"`
	UploadedPoAID uuid.UUID `json:"uploadedPoAId"`
	Status        string    `json:"status"`
	Result        string    `json:"result"`
	ResultMessage string    `json:"resultMessage"`
	CreatedAt     Time      `json:"createdAt"`
	UpdatedAt     Time      `json:"updatedAt"`
}

// WebhookAttempt is one delivery attempt of a webhook event.
type WebhookAttempt struct {
	AccountID      string `json:"accountId"`
	Acknowledged   bool   `json:"acknowledged"`
	CreatedAt      string `json:"createdAt"`
	ID             string `json:"id"`
	ResponseStatus int    `json:"responseStatus"`
	UpdatedAt      string `json:"updatedAt"`
	WebhookEventID string `json:"webhookEventId"`
	WebhookURL     string `json:"webhookUrl"`
}

// Webhook is a registered webhook.
type Webhook struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	Subscriptions []string `json:"subscriptions"`
}

// RegisterWebhookRequest is the body of POST /v2/notifications/webhooks/.
type RegisterWebhookRequest struct {
	WebhookURL    string   `json:"webhookUrl"`
	Subscriptions []string `json:"subscriptions"`
}

// Tokens are the JWT pair returned by validate-login and refresh.
type Tokens struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
}

// Flag is the field of the permission flag named on the wire name
// ("payIn", "manageAccesses", ...), to read or set; nil for a name that is
// no flag. It is the one place a flag's name meets its field.
func (p *Permissions) Flag(name string) *bool {
	switch name {
	case "admin":
		return &p.Admin
	case "payIn":
		return &p.PayIn
	case "payOut":
		return &p.PayOut
	case "convert":
		return &p.Convert
	case "onChain":
		return &p.OnChain
	case "viewOnly":
		return &p.ViewOnly
	case "markup":
		return &p.Markup
	case "beneficiary":
		return &p.Beneficiary
	case "enforceAllowedBeneficiaries":
		return &p.EnforceAllowedBeneficiaries
	case "operationRequester":
		return &p.OperationRequester
	case "operationApprover":
		return &p.OperationApprover
	case "manageWebhooks":
		return &p.ManageWebhooks
	case "manageAccesses":
		return &p.ManageAccesses
	}
	return nil
}
