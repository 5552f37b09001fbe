package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Endpoints the live service has beyond the seed (spec/service.md §7.4):
// the account's own details, the static BR Code, sub-account detail, EUR
// and ARS beneficiaries, webhook events and edits, documents and KYC
// attempts.

// AccountDetails is GET /v2/account/account-info: the operated account,
// its deposit wallets and its static PIX key and BR Code.
type AccountDetails struct {
	ID          uuid.UUID       `json:"id"`
	AccountInfo AccountInfo     `json:"accountInfo"`
	Wallets     []AccountWallet `json:"wallets"`
	PixKey      string          `json:"pixKey"`
	BrCode      string          `json:"brCode"`
	CreatedAt   Time            `json:"createdAt"`
}

// AccountWallet is one of the account's own service wallets.
type AccountWallet struct {
	ID            string `json:"id"`
	WalletAddress string `json:"walletAddress"`
	Chain         string `json:"chain"`
}

// Identity states of AccountInfo.IdentityStatus.
const (
	IdentityNotIdentified = "NOT-IDENTIFIED"
	IdentityConfirmed     = "CONFIRMED"
)

// EURAccount is a EUR (SEPA) beneficiary.
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

// CreateEURAccountRequest registers a EUR beneficiary.
type CreateEURAccountRequest struct {
	Alias               string `json:"alias"`
	Description         string `json:"description,omitempty"`
	IBAN                string `json:"iban"`
	BIC                 string `json:"bic,omitempty"`
	Country             string `json:"country"`
	BankBeneficiaryName string `json:"bankBeneficiaryName"`
	IsBusiness          bool   `json:"isBusiness"`
}

// ARSAccount is an ARS (CVU) beneficiary.
type ARSAccount struct {
	ID          uuid.UUID `json:"id"`
	Alias       string    `json:"alias"`
	Description string    `json:"description"`
	CVU         string    `json:"cvu"`
	CreatedAt   Time      `json:"createdAt"`
}

// CreateARSAccountRequest registers an ARS beneficiary.
type CreateARSAccountRequest struct {
	Alias       string `json:"alias"`
	Description string `json:"description,omitempty"`
	CVU         string `json:"cvu"`
}

// WebhookEvent is a recorded notification: every ticket transition (and
// KYC step) is one, whether or not a webhook was registered.
type WebhookEvent struct {
	ID           string         `json:"id"`
	Subscription string         `json:"subscription"`
	SubAccountID string         `json:"subAccountId"`
	Data         map[string]any `json:"data"`
	CreatedAt    Time           `json:"createdAt"`
}

// WebhookEventFilter is the query of GET /v2/notifications/webhooks/events.
type WebhookEventFilter struct {
	SubAccountID  uuid.UUID
	CreatedAfter  time.Time
	CreatedBefore time.Time
	Cursor        string
	Subscription  string
	DataID        string // e.g. a ticket id
}

// UpdateWebhookRequest is the body of PATCH /v2/notifications/webhooks.
type UpdateWebhookRequest struct {
	WebhookID     string   `json:"webhookId"`
	WebhookURL    string   `json:"webhookUrl"`
	Subscriptions []string `json:"subscriptions"`
}

// Document is an identity document record (its bytes go to the upload URLs).
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

// CreateDocumentRequest is the body of POST /v2/documents/.
type CreateDocumentRequest struct {
	DocumentType  string `json:"documentType"`
	IsDoubleSided bool   `json:"isDoubleSided"`
}

// DocumentUpload is the answer to a document creation.
type DocumentUpload struct {
	ID             string `json:"id"`
	UploadURLFront string `json:"uploadURLFront"`
	UploadURLBack  string `json:"uploadURLBack,omitempty"`
}

// KYCAttempt is one verification attempt.
type KYCAttempt struct {
	ID             uuid.UUID      `json:"id"`
	LevelName      string         `json:"levelName"`
	SubmissionData map[string]any `json:"submissionData"`
	Status         string         `json:"status"` // PENDING, PROCESSING, COMPLETED, EXPIRED
	Result         string         `json:"result"` // APPROVED, REJECTED, or "" while open
	ResultMessage  string         `json:"resultMessage"`
	Retryable      bool           `json:"retryable"`
	CreatedAt      Time           `json:"createdAt"`
	UpdatedAt      Time           `json:"updatedAt"`
}

const (
	pathAccountInfo   = "/v2/account/account-info"
	pathStaticBrCode  = "/v2/account/bank-accounts/brl/static-br-code"
	pathEUR           = "/v2/account/beneficiaries/bank-accounts/eur/"
	pathARS           = "/v2/account/beneficiaries/bank-accounts/ars/"
	pathWebhookEvents = "/v2/notifications/webhooks/events"
	pathDocuments     = "/v2/documents/"
	pathKYCAttempts   = "/v2/kyc/attempts/"
)

// AccountDetails reads the operated account's details (account-info).
func (c *Client) AccountDetails(ctx context.Context, subAccountID uuid.UUID) (*AccountDetails, error) {
	var out AccountDetails
	if err := c.json(ctx, call{method: http.MethodGet, path: pathAccountInfo, query: newQuery().sub(subAccountID).values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetSubAccount reads one sub-account with its full accountInfo.
func (c *Client) GetSubAccount(ctx context.Context, id uuid.UUID) (*SubAccount, error) {
	var out SubAccount
	if err := c.json(ctx, call{method: http.MethodGet, path: pathSubAccounts + "/" + id.String()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// StaticBrCode asks for a BR Code paying the account's PIX key; amount
// zero leaves the amount to the payer.
func (c *Client) StaticBrCode(ctx context.Context, subAccountID uuid.UUID, amount string, referenceLabel, additionalData string) (string, error) {
	var out struct {
		BrCode string `json:"brCode"`
	}
	q := newQuery().sub(subAccountID).str("amount", amount).str("referenceLabel", referenceLabel).str("additionalData", additionalData)
	if err := c.json(ctx, call{method: http.MethodGet, path: pathStaticBrCode, query: q.values()}, &out); err != nil {
		return "", err
	}
	return out.BrCode, nil
}

// CreateEURAccount registers a EUR beneficiary and returns its id.
func (c *Client) CreateEURAccount(ctx context.Context, subAccountID uuid.UUID, req CreateEURAccountRequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathEUR, query: newQuery().sub(subAccountID).values(), body: req})
}

// ListEURAccounts returns one page of EUR beneficiaries.
func (c *Client) ListEURAccounts(ctx context.Context, f BeneficiaryFilter) (Page[EURAccount], error) {
	return page[EURAccount](ctx, c, call{method: http.MethodGet, path: pathEUR, query: newQuery().sub(f.SubAccountID).cursor(f.Cursor).str("alias", f.Alias).values()}, "beneficiaryEurBankAccount")
}

// CreateARSAccount registers an ARS beneficiary and returns its id.
func (c *Client) CreateARSAccount(ctx context.Context, subAccountID uuid.UUID, req CreateARSAccountRequest) (uuid.UUID, error) {
	return c.createID(ctx, call{method: http.MethodPost, path: pathARS, query: newQuery().sub(subAccountID).values(), body: req})
}

// ListARSAccounts returns one page of ARS beneficiaries.
func (c *Client) ListARSAccounts(ctx context.Context, f BeneficiaryFilter) (Page[ARSAccount], error) {
	return page[ARSAccount](ctx, c, call{method: http.MethodGet, path: pathARS, query: newQuery().sub(f.SubAccountID).cursor(f.Cursor).str("alias", f.Alias).values()}, "beneficiaryArsBankAccount")
}

// ListWebhookEvents returns one page of recorded events, newest first.
func (c *Client) ListWebhookEvents(ctx context.Context, f WebhookEventFilter) (Page[WebhookEvent], error) {
	q := newQuery().sub(f.SubAccountID).unix("createdAfter", f.CreatedAfter).unix("createdBefore", f.CreatedBefore).
		cursor(f.Cursor).str("subscription", f.Subscription).str("dataId", f.DataID)
	return page[WebhookEvent](ctx, c, call{method: http.MethodGet, path: pathWebhookEvents, query: q.values()}, "events")
}

// GetWebhook reads one webhook (no subAccountId: the live catalogue has none).
func (c *Client) GetWebhook(ctx context.Context, id string) (*Webhook, error) {
	return object[Webhook](ctx, c, call{method: http.MethodGet, path: item(pathWebhooks, id)}, "webhook")
}

// UpdateWebhook changes a webhook's URL and subscriptions.
func (c *Client) UpdateWebhook(ctx context.Context, req UpdateWebhookRequest) error {
	return c.noContent(ctx, call{method: http.MethodPatch, path: "/v2/notifications/webhooks", body: req})
}

// CreateDocument opens a document record and returns where to upload it.
func (c *Client) CreateDocument(ctx context.Context, subAccountID uuid.UUID, req CreateDocumentRequest) (*DocumentUpload, error) {
	var out DocumentUpload
	if err := c.json(ctx, call{method: http.MethodPost, path: pathDocuments, query: newQuery().sub(subAccountID).values(), body: req}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListKYCAttempts returns one page of the account's verification attempts.
func (c *Client) ListKYCAttempts(ctx context.Context, subAccountID uuid.UUID, cursor string) (Page[KYCAttempt], error) {
	return page[KYCAttempt](ctx, c, call{method: http.MethodGet, path: "/v2/kyc/attempts", query: newQuery().sub(subAccountID).cursor(cursor).values()}, "attempts")
}

// GetKYCAttempt reads one verification attempt.
func (c *Client) GetKYCAttempt(ctx context.Context, subAccountID, id uuid.UUID) (*KYCAttempt, error) {
	return object[KYCAttempt](ctx, c, call{method: http.MethodGet, path: itemUUID(pathKYCAttempts, id), query: newQuery().sub(subAccountID).values()}, "attempt")
}

// CreatePaymentSessionRequest opens a hosted checkout that brings money in
// to the operated account.
type CreatePaymentSessionRequest struct {
	ExternalID               string          `json:"externalId,omitempty"`
	Metadata                 json.RawMessage `json:"metadata,omitempty"`
	OnCompleteRedirectionURL string          `json:"onCompleteRedirectionUrl,omitempty"`
	PaymentOptions           []PaymentOption `json:"paymentOptions"`
	OutputCurrency           string          `json:"outputCurrency"` // the token the owner receives
	Appearance               json.RawMessage `json:"appearance,omitempty"`
	ExpirationInMinutes      int             `json:"expirationInMinutes,omitempty"`
}

// PaymentSession is a checkout as its payer reads it.
type PaymentSession struct {
	ID                  uuid.UUID       `json:"id"`
	Status              string          `json:"status"` // OPEN, TICKET-CREATED, EXPIRED
	ExternalID          string          `json:"externalId"`
	PaymentOptions      []PaymentOption `json:"paymentOptions"`
	OutputCurrency      string          `json:"outputCurrency"`
	ExpirationInMinutes int             `json:"expirationInMinutes"`
	ExpiresAt           Time            `json:"expiresAt"`
	CreatedAt           Time            `json:"createdAt"`
	TicketID            string          `json:"ticketId,omitempty"`
}

// CreatePaymentSession opens a payment session and returns its id (which
// is a credential for its payer: hand it over, never log it).
func (c *Client) CreatePaymentSession(ctx context.Context, subAccountID uuid.UUID, req CreatePaymentSessionRequest) (string, error) {
	var out struct {
		ID string `json:"id"`
	}
	if err := c.json(ctx, call{method: http.MethodPost, path: "/v2/account/payment-session", query: newQuery().sub(subAccountID).values(), body: req}, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// GetPaymentSession reads a session as its payer does (no credentials).
func (c *Client) GetPaymentSession(ctx context.Context, sessionID string) (*PaymentSession, error) {
	return object[PaymentSession](ctx, c, call{method: http.MethodGet, path: item(pathPaymentSession, sessionID), public: true}, "paymentSession")
}

// PaymentSessionQuote asks a session for a quote paying in with one of its
// options (no credentials); its output is fixed by the session.
func (c *Client) PaymentSessionQuote(ctx context.Context, sessionID string, inputCurrency, inputPaymentMethod string, inputAmount decimal.Decimal) (*Quote, error) {
	q := newQuery().str("inputCurrency", inputCurrency).str("inputPaymentMethod", inputPaymentMethod).
		decimal("inputAmount", decimal.NewNullDecimal(inputAmount)).boolean("inputThirdParty", true).boolean("outputThirdParty", false)
	var out Quote
	if err := c.json(ctx, call{method: http.MethodGet, path: item(pathPaymentSession, sessionID) + "/fixed-quote", query: q.values(), public: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetPaymentSessionTicket reads a session's ticket (no credentials).
func (c *Client) GetPaymentSessionTicket(ctx context.Context, sessionID string) (*Ticket, error) {
	return object[Ticket](ctx, c, call{method: http.MethodGet, path: item(pathPaymentSession, sessionID) + "/get-ticket", public: true}, keyTicket)
}

// GetW8BEN reads one submitted W-8BEN.
func (c *Client) GetW8BEN(ctx context.Context, subAccountID, id uuid.UUID) (*W8BEN, error) {
	return object[W8BEN](ctx, c, call{method: http.MethodGet, path: pathW8BEN + id.String(), query: newQuery().sub(subAccountID).values()}, "w8ben")
}

// StatementLog is one balance change of the account's ledger.
type StatementLog struct {
	ID            string          `json:"id"`
	Token         string          `json:"token"`
	BalanceChange decimal.Decimal `json:"balanceChange"`
	FinalBalance  decimal.Decimal `json:"finalBalance"`
	Description   string          `json:"description"`
	TicketID      string          `json:"ticketId,omitempty"`
	CreatedAt     Time            `json:"createdAt"`
}

// StatementFilter is the query of GET /v2/account/statement (times in
// Unix seconds, as the service documents them).
type StatementFilter struct {
	SubAccountID  uuid.UUID
	CreatedAfter  time.Time
	CreatedBefore time.Time
	Cursor        string
}

// Statement returns one page of the ledger, newest first.
func (c *Client) Statement(ctx context.Context, f StatementFilter) (Page[StatementLog], error) {
	q := newQuery().sub(f.SubAccountID).unix("createdAfter", f.CreatedAfter).unix("createdBefore", f.CreatedBefore).cursor(f.Cursor)
	return page[StatementLog](ctx, c, call{method: http.MethodGet, path: "/v2/account/statement", query: q.values()}, "logs")
}

// GetEURAccount reads one EUR beneficiary.
func (c *Client) GetEURAccount(ctx context.Context, subAccountID, id uuid.UUID) (*EURAccount, error) {
	return object[EURAccount](ctx, c, call{method: http.MethodGet, path: itemUUID(pathEUR, id), query: newQuery().sub(subAccountID).values()}, "beneficiaryEurBankAccount")
}

// GetARSAccount reads one ARS beneficiary.
func (c *Client) GetARSAccount(ctx context.Context, subAccountID, id uuid.UUID) (*ARSAccount, error) {
	return object[ARSAccount](ctx, c, call{method: http.MethodGet, path: itemUUID(pathARS, id), query: newQuery().sub(subAccountID).values()}, "beneficiaryArsBankAccount")
}

// GetWebhookEvent reads one recorded event, whichever account's: the path
// takes no subAccountId (spec §8.6), the event names its account.
func (c *Client) GetWebhookEvent(ctx context.Context, id string) (*WebhookEvent, error) {
	return object[WebhookEvent](ctx, c, call{method: http.MethodGet, path: pathWebhookEvents + "/" + url.PathEscape(id)}, "event")
}

// ListDocuments returns one page of the account's documents.
func (c *Client) ListDocuments(ctx context.Context, subAccountID uuid.UUID, documentType, cursor string) (Page[Document], error) {
	q := newQuery().sub(subAccountID).str("documentType", documentType).cursor(cursor)
	return page[Document](ctx, c, call{method: http.MethodGet, path: pathDocuments, query: q.values()}, "documents")
}

// GetDocument reads one document.
func (c *Client) GetDocument(ctx context.Context, subAccountID, id uuid.UUID) (*Document, error) {
	return object[Document](ctx, c, call{method: http.MethodGet, path: itemUUID(pathDocuments, id), query: newQuery().sub(subAccountID).values()}, "document")
}
