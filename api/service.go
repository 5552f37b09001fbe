package api

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Page is one page of a cursor-paginated list. An empty Cursor means the
// last page.
type Page[T any] struct {
	Items  []T
	Cursor string
}

// More reports whether another page can be fetched.
func (p Page[T]) More() bool { return p.Cursor != "" }

// QuoteRequest is the query of GET /v2/account/quote/fixed-rate. Exactly one
// of InputAmount and OutputAmount must be set. Zero markup fields are not sent.
type QuoteRequest struct {
	SubAccountID         uuid.UUID // uuid.Nil: the main account
	InputCurrency        string
	InputPaymentMethod   string
	InputAmount          decimal.NullDecimal
	OutputAmount         decimal.NullDecimal
	OutputCurrency       string
	OutputPaymentMethod  string
	InputThirdParty      bool
	OutputThirdParty     bool
	BlockchainSendMethod string // PERMIT or TRANSFER; required when the input is on a chain
	MarkupFloatingFee    decimal.NullDecimal
	MarkupInputFixedFee  decimal.NullDecimal
	MarkupOutputFixedFee decimal.NullDecimal
	MarkupCurrency       string
	// OutputBrCode pays a dynamic BR Code (BRL via PIX): the amount may
	// come from the code, and the ticket's PIX output is {brCode}.
	OutputBrCode string
	// TicketRefundID names the ticket this quote refunds.
	TicketRefundID string
}

// TicketFilter is the query of GET /v2/account/tickets/.
type TicketFilter struct {
	SubAccountID        uuid.UUID
	CreatedAfter        time.Time // inclusive; sent as RFC 3339
	CreatedBefore       time.Time
	Cursor              string
	Status              string
	InputCurrency       string
	InputPaymentMethod  string
	OutputCurrency      string
	OutputPaymentMethod string
	EndToEndID          string
	ExternalID          string
}

// AccessFilter is the query of GET /v2/auth/accesses (Unix seconds).
type AccessFilter struct {
	CreatedAfter  time.Time
	CreatedBefore time.Time
}

// SubAccountFilter is the query of GET /v2/account/sub-accounts.
type SubAccountFilter struct {
	Name   string
	Cursor string
}

// WalletFilter is the query of GET /v2/account/beneficiaries/wallets/.
type WalletFilter struct {
	SubAccountID  uuid.UUID
	Alias         string
	WalletAddress string
	WalletChain   string
	Cursor        string
}

// BeneficiaryFilter is the query of the bank-account beneficiary lists.
type BeneficiaryFilter struct {
	SubAccountID uuid.UUID
	Alias        string
	Cursor       string
}

// TradeFilter is the query of GET /v2/account/eod/trades (Unix seconds).
type TradeFilter struct {
	SubAccountID   uuid.UUID
	Status         string
	SettlementDate string
	CreatedAfter   time.Time
	CreatedBefore  time.Time
	Cursor         string
}

// TimeRangeFilter is the query of lists filtered by creation time in Unix
// seconds (proof-of-address attempts).
type TimeRangeFilter struct {
	SubAccountID  uuid.UUID
	CreatedAfter  time.Time
	CreatedBefore time.Time
	Cursor        string
}

// AttemptFilter is the query of GET /v2/notifications/webhooks/attempts.
type AttemptFilter struct {
	SubAccountID   uuid.UUID
	CreatedAfter   time.Time
	CreatedBefore  time.Time
	Cursor         string
	WebhookEventID string
	UnackedOnly    bool
}

// Service is everything Tesouro asks of the service. *Client implements it
// over HTTP; the dashboard's screens depend on this interface so that tests
// can substitute a fake. subAccountID uuid.Nil always means the main account.
type Service interface {
	// Quotes and tickets.
	Quote(ctx context.Context, req QuoteRequest) (*Quote, error)
	ListTickets(ctx context.Context, f TicketFilter) (Page[Ticket], error)
	GetTicket(ctx context.Context, subAccountID, id uuid.UUID) (*Ticket, error)
	CreateTicket(ctx context.Context, subAccountID uuid.UUID, req CreateTicketRequest) (*CreateTicketResult, error)
	TicketReceipt(ctx context.Context, subAccountID, id uuid.UUID) ([]byte, error)
	CreatePaymentSessionTicket(ctx context.Context, sessionID string, req CreateTicketRequest) (*Ticket, error)
	// SandboxFundTicket simulates the payer funding a ticket; only the
	// sandbox has this endpoint.
	SandboxFundTicket(ctx context.Context, subAccountID, id uuid.UUID) (*Ticket, error)

	// Multi-signature operations.
	ListApproverOperations(ctx context.Context, cursor string) (Page[Operation], error)
	GetOperation(ctx context.Context, id uuid.UUID) (*Operation, error)
	ApproveOperation(ctx context.Context, id uuid.UUID) (*Operation, error)
	RejectOperation(ctx context.Context, id uuid.UUID, reason string) (*Operation, error)

	// Accesses and accounts.
	ListAccesses(ctx context.Context, f AccessFilter) ([]Access, error)
	AccessInfo(ctx context.Context) (*AccessInfo, error)
	ListAccounts(ctx context.Context) ([]Account, error)
	ListSubAccounts(ctx context.Context, f SubAccountFilter) (Page[SubAccount], error)
	CreateSubAccount(ctx context.Context, req CreateSubAccountRequest) (uuid.UUID, error)
	Balances(ctx context.Context, subAccountID uuid.UUID) (Balances, error)

	// Beneficiaries.
	ListWallets(ctx context.Context, f WalletFilter) (Page[Wallet], error)
	CreateWallet(ctx context.Context, subAccountID uuid.UUID, req CreateWalletRequest) (uuid.UUID, error)
	GetWallet(ctx context.Context, subAccountID, id uuid.UUID) (*Wallet, error)
	DeleteWallet(ctx context.Context, subAccountID, id uuid.UUID) error
	ListBRLAccounts(ctx context.Context, f BeneficiaryFilter) (Page[BRLAccount], error)
	CreateBRLAccount(ctx context.Context, subAccountID uuid.UUID, req CreateBRLAccountRequest) (uuid.UUID, error)
	GetBRLAccount(ctx context.Context, subAccountID, id uuid.UUID) (*BRLAccount, error)
	DeleteBRLAccount(ctx context.Context, subAccountID, id uuid.UUID) error
	ListUSDAccounts(ctx context.Context, f BeneficiaryFilter) (Page[USDAccount], error)
	CreateUSDAccount(ctx context.Context, subAccountID uuid.UUID, req CreateUSDAccountRequest) (uuid.UUID, error)
	GetUSDAccount(ctx context.Context, subAccountID, id uuid.UUID) (*USDAccount, error)
	ListCOPAccounts(ctx context.Context, f BeneficiaryFilter) (Page[COPAccount], error)
	CreateCOPAccount(ctx context.Context, subAccountID uuid.UUID, req CreateCOPAccountRequest) (uuid.UUID, error)

	// End-of-day trades.
	ListTrades(ctx context.Context, f TradeFilter) (Page[Trade], error)

	// Compliance.
	CreateUBO(ctx context.Context, subAccountID uuid.UUID, req CreateUBORequest) (uuid.UUID, error)
	ListUBOs(ctx context.Context, subAccountID uuid.UUID, cursor string) (Page[UBO], error)
	SubmitW8BEN(ctx context.Context, subAccountID uuid.UUID, req W8BENRequest) (*W8BEN, error)
	ListW8BENs(ctx context.Context, subAccountID uuid.UUID) ([]W8BEN, error)
	ListProofOfAddressAttempts(ctx context.Context, f TimeRangeFilter) (Page[ProofOfAddressAttempt], error)

	// Webhooks.
	ListWebhookAttempts(ctx context.Context, f AttemptFilter) (Page[WebhookAttempt], error)
	GetWebhookAttempt(ctx context.Context, subAccountID uuid.UUID, id string) (*WebhookAttempt, error)
	AcknowledgeWebhookAttempts(ctx context.Context, subAccountID uuid.UUID, ids []string) error
	ListWebhooks(ctx context.Context, subAccountID uuid.UUID) ([]Webhook, error)
	RegisterWebhook(ctx context.Context, subAccountID uuid.UUID, req RegisterWebhookRequest) (string, error)
	DeleteWebhook(ctx context.Context, subAccountID uuid.UUID, id string) error
	PublicKey(ctx context.Context) (string, error)

	// JWT login flow.
	Login(ctx context.Context, email, password string) error
	ValidateLogin(ctx context.Context, email, emailToken string) (*Tokens, error)
	RefreshTokens(ctx context.Context, refreshToken string) (*Tokens, error)
}

// Authenticator adds credentials to a request that is about to be sent.
// body is the exact bytes of the request body (nil when there is none);
// req.URL.RequestURI() is exactly what goes on the wire.
type Authenticator interface {
	Authenticate(req *Request) error
}

// Request is what an Authenticator sees of an outgoing request.
type Request struct {
	Method     string
	RequestURI string // path plus "?query" exactly as sent
	Body       []byte
	Header     http.Header // set the credential headers here
}

// Reauthenticator is implemented by authenticators that can recover from a
// 401 (a JWT bearer that refreshes). The client calls Reauthenticate once,
// giving it the refresh call, and retries the request once when it returns nil.
type Reauthenticator interface {
	Authenticator
	Reauthenticate(ctx context.Context, refresh func(ctx context.Context, refreshToken string) (*Tokens, error)) error
}
