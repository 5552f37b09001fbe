// Package engine is the service's rules, with its own types: pricing and
// fees (quotes.go), the planning of a ticket from its request and quote
// (plan.go, outputs.go, rules.go) and its lifecycle (lifecycle.go,
// states.go), the ledger and balances (ledger.go), limits, permissions,
// multi-signature operations (multisig.go), payment sessions, webhook
// events and their delivery attempts (webhooks.go), beneficiaries,
// compliance records and end-of-day trades; the demo history is built
// through it (history.go), and what a client asks first is answered
// from the present the history ends in while it is built (present.go).
//
// It keeps the accounts, accesses and their small collections in memory
// and everything in the store, under the store's lock: a write is one
// transaction, committed before the operation returns. It knows nothing of
// HTTP: a surface calls its operations with a Caller (the access, the
// sub-account asked for, the request's clock reading) and turns a
// *Refusal into its own answer. Each operation checks what the service
// checks, in the order it checks it; where the contract has a surface
// refuse before it reads a request's body (a read-only access writing,
// say), the engine exports the check for the surface to ask first.
package engine

import (
	"crypto/rand"
	"math"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// Config configures an engine.
type Config struct {
	Now   func() time.Time // nil: time.Now
	Speed float64          // lifecycle speed factor (0 means 1)
	// Batch is how late a request may leave the lifecycle's due
	// transitions to the next one (each is still applied at its own
	// scheduled time), so that under load they are applied in batches,
	// a transaction for many, rather than one by one by each request.
	// Only for the real clock: with an injected one, 0, so that a
	// request sees exactly what is due at its reading.
	Batch time.Duration
}

// Engine is the service's rules over one store.
type Engine struct {
	// mu guards st and everything reachable from it; its write side is
	// the store's transaction.
	mu    stateLock
	st    *state
	db    *store.Store
	dirty map[*Account]bool // accounts whose small collections changed under mu

	clock func() time.Time
	speed float64
	batch int64 // Config.Batch, ns

	// quoteKey seals the quote tokens this engine issues.
	quoteKey []byte

	// nextDue is the UnixNano of the earliest scheduled transition, so that
	// requests only take the write lock when something is due.
	nextDue atomic.Int64
	// realClock is true when the clock is the wall clock (Config.Now
	// nil): the sweeper then sleeps until the next transition is due;
	// wake tells it that one was scheduled earlier than it sleeps to.
	realClock bool
	wake      chan struct{}

	// seed is set only while a demo history is built (History): ids and
	// hashes then come from it.
	seed    Source
	seedNow time.Time // the history's "now", while seed is set
	// seedErr is a defect of the demo data, reported by every request.
	seedErr error
	// present is what is answered while a history is built (present.go).
	present atomic.Pointer[present]

	outbox *Outbox

	// usage keeps each account's month usage (limits.go) until a ticket
	// is written.
	usage usageMemo
}

// New makes an engine over db, with no account yet.
func New(db *store.Store, cfg Config) *Engine {
	e := &Engine{db: db, clock: cfg.Now, speed: cfg.Speed, batch: int64(max(cfg.Batch, 0)), st: newState(), outbox: newOutbox(), wake: make(chan struct{}, 1)}
	if e.clock == nil {
		e.clock, e.realClock = time.Now, true
	}
	if e.speed == 0 {
		e.speed = 1
	}
	e.quoteKey = make([]byte, 32)
	_, _ = rand.Read(e.quoteKey)
	e.nextDue.Store(math.MaxInt64)
	e.mu.e = e
	return e
}

// Now is the engine's clock in UTC.
func (e *Engine) Now() time.Time { return e.clock().UTC() }

func (e *Engine) now() time.Time { return e.Now() }

// Seeded waits until the demo history is built (under the write lock)
// and reports a defect of it.
func (e *Engine) Seeded() error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.seedErr
}

// Edit runs f with the lock held for writing, for tools and tests that
// change accounts and accesses in place; what f changes of an account's
// small collections is stored only if it says so with Changed.
func (e *Engine) Edit(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

// Changed says that one of acct's small collections was changed in
// place under Edit.
func (e *Engine) Changed(acct *Account) { e.changed(acct) }

// stateLock is the store's lock over what the engine keeps in memory as
// well: the small collections of the accounts changed under it are written
// before it is released, so that they are in the transaction it commits.
type stateLock struct{ e *Engine }

func (l *stateLock) RLock()   { l.e.db.RLock() }
func (l *stateLock) RUnlock() { l.e.db.RUnlock() }
func (l *stateLock) Lock()    { l.e.db.Lock() }

func (l *stateLock) Unlock() {
	if len(l.e.dirty) > 0 {
		l.e.flushRecords()
	}
	l.e.db.Unlock()
}

// Caller is who asks an operation, for which account, and when: the
// access (nil on the interface's public paths), the subAccountId asked for
// ("" for the main account), and the clock reading of the request.
type Caller struct {
	Access *Access
	Sub    string
	Now    time.Time
}

// scope resolves the account a call operates: the main account, or the
// sub-account named by Sub. The caller holds e.mu. An access never
// reaches an account outside its main account, nor one it is blacklisted
// from.
func (e *Engine) scope(c Caller) (*Account, error) {
	st := e.st
	var acct *Account
	if c.Sub == "" {
		acct = st.main
	} else {
		id, err := uuid.Parse(c.Sub)
		if err != nil {
			return nil, badRequest(CodeInvalidField, "subAccountId %q is not a UUID", truncate(c.Sub, 40))
		}
		a, ok := st.accounts[id]
		if !ok || a.MainID != st.main.ID {
			return nil, notFound("sub-account", id)
		}
		acct = a
	}
	if c.Access != nil {
		if err := c.Access.Reaches(acct); err != nil {
			return nil, err
		}
	}
	return acct, nil
}

// writable refuses writes by view-only and frozen accesses (nil, a
// public path's caller, may write what its path allows).
func (c Caller) writable() error {
	if c.Access == nil {
		return nil
	}
	return c.Access.MayWrite(c.Now)
}

// Failed is why the engine stopped answering, or nil: once a commit
// failed, what it holds in memory is not what is stored.
func (e *Engine) Failed() error { return e.db.Failed() }

// WriteBegun counts a write request from its first byte, WriteEnded once
// it is answered: the store keeps a transaction open a moment for the
// writes in flight, so that they share its commit.
func (e *Engine) WriteBegun() { e.db.WriteBegun() }

// WriteEnded is the end of a write request counted by WriteBegun.
func (e *Engine) WriteEnded() { e.db.WriteEnded() }
