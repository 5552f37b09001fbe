package sandbox

import (
	"crypto"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// account is the main account or one of its sub-accounts. Everything an
// account owns hangs off it, so no lookup can cross into another account.
type account struct {
	ID        uuid.UUID
	Name      string
	Type      string // INDIVIDUAL or COMPANY
	Main      bool
	MainID    uuid.UUID // the main account's id (itself for the main)
	CreatedAt time.Time
	// PixKey is the EVP key the account's BR Codes pay into.
	PixKey string
	// Wallet is the account's service wallet (EIP-55 checksummed): its
	// deposit address and the only valid markup wallet.
	Wallet string
	TaxID  string

	balances map[string]decimal.Decimal

	wallets *series[Wallet]
	brl     *series[BRLAccount]
	usd     *series[USDAccount]
	cop     *series[COPAccount]

	webhooks []*webhook
	events   *series[event]
	attempts *series[attempt]

	// Compliance and trades (routes in trades.go and compliance.go).
	trades *series[Trade]
	ubos   *series[UBO]
	w8bens *series[W8BEN]
	poa    *series[ProofOfAddressAttempt]

	// The live service's extra records (routes in liveapi.go).
	eur       *series[EURAccount]
	ars       *series[ARSAccount]
	documents *series[Document]
	kyc       *series[KYCAttempt]
}

func newAccount(id uuid.UUID, name, typ string, main bool, mainID uuid.UUID, created time.Time) *account {
	return &account{
		ID: id, Name: name, Type: typ, Main: main, MainID: mainID, CreatedAt: created,
		balances: map[string]decimal.Decimal{},
		wallets:  newSeries[Wallet](),
		brl:      newSeries[BRLAccount](),
		usd:      newSeries[USDAccount](),
		cop:      newSeries[COPAccount](),
		events:   newSeries[event](),
		attempts: newSeries[attempt](),
		trades:   newSeries[Trade](),
		ubos:     newSeries[UBO](),
		w8bens:   newSeries[W8BEN](),
		poa:      newSeries[ProofOfAddressAttempt](),

		eur:       newSeries[EURAccount](),
		ars:       newSeries[ARSAccount](),
		documents: newSeries[Document](),
		kyc:       newSeries[KYCAttempt](),
	}
}

// subAccountID is the value of the subAccountId query that selects the
// account ("" for the main account).
func (a *account) subAccountID() string {
	if a.Main {
		return ""
	}
	return a.ID.String()
}

// access is a login on the main account, with its key and permissions.
type access struct {
	ID          uuid.UUID
	Name        string // demo name ("operator")
	Email       string
	Perms       Permissions
	CreatedAt   time.Time
	UpdatedAt   time.Time
	FrozenUntil time.Time
	PasswordAt  time.Time
	MFAID       uuid.UUID

	KeyType       string // ed25519, ecdsa, rsa
	APIKey        string
	PrivateKeyPEM string
	pub           crypto.PublicKey
	Password      string
	EmailToken    string

	Blacklisted     map[uuid.UUID]bool // sub-accounts this access may not touch
	MainBlacklisted bool
}

func (a *access) frozen(now time.Time) bool { return a.FrozenUntil.After(now) }

// ticket is a ticket read from the database: its public view plus what the
// lifecycle needs. It is a copy: a change is stored with saveTicket.
type ticket struct {
	Ticket
	acct     *account
	accessID uuid.UUID
	q        quoteClaims
	// output beneficiary, checked again at delivery
	outKind string // "brl", "wallet", "usd", "cop", "own", "internal"
	outID   uuid.UUID
	// lifecycle schedule (zero: nothing scheduled)
	fundAt  time.Time
	payAt   time.Time
	debited decimal.Decimal // INTERNAL input taken at creation
	// held is the funded input credited to the balance (as its token) until
	// the output is delivered.
	held decimal.Decimal
	// failReason makes the delivery fail (demo history).
	failReason string
	// stored is the ticket's JSON as last written or read (its detail
	// column), which answers about it are made of.
	stored []byte
}

// operation is a parked multi-signature request.
type operation struct {
	ID           uuid.UUID
	Requester    *access
	Acct         *account
	Status       OperationStatus
	CreatedAt    time.Time
	ExpiresAt    time.Time
	Payload      json.RawMessage
	req          ticketRequest
	q            quoteClaims
	approvals    map[uuid.UUID]bool
	ExecutedID   string
	Reason       string
	DecidedAt    time.Time
	MinApprovals int32
	// RejectedBy is the e-mail of the approver who rejected it [decided].
	RejectedBy string
}

// webhook is a registered delivery target of one account.
type webhook struct {
	ID            uuid.UUID
	URL           string
	Subscriptions []string
	CreatedAt     time.Time
}

// event is one recorded notification (a ticket transition).
type event struct {
	ID           uuid.UUID
	Subscription string
	Status       string
	DataID       uuid.UUID
	CreatedAt    time.Time
}

// attempt is one delivery of an event to a webhook.
type attempt struct {
	WebhookAttempt
}
