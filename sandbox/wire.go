package sandbox

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// The request bodies and answers of the interface that are not records
// the service keeps and shows as kept (those are package engine's), as
// spec/service.md describes them.

// Quote is the answer of GET /v2/account/quote/fixed-rate (seed, §3, §7.3, §8).
type Quote struct {
	QuoteToken           string          `json:"quoteToken"`
	InputCurrency        string          `json:"inputCurrency"`
	InputPaymentMethod   string          `json:"inputPaymentMethod"`
	InputAmount          decimal.Decimal `json:"inputAmount"`
	OutputCurrency       string          `json:"outputCurrency"`
	OutputPaymentMethod  string          `json:"outputPaymentMethod"`
	OutputAmount         decimal.Decimal `json:"outputAmount"`
	MarkupAmount         decimal.Decimal `json:"markupAmount"`
	MarkupCurrency       string          `json:"markupCurrency"`
	InputThirdParty      bool            `json:"inputThirdParty"`
	OutputThirdParty     bool            `json:"outputThirdParty"`
	AppliedFees          []engine.Fee    `json:"appliedFees"`
	BasePrice            decimal.Decimal `json:"basePrice"`
	PairName             string          `json:"pairName"`
	BlockchainSendMethod string          `json:"blockchainSendMethod,omitempty"`
	OutputBrCode         string          `json:"outputBrCode,omitempty"`
	TicketRefundID       string          `json:"ticketRefundId,omitempty"`
}

// Operation is a multi-signature operation; its detail adds approvers,
// decodedQuote and beneficiary (§3, §5, §7.5).
type Operation struct {
	ID             uuid.UUID              `json:"id"`
	RequesterEmail string                 `json:"requesterEmail"`
	OperationType  string                 `json:"operationType"`
	Payload        json.RawMessage        `json:"payload,omitempty"`
	Status         engine.OperationStatus `json:"status"`
	Approvals      int32                  `json:"approvals"`
	MinApprovals   int32                  `json:"minApprovals"`
	CreatedAt      engine.Time            `json:"createdAt"`
	SubAccountID   string                 `json:"subAccountId"`
	SubAccountName string                 `json:"subAccountName"`
	ExecutedID     string                 `json:"executedId"`
	Reason         string                 `json:"reason,omitempty"`
	RejectedBy     string                 `json:"rejectedBy,omitempty"`
	Approvers      []Approver             `json:"approvers,omitempty"`
	DecodedQuote   json.RawMessage        `json:"decodedQuote,omitempty"`
	Beneficiary    json.RawMessage        `json:"beneficiary,omitempty"`
}

// Approver is one approver of an operation and whether it approved.
type Approver struct {
	AccessID    uuid.UUID `json:"accessId"`
	Email       string    `json:"email"`
	HasApproved bool      `json:"hasApproved"`
}

// Access is an access of the main account (GET /v2/auth/accesses).
type Access struct {
	ID               string             `json:"id"`
	Email            string             `json:"email"`
	CreatedAt        string             `json:"createdAt"`
	UpdatedAt        string             `json:"updatedAt"`
	FrozenUntil      string             `json:"frozenUntil"`
	AccessPermission engine.Permissions `json:"accessPermission"`
	MFA              *MFA               `json:"mfa,omitempty"`
}

// MFA is an access's second factor.
type MFA struct {
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// AccessInfo is the caller's own access (GET /v2/account/access-info).
type AccessInfo struct {
	Email                    string             `json:"email"`
	MFAActivated             bool               `json:"mfaActivated"`
	PricingSet               bool               `json:"pricingSet"`
	PasswordUpdatedAt        engine.Time        `json:"passwordUpdatedAt"`
	FrozenUntil              engine.Time        `json:"frozenUntil"`
	AccountPermissions       engine.Permissions `json:"accountPermissions"`
	BlacklistedAccountIDs    []uuid.UUID        `json:"blacklistedAccountIds"`
	IsMainAccountBlacklisted bool               `json:"isMainAccountBlacklisted"`
}

// Account is an account the caller may operate (GET /v2/accounts, [decided]).
type Account struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	AccountType   string    `json:"accountType"`
	MainAccountID string    `json:"mainAccountId"`
}

// AccountInfo is an account's identity; the full form (account-info, a
// sub-account's detail) adds the fields after name (§7.4).
type AccountInfo struct {
	ID                             uuid.UUID `json:"id"`
	AccountType                    string    `json:"accountType"`
	Name                           string    `json:"name"`
	CountrySubdivisionTaxResidence string    `json:"countrySubdivisionTaxResidence,omitempty"`
	CountryTaxResidence            string    `json:"countryTaxResidence,omitempty"`
	IdentityStatus                 string    `json:"identityStatus,omitempty"`
	FullName                       string    `json:"fullName,omitempty"`
	Birthdate                      string    `json:"birthdate,omitempty"`
	TaxID                          string    `json:"taxId,omitempty"`
}

// SubAccount is a sub-account as listed (§3) and detailed (§7.4).
type SubAccount struct {
	SubAccountID  uuid.UUID   `json:"subAccountId"`
	MainAccountID uuid.UUID   `json:"mainAccountId"`
	CreatedAt     engine.Time `json:"createdAt"`
	AccountInfo   AccountInfo `json:"accountInfo"`
}

// AccountDetails is GET /v2/account/account-info (§7.4).
type AccountDetails struct {
	ID          uuid.UUID       `json:"id"`
	AccountInfo AccountInfo     `json:"accountInfo"`
	Wallets     []AccountWallet `json:"wallets"`
	PixKey      string          `json:"pixKey"`
	BrCode      string          `json:"brCode"`
	CreatedAt   engine.Time     `json:"createdAt"`
}

// AccountWallet is one of an account's service wallets.
type AccountWallet struct {
	ID            string `json:"id"`
	WalletAddress string `json:"walletAddress"`
	Chain         string `json:"chain"`
}

// AccountLimits is GET /v2/account/limits (§7.4).
type AccountLimits struct {
	LimitInfo LimitInfo `json:"limitInfo"`
}

// LimitInfo is an account's limits.
type LimitInfo struct {
	Blocked   bool        `json:"blocked"`
	CreatedAt engine.Time `json:"createdAt"`
	Limits    []Limit     `json:"limits"`
}

// Limit is the monthly limit of one currency and what is used of it.
type Limit struct {
	Currency    string          `json:"currency"`
	MaxFiatIn   decimal.Decimal `json:"maxFiatIn"`
	MaxFiatOut  decimal.Decimal `json:"maxFiatOut"`
	MaxChainIn  decimal.Decimal `json:"maxChainIn"`
	MaxChainOut decimal.Decimal `json:"maxChainOut"`
	UsedLimit   UsedLimit       `json:"usedLimit"`
}

// UsedLimit is what the month's tickets used of a limit.
type UsedLimit struct {
	Year         int             `json:"year"`
	Month        int             `json:"month"`
	UsedFiatIn   decimal.Decimal `json:"usedFiatIn"`
	UsedFiatOut  decimal.Decimal `json:"usedFiatOut"`
	UsedChainIn  decimal.Decimal `json:"usedChainIn"`
	UsedChainOut decimal.Decimal `json:"usedChainOut"`
}

// PixInfo is who a PIX key pays (§7.4).
type PixInfo struct {
	Name     string `json:"name"`
	TaxID    string `json:"taxId"`
	BankName string `json:"bankName"`
}

// Tokens are a JWT pair (§2).
type Tokens struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
}

// Webhook is a registered webhook (§3).
type Webhook struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	Subscriptions []string `json:"subscriptions"`
}

// WebhookEvent is a recorded event (§7.4, §8.6).
type WebhookEvent struct {
	ID           string         `json:"id"`
	Subscription string         `json:"subscription"`
	SubAccountID string         `json:"subAccountId"`
	Data         map[string]any `json:"data"`
	CreatedAt    engine.Time    `json:"createdAt"`
}

// DocumentUpload is the answer of POST /v2/documents: where to upload.
type DocumentUpload struct {
	ID             string `json:"id"`
	UploadURLFront string `json:"uploadURLFront"`
	UploadURLBack  string `json:"uploadURLBack,omitempty"`
}

// CreateWalletRequest is POST /v2/account/beneficiaries/wallets/ (§3).
type CreateWalletRequest struct {
	Alias         string `json:"alias"`
	Description   string `json:"description,omitempty"`
	WalletAddress string `json:"walletAddress"`
	WalletChain   string `json:"walletChain"`
	WalletMemo    string `json:"walletMemo,omitempty"`
}

// CreateBRLAccountRequest is POST .../bank-accounts/brl/ (§3).
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

// CreateUSDAccountRequest is POST .../bank-accounts/usd/ (§3, §7.4).
type CreateUSDAccountRequest struct {
	Alias               string          `json:"alias"`
	Description         string          `json:"description,omitempty"`
	BankAccountNumber   string          `json:"bankAccountNumber"`
	BankRoutingNumber   string          `json:"bankRoutingNumber"`
	BankBeneficiaryName string          `json:"bankBeneficiaryName"`
	BankName            string          `json:"bankName,omitempty"`
	BeneficiaryAddress  *engine.Address `json:"beneficiaryAddress,omitempty"`
	BankAddress         *engine.Address `json:"bankAddress,omitempty"`
	FirstName           string          `json:"firstName,omitempty"`
	LastName            string          `json:"lastName,omitempty"`
}

// CreateCOPAccountRequest is POST .../bank-accounts/cop/ [decided].
type CreateCOPAccountRequest struct {
	Alias              string             `json:"alias"`
	BeneficiaryName    string             `json:"beneficiaryName"`
	Description        string             `json:"description,omitempty"`
	BeneficiaryType    string             `json:"beneficiaryType,omitempty"`
	BeneficiaryEmail   string             `json:"beneficiaryEmail,omitempty"`
	BeneficiaryAddress *engine.COPAddress `json:"beneficiaryAddress,omitempty"`
	PhoneNumber        string             `json:"phoneNumber,omitempty"`
	AccountType        string             `json:"accountType,omitempty"`
	BankAccountNumber  string             `json:"bankAccountNumber,omitempty"`
	DocumentNumber     string             `json:"documentNumber,omitempty"`
	DocumentType       string             `json:"documentType,omitempty"`
	BankID             string             `json:"bankId,omitempty"`
	BankName           string             `json:"bankName,omitempty"`
	BreBKey            string             `json:"breBKey,omitempty"`
}

// CreateEURAccountRequest is POST .../bank-accounts/eur/ (§7.4).
type CreateEURAccountRequest struct {
	Alias               string `json:"alias"`
	Description         string `json:"description,omitempty"`
	IBAN                string `json:"iban"`
	BIC                 string `json:"bic,omitempty"`
	Country             string `json:"country"`
	BankBeneficiaryName string `json:"bankBeneficiaryName"`
	IsBusiness          bool   `json:"isBusiness"`
}

// CreateARSAccountRequest is POST .../bank-accounts/ars/ (§7.4).
type CreateARSAccountRequest struct {
	Alias       string `json:"alias"`
	Description string `json:"description,omitempty"`
	CVU         string `json:"cvu"`
}

// CreateDocumentRequest is POST /v2/documents (§7.4).
type CreateDocumentRequest struct {
	DocumentType  string `json:"documentType"`
	IsDoubleSided bool   `json:"isDoubleSided"`
}

// CreateSubAccountRequest is POST /v2/account/sub-accounts (§3).
type CreateSubAccountRequest struct {
	AccountType string `json:"accountType"`
	Name        string `json:"name"`
}

// RegisterWebhookRequest is POST /v2/notifications/webhooks/ (§3).
type RegisterWebhookRequest struct {
	WebhookURL    string   `json:"webhookUrl"`
	Subscriptions []string `json:"subscriptions"`
}

// UpdateWebhookRequest is PATCH /v2/notifications/webhooks (§7.4).
type UpdateWebhookRequest struct {
	WebhookID     string   `json:"webhookId"`
	WebhookURL    string   `json:"webhookUrl"`
	Subscriptions []string `json:"subscriptions"`
}
