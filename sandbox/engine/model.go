package engine

import (
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Account is the main account or one of its sub-accounts. Everything an
// account owns hangs off it, so no lookup can cross into another account.
// Its exported fields do not change once it is made; what it holds is
// read and changed through the engine, under its lock.
type Account struct {
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
	// metadata is which fiat rails it may use (§8.7).
	metadata records.AccountMetadata

	wallets *series[records.Wallet]
	brl     *series[records.BRLAccount]
	usd     *series[records.USDAccount]
	cop     *series[records.COPAccount]

	webhooks []*Webhook
	attempts *series[records.WebhookAttempt]

	// Compliance and trades (trades.go and compliance.go).
	trades *series[records.Trade]
	ubos   *series[records.UBO]
	w8bens *series[records.W8BEN]
	poa    *series[records.ProofOfAddressAttempt]

	// The live service's extra records (§7.4).
	eur       *series[records.EURAccount]
	ars       *series[records.ARSAccount]
	documents *series[records.Document]
	kyc       *series[records.KYCAttempt]

	// settings are its e-mail notifications, session preferences and
	// used KYC import tokens (settings.go).
	settings accountSettings
}

func newAccount(id uuid.UUID, name, typ string, main bool, mainID uuid.UUID, created time.Time) *Account {
	return &Account{
		ID: id, Name: name, Type: typ, Main: main, MainID: mainID, CreatedAt: created,
		balances: map[string]decimal.Decimal{},
		metadata: records.Unlocked(),
		wallets:  newSeries[records.Wallet](),
		brl:      newSeries[records.BRLAccount](),
		usd:      newSeries[records.USDAccount](),
		cop:      newSeries[records.COPAccount](),
		attempts: newSeries[records.WebhookAttempt](),
		trades:   newSeries[records.Trade](),
		ubos:     newSeries[records.UBO](),
		w8bens:   newSeries[records.W8BEN](),
		poa:      newSeries[records.ProofOfAddressAttempt](),

		eur:       newSeries[records.EURAccount](),
		ars:       newSeries[records.ARSAccount](),
		documents: newSeries[records.Document](),
		kyc:       newSeries[records.KYCAttempt](),
	}
}

// SubAccountID is the subAccountId that selects the account ("" for the
// main account).
func (a *Account) SubAccountID() string {
	if a.Main {
		return ""
	}
	return a.ID.String()
}

// Access is a login on the main account, with its key and permissions.
// Its fields are set when it is made and changed only under Edit.
type Access struct {
	ID          uuid.UUID
	Name        string // demo name ("operator")
	Email       string
	Perms       records.Permissions
	CreatedAt   time.Time
	UpdatedAt   time.Time
	FrozenUntil time.Time
	PasswordAt  time.Time
	MFAID       uuid.UUID

	KeyType       string // ed25519, ecdsa, rsa
	APIKey        string
	PrivateKeyPEM string
	PublicKey     crypto.PublicKey // verifies the API key's signatures
	Password      string
	EmailToken    string
	// TOTPSecret is the access's RFC 6238 secret; it is active while
	// MFAID is set.
	TOTPSecret []byte
	// Revoked accesses stay known by id (the records they made name them)
	// but authenticate no more and are listed nowhere.
	Revoked bool

	Blacklisted     map[uuid.UUID]bool // sub-accounts this access may not touch
	MainBlacklisted bool
}

func (a *Access) frozen(now time.Time) bool { return a.FrozenUntil.After(now) }

// ticket is a ticket read from the database: its public view plus what the
// lifecycle needs. It is a copy: a change is stored with saveTicket.
type ticket struct {
	records.Ticket
	acct     *Account
	accessID uuid.UUID
	q        QuoteClaims
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

// Operation is a parked multi-signature request.
type Operation struct {
	ID           uuid.UUID
	Requester    *Access
	Acct         *Account
	Status       records.OperationStatus
	CreatedAt    time.Time
	ExpiresAt    time.Time
	Payload      json.RawMessage
	req          TicketRequest
	q            QuoteClaims
	approvals    map[uuid.UUID]bool
	ExecutedID   string
	Reason       string
	DecidedAt    time.Time
	MinApprovals int32
	// RejectedBy is the e-mail of the approver who rejected it [decided].
	RejectedBy string
}

// Webhook is a registered delivery target of one account, stored as is
// among the account's records (its fields' names are its stored form).
type Webhook struct {
	ID            uuid.UUID
	URL           string
	Subscriptions []string
	CreatedAt     time.Time
	// Owner is the access that registered it, which alone may change or
	// delete it and whose reach bounds what it hears; nil for a webhook
	// of the account itself (the demo's).
	Owner uuid.UUID
}

// Event is one recorded notification (a ticket transition, a KYC
// attempt's outcome) of an account.
type Event struct {
	ID           uuid.UUID
	Account      *Account
	Subscription string
	Status       string
	DataID       string // the ticket's or the attempt's id
	CreatedAt    time.Time
	// Record is what the event is about as it reads now (the ticket's or
	// the KYC attempt's JSON), nil when it is gone.
	Record json.RawMessage
}

// passwordHashPrefix marks a password kept as a salted SHA-256 (one a
// person set); the demo accesses' published passwords are kept as given.
const passwordHashPrefix = "sha256$"

// HashPassword keeps a password a person set: a random salt and the
// SHA-256 of salt and password.
func HashPassword(pw string) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	sum := sha256.Sum256(append(append([]byte{}, salt...), pw...))
	return passwordHashPrefix + hex.EncodeToString(salt) + "$" + hex.EncodeToString(sum[:])
}

// PasswordIs reports whether pw is the access's password. An access with
// no password yet (an invitation not validated) has none that matches.
func (a *Access) PasswordIs(pw string) bool {
	if a.Password == "" || pw == "" {
		return false
	}
	rest, hashed := strings.CutPrefix(a.Password, passwordHashPrefix)
	if !hashed {
		return subtle.ConstantTimeCompare([]byte(a.Password), []byte(pw)) == 1
	}
	saltHex, sumHex, ok := strings.Cut(rest, "$")
	salt, err1 := hex.DecodeString(saltHex)
	want, err2 := hex.DecodeString(sumHex)
	if !ok || err1 != nil || err2 != nil {
		return false
	}
	got := sha256.Sum256(append(salt, pw...))
	return subtle.ConstantTimeCompare(got[:], want) == 1
}
