// Package records is the sandbox's own reading of the contract's records:
// the records the service keeps, in the shape spec/service.md shows them
// (§3, §5, §7 and §8): tickets and their blocks, beneficiaries, trades,
// compliance records, webhook attempts, an access's permissions, and the
// states they pass through. The engine keeps them and the HTTP surface
// shows them; a record is kept as the service shows it, so that what is
// stored is what is answered (a page of tickets is served from the stored
// JSON, never encoded again). It is independent of any client's reading:
// where a client misreads the service, the sandbox does not agree with it
// by construction.
package records

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Encode writes v as the service writes JSON: without HTML escaping ("<"
// stays "<" in messages), and without a trailing newline. A stored ticket
// is encoded so, because it is answered as stored.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Time is a moment on the wire: RFC 3339 with fractional seconds in UTC,
// "" when zero. Stored records are read back with the layouts the service
// is documented to use.
type Time struct{ time.Time }

// NewTime wraps a time.Time.
func NewTime(t time.Time) Time { return Time{t} }

// timeLayouts are tried in order when a stored time is read.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02"}

// MarshalJSON writes RFC 3339 with fractional seconds in UTC, or "" when zero.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte(`""`), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339Nano))
}

// UnmarshalJSON reads a string timestamp, an empty string or null.
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

// TicketStatus is a ticket's state (§7.2).
type TicketStatus string

// The ticket states of the live service (§7.2).
const (
	TicketUnpaid        TicketStatus = "UNPAID"         // waiting for its input
	TicketPending       TicketStatus = "PENDING"        // funded, queued
	TicketOnHold        TicketStatus = "ON-HOLD"        // funded, held for review
	TicketProcessing    TicketStatus = "PROCESSING"     // funded, output being delivered
	TicketPaid          TicketStatus = "PAID"           // delivered
	TicketFailed        TicketStatus = "FAILED"         // failureReason says why
	TicketPartialFailed TicketStatus = "PARTIAL-FAILED" // part of a split delivery failed
	TicketCanceled      TicketStatus = "CANCELED"       // by the caller, or expired unfunded
)

// TicketStatuses are the states in lifecycle order.
var TicketStatuses = []TicketStatus{TicketUnpaid, TicketPending, TicketOnHold, TicketProcessing, TicketPaid, TicketFailed, TicketPartialFailed, TicketCanceled}

// Final reports whether the ticket will not move again.
func (s TicketStatus) Final() bool {
	switch s {
	case TicketPaid, TicketFailed, TicketPartialFailed, TicketCanceled:
		return true
	}
	return false
}

// OperationStatus is a multi-signature operation's state (§5).
type OperationStatus string

// The multi-signature operation states (§5).
const (
	OperationPending  OperationStatus = "PENDING"
	OperationExecuted OperationStatus = "EXECUTED"
	OperationRejected OperationStatus = "REJECTED"
	OperationExpired  OperationStatus = "EXPIRED"
	OperationFailed   OperationStatus = "FAILED"
)

// TradeStatus is an end-of-day trade's state (§5).
type TradeStatus string

// The end-of-day trade states (§5).
const (
	TradePending   TradeStatus = "PENDING"
	TradeSettled   TradeStatus = "SETTLED"
	TradeCancelled TradeStatus = "CANCELLED"
)

// The blockchainSendMethod values (§8.4).
const (
	SendPermit   = "PERMIT"
	SendTransfer = "TRANSFER"
)

// AccountMetadata is which fiat rails an account may use (§8.7): a quote
// or ticket paying in or out on a locked one is refused.
type AccountMetadata struct {
	BrlUnlocked bool `json:"brlUnlocked"`
	UsdUnlocked bool `json:"usdUnlocked"`
	EurUnlocked bool `json:"eurUnlocked"`
	ArsUnlocked bool `json:"arsUnlocked"`
	CopUnlocked bool `json:"copUnlocked"`
}

// Unlocked is the metadata of an account with every rail open.
func Unlocked() AccountMetadata {
	return AccountMetadata{BrlUnlocked: true, UsdUnlocked: true, EurUnlocked: true, ArsUnlocked: true, CopUnlocked: true}
}

// Rail is the flag of a fiat currency's rail (nil for a token, which
// moves on no fiat rail).
func (m *AccountMetadata) Rail(currency string) *bool {
	switch currency {
	case "BRL":
		return &m.BrlUnlocked
	case "USD":
		return &m.UsdUnlocked
	case "EUR":
		return &m.EurUnlocked
	case "ARS":
		return &m.ArsUnlocked
	case "COP":
		return &m.CopUnlocked
	}
	return nil
}

// Permissions are an access's flags (§6, §7.5).
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

// Fee is one applied fee; rebatable is set on the fees a ticket keeps.
type Fee struct {
	Type        string          `json:"type"`
	Description string          `json:"description,omitempty"`
	Amount      decimal.Decimal `json:"amount"`
	Currency    string          `json:"currency"`
	Rebatable   *bool           `json:"rebatable,omitempty"`
}

// TicketQuote is the quote a ticket was made from, as the ticket keeps it.
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
	MarkupAmount        decimal.Decimal `json:"markupAmount"`
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

// Rebate is the part of a ticket's rebatable fees paid back (§8.2).
type Rebate struct {
	ID                       uuid.UUID       `json:"id"`
	TicketID                 uuid.UUID       `json:"ticketId"`
	Amount                   decimal.Decimal `json:"amount"`
	Currency                 string          `json:"currency"`
	DestinationWalletAddress string          `json:"destinationWalletAddress"`
}

// BrazilianFiatSenderInfo is the PIX payer of a funded ticket.
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

// BrazilianFiatReceiverInfo is the PIX receiver of a ticket's output.
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

// BrlPixInputInfo is the BR Code a PIX input is paid with.
type BrlPixInputInfo struct {
	ID             string `json:"id"`
	TicketID       string `json:"ticketId"`
	ReferenceLabel string `json:"referenceLabel"`
	AdditionalData string `json:"additionalData"`
	BrCode         string `json:"brCode"`
}

// BlockchainSenderInfo is the wallet a chain input comes from.
type BlockchainSenderInfo struct {
	ID                       string `json:"id,omitempty"`
	TicketID                 string `json:"ticketId,omitempty"`
	WalletAddress            string `json:"walletAddress"`
	TxHash                   string `json:"txHash"`
	DisposableDepositAddress string `json:"disposableDepositAddress"`
}

// BlockchainReceiverInfo is the wallet a chain output goes to.
type BlockchainReceiverInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	WalletAddress string `json:"walletAddress"`
	WalletChain   string `json:"walletChain"`
	WalletMemo    string `json:"walletMemo"`
	TxHash        string `json:"txHash"`
}

// AmericanFiatInfo is a US bank party (ACH, WIRE).
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

// EuropeanFiatInfo is a SEPA party.
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

// ArgentineFiatSenderInfo is an Argentine payer.
type ArgentineFiatSenderInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	CVU           string `json:"cvu"`
	CUIT          string `json:"cuit"`
	Name          string `json:"name"`
	TransactionID string `json:"transactionId"`
}

// ArgentineFiatReceiverInfo is an Argentine receiver (CVU).
type ArgentineFiatReceiverInfo struct {
	ID            string `json:"id,omitempty"`
	TicketID      string `json:"ticketId,omitempty"`
	CVU           string `json:"cvu"`
	CUIT          string `json:"cuit"`
	AccountHolder string `json:"accountHolder"`
	TransactionID string `json:"transactionId"`
}

// MarkupInfo is the service wallet a ticket's markup is paid to.
type MarkupInfo struct {
	ID                  string `json:"id,omitempty"`
	TicketID            string `json:"ticketId,omitempty"`
	MarkupWalletAddress string `json:"markupWalletAddress"`
	TxHash              string `json:"txHash"`
}

// BlockchainInputInfo is the signature a PERMIT input came with (§7.2).
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

// Ticket is a conversion or payment order as the service shows it.
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
	// RefundableParameter names the ticket a refund quote refunds (§7.2;
	// the service does not document its shape).
	RefundableParameter json.RawMessage `json:"RefundableParameter,omitempty"`
}

// BrCode is the BR Code the payer pays for a PIX input ("" for none).
func (t *Ticket) BrCode() string {
	if t.BrlPixInputInfo != nil && t.BrlPixInputInfo.BrCode != "" {
		return t.BrlPixInputInfo.BrCode
	}
	if t.BrazilianFiatSenderInfo != nil {
		return t.BrazilianFiatSenderInfo.BrCode
	}
	return ""
}

// Permit is an EIP-2612 permit signature of a PERMIT input.
type Permit struct {
	R        string `json:"r"`
	S        string `json:"s"`
	V        int    `json:"v"`
	Nonce    int64  `json:"nonce"`
	Deadline int64  `json:"deadline"`
}

// PersonalSignature is the alternative to a permit for a PERMIT input.
type PersonalSignature struct {
	Signature string `json:"signature"`
	Deadline  int64  `json:"deadline"`
}

// Wallet is a beneficiary wallet (§3).
type Wallet struct {
	ID            uuid.UUID `json:"id"`
	Alias         string    `json:"alias"`
	Description   string    `json:"description"`
	WalletAddress string    `json:"walletAddress"`
	WalletChain   string    `json:"walletChain"`
	WalletMemo    string    `json:"walletMemo"`
	CreatedAt     Time      `json:"createdAt"`
}

// BRLAccount is a BRL beneficiary: a PIX key or bank fields (§3).
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

// Address is a postal address in both spellings (§7.4).
type Address struct {
	StreetLine1   string `json:"streetLine1,omitempty"`
	StreetLine2   string `json:"streetLine2,omitempty"`
	City          string `json:"city,omitempty"`
	State         string `json:"state,omitempty"`
	PostalCode    string `json:"postalCode,omitempty"`
	Country       string `json:"country,omitempty"`
	StreetAddress string `json:"streetAddress,omitempty"`
	ZipCode       string `json:"zipCode,omitempty"`
}

// USDAccount is a USD beneficiary (§3).
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

// COPAddress is a COP beneficiary's address.
type COPAddress struct {
	StreetLine1 string `json:"streetLine1,omitempty"`
	City        string `json:"city,omitempty"`
	State       string `json:"state,omitempty"`
	Country     string `json:"country,omitempty"`
	ZipCode     string `json:"zipCode,omitempty"`
}

// COPAccount is a COP beneficiary [decided] (§3).
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

// EURAccount is a EUR (SEPA) beneficiary (§7.4).
type EURAccount struct {
	ID                  uuid.UUID `json:"id"`
	Alias               string    `json:"alias"`
	Description         string    `json:"description"`
	IBAN                string    `json:"iban"`
	BIC                 string    `json:"bic"`
	Country             string    `json:"country"`
	BankBeneficiaryName string    `json:"bankBeneficiaryName"`
	IsBusiness          bool      `json:"isBusiness"`
	CreatedAt           Time      `json:"createdAt"`
}

// ARSAccount is an ARS (CVU) beneficiary (§7.4).
type ARSAccount struct {
	ID          uuid.UUID `json:"id"`
	Alias       string    `json:"alias"`
	Description string    `json:"description"`
	CVU         string    `json:"cvu"`
	CreatedAt   Time      `json:"createdAt"`
}

// TradeFee is a fee of an end-of-day trade.
type TradeFee struct {
	Type        string          `json:"type"`
	Description string          `json:"description"`
	Amount      decimal.Decimal `json:"amount"`
	Currency    string          `json:"currency"`
}

// Trade is an end-of-day trade (§5).
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

// UBO is an ultimate beneficial owner (§3).
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

// W8BEN is a submitted W-8BEN form (§3).
type W8BEN struct {
	ID        uuid.UUID `json:"id"`
	W8BenURL  string    `json:"w8BenUrl"`
	CreatedAt Time      `json:"createdAt"`
}

// ProofOfAddressAttempt is a proof-of-address review (§5).
type ProofOfAddressAttempt struct {
	ID            uuid.UUID `json:"id"`
	UploadedPoAID uuid.UUID `json:"uploadedPoAId"`
	Status        string    `json:"status"`
	Result        string    `json:"result"`
	ResultMessage string    `json:"resultMessage"`
	CreatedAt     Time      `json:"createdAt"`
	UpdatedAt     Time      `json:"updatedAt"`
}

// Document is an identity document and its uploads (§7.4).
type Document struct {
	ID                uuid.UUID `json:"id"`
	DocumentType      string    `json:"documentType"`
	UploadStatusFront string    `json:"uploadStatusFront"`
	UploadStatusBack  string    `json:"uploadStatusBack,omitempty"`
	UploadErrorFront  string    `json:"uploadErrorFront,omitempty"`
	UploadErrorBack   string    `json:"uploadErrorBack,omitempty"`
	UploadURLFront    string    `json:"uploadURLFront,omitempty"`
	UploadURLBack     string    `json:"uploadURLBack,omitempty"`
	Ready             bool      `json:"ready"`
	CreatedAt         Time      `json:"createdAt"`
	UpdatedAt         Time      `json:"updatedAt"`
}

// KYCAttempt is a KYC submission and its outcome (§7.4).
type KYCAttempt struct {
	ID             uuid.UUID      `json:"id"`
	LevelName      string         `json:"levelName"`
	SubmissionData map[string]any `json:"submissionData"`
	Status         string         `json:"status"`
	Result         string         `json:"result"`
	ResultMessage  string         `json:"resultMessage"`
	Retryable      bool           `json:"retryable"`
	CreatedAt      Time           `json:"createdAt"`
	UpdatedAt      Time           `json:"updatedAt"`
}

// WebhookAttempt is one delivery of an event to a webhook (§3).
type WebhookAttempt struct {
	AccountID      string `json:"accountId"`
	Acknowledged   bool   `json:"acknowledged"`
	CreatedAt      string `json:"createdAt"`
	ID             string `json:"id"`
	ResponseStatus int    `json:"responseStatus"`
	UpdatedAt      string `json:"updatedAt"`
	WebhookEventID string `json:"webhookEventId"`
	WebhookURL     string `json:"webhookUrl"`
	// EventAccountID is the account the event is of (not shown): an
	// access barred from it does not see the attempt.
	EventAccountID uuid.UUID `json:"-"`
}
