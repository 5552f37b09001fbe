package api

import (
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// This file is the one place that knows how the service spells things on
// the wire: paths, envelope keys, time formats and the error body. Items
// marked [decided] are not documented by the service (spec/service.md says
// so); when the real service turns out to differ, change them here.
//
// Decided elsewhere, because they live with the code that uses them:
//   - signature encodings (auth_apikey.go, Sign): ECDSA as ASN.1 DER over
//     SHA-256 and Ed25519 over the unhashed message [decided];
//   - the bearer refresh (auth_bearer.go): one refresh per 401, the body
//     below [decided];
//   - ticket-list time filters carry fractional seconds when the time has
//     them (RFC 3339 allows it; the seed does not say).

// Paths. A trailing slash is kept exactly where the seed writes one: the
// API-key signature covers the path byte for byte, so the form sent is the
// form signed.
const (
	pathTickets           = "/v2/account/tickets/"
	pathQuote             = "/v2/account/quote/fixed-rate"
	pathApproverOps       = "/v2/account/multi-sig-operations/approver"
	pathOperations        = "/v2/account/multi-sig-operations/" // + id, + id/approve, + id/reject
	pathAccesses          = "/v2/auth/accesses"
	pathAccessInfo        = "/v2/account/access-info"
	pathAccounts          = "/v2/accounts"
	pathSubAccounts       = "/v2/account/sub-accounts"
	pathBalances          = "/v2/account/balances"
	pathMetadata          = "/v2/account/metadata"
	pathWallets           = "/v2/account/beneficiaries/wallets/"
	pathBRLAccounts       = "/v2/account/beneficiaries/bank-accounts/brl/"
	pathUSDAccounts       = "/v2/account/beneficiaries/bank-accounts/usd/"
	pathCOPAccounts       = "/v2/account/beneficiaries/bank-accounts/cop/"
	pathTrades            = "/v2/account/eod/trades"
	pathUBOs              = "/v2/account/ubos/"
	pathW8BEN             = "/v2/kyc/w8ben/"
	pathPoAAttempts       = "/v2/account/address/proof-of-address/attempts/"
	pathWebhookAttempts   = "/v2/notifications/webhooks/attempts"
	pathWebhooks          = "/v2/notifications/webhooks/"
	pathPublicKey         = "/v2/public-key"
	pathLogin             = "/v2/auth/login"
	pathValidateLogin     = "/v2/auth/validate-login"
	pathRefresh           = "/v2/auth/refresh"
	pathPaymentSession    = "/v2/payment-session/" // + id + "/create-ticket"
	pathSandboxFundTicket = "/v2/sandbox/tickets/" // + id + "/fund" (sandbox only)
)

// item appends one escaped path segment to a collection path that ends in
// a slash.
func item(collection, id string) string { return collection + url.PathEscape(id) }

// itemUUID is item for a UUID.
func itemUUID(collection string, id uuid.UUID) string { return collection + id.String() }

// Envelope keys of responses. The seed documents most of them; the rest are
// from the service's public documentation or [decided].
const (
	keyTickets      = "tickets"
	keyTicket       = "ticket"
	keyOperations   = "operations"
	keyOperation    = "operation" // [decided] approve, reject and the 202 of a parked ticket creation
	keyAccesses     = "accesses"
	keyAccounts     = "accounts" // [decided] GET /v2/accounts
	keySubAccounts  = "subAccount"
	keyBalances     = "balances"
	keyWallets      = "wallets"
	keyWallet       = "wallet"
	keyBRLAccounts  = "brlBankAccounts"
	keyBRLAccount   = "brlBankAccount"
	keyUSDAccounts  = "beneficiaryUsdBankAccount"
	keyUSDAccount   = "beneficiaryUsdBankAccount" // [decided] GET .../usd/{id}; the bare object is accepted too
	keyCOPAccounts  = "beneficiaryCopBankAccount" // [decided]
	keyTrades       = "trades"
	keyUBOs         = "ubos"
	keyW8BENs       = "w8bens"
	keyAttempts     = "attempts"
	keyEventAttempt = "eventAttempt"
	keyWebhooks     = "webhooks"
	keyWebhookID    = "webhookId"
	keyPublicKey    = "publicKey"
	keyID           = "id"
	keyCursor       = "cursor"
)

// Query parameter names.
const (
	qSubAccountID = "subAccountId"
	qCursor       = "cursor"
)

// Time filters: RFC 3339 on the ticket list, integer Unix seconds
// everywhere else (the seed documents both).
func ticketTimeParam(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
func unixTimeParam(t time.Time) string   { return strconv.FormatInt(t.Unix(), 10) }

// errorBody is the [decided] error shape of spec/service.md §4:
// {"error": {"code": "QUOTE_EXPIRED", "message": "human readable"}}.
type errorBody struct {
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	// Message is read when a proxy or another layer answers with a flat
	// {"message": "..."} instead of the documented shape.
	Message string `json:"message"`
}

// Error codes the client gives meaning to.
const (
	codeQuoteExpired = "QUOTE_EXPIRED"
)

// flatTicket is the flat creation response that one example of the
// service's guidance shows instead of {ticket}: {brCode, expiration, id}.
// The client then reads the full ticket by id.
type flatTicket struct {
	ID         uuid.UUID `json:"id"`
	BrCode     string    `json:"brCode"`
	Expiration Time      `json:"expiration"`
}

// refreshBody is the [decided] body of POST /v2/auth/refresh.
type refreshBody struct {
	RefreshToken string `json:"refreshToken"`
}

// loginBody is the body of POST /v2/auth/login.
type loginBody struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// validateLoginBody is the body of POST /v2/auth/validate-login.
type validateLoginBody struct {
	Email      string `json:"email"`
	EmailToken string `json:"emailToken"`
}

// rejectBody is the [decided] body of a rejection.
type rejectBody struct {
	Reason string `json:"reason"`
}

// ackBody is the body of PATCH /v2/notifications/webhooks/attempts.
type ackBody struct {
	IDs []string `json:"ids"`
}

// API-key header names (spec/service.md §2), in canonical MIME form so that
// they can be set without re-canonicalising on every request.
const (
	headerAPIKey    = "X-Api-Key"
	headerTimestamp = "X-Api-Timestamp"
	headerSignature = "X-Api-Signature"
)
