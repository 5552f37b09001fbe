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
	BlockchainSendMethod string // PERMIT or TRANSFER; "" sends PERMIT for a token input (§8.4)
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
	CreatedAfter   time.Time
	CreatedBefore  time.Time
	Cursor         string
	WebhookEventID string
	UnackedOnly    bool
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
