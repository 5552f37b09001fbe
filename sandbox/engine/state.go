package engine

import (
	"crypto/sha256"
	"strings"
	"time"

	"github.com/google/uuid"
)

// state is what the engine keeps in memory. Engine.mu guards it.
type state struct {
	main     *Account
	subs     []*Account // creation order
	accounts map[uuid.UUID]*Account

	accesses     []*Access
	accessByID   map[uuid.UUID]*Access
	accessByKey  map[[32]byte]*Access // sha256 of the API key
	accessByMail map[string]*Access

	operations   *series[Operation]
	sessions     map[uuid.UUID]*Session
	minApprovals int32

	due dueQueue
}

func newState() *state {
	return &state{
		accounts:     map[uuid.UUID]*Account{},
		accessByID:   map[uuid.UUID]*Access{},
		accessByKey:  map[[32]byte]*Access{},
		accessByMail: map[string]*Access{},
		operations:   newSeries[Operation](),
		sessions:     map[uuid.UUID]*Session{},
		minApprovals: 2,
	}
}

func (st *state) addAccess(a *Access) {
	st.accesses = append(st.accesses, a)
	st.accessByID[a.ID] = a
	st.accessByMail[strings.ToLower(a.Email)] = a
	if a.APIKey != "" {
		st.accessByKey[sha256.Sum256([]byte(a.APIKey))] = a
	}
}

func (st *state) addAccount(a *Account) {
	st.accounts[a.ID] = a
	if a.Main {
		st.main = a
	} else {
		st.subs = append(st.subs, a)
	}
}

// AddAccess adds an access of the main account (the demo's, at start).
func (e *Engine) AddAccess(a *Access) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.st.addAccess(a)
}

// AccessByKey is the access of an API key, or nil. The lookup is by the
// key's hash, so that its timing says nothing about the key.
func (e *Engine) AccessByKey(key string) *Access {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.accessByKey[sha256.Sum256([]byte(key))]
}

// AccessByID is the access of an id, or nil.
func (e *Engine) AccessByID(id uuid.UUID) *Access {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.accessByID[id]
}

// AccessByMail is the access of an e-mail (any case), or nil.
func (e *Engine) AccessByMail(mail string) *Access {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.accessByMail[strings.ToLower(mail)]
}

// Accesses are the accesses of the main account, in creation order.
func (e *Engine) Accesses() []*Access {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return append([]*Access(nil), e.st.accesses...)
}

// Main is the main account.
func (e *Engine) Main() *Account {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.main
}

// SubAccounts are the main account's sub-accounts, in creation order.
func (e *Engine) SubAccounts() []*Account {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return append([]*Account(nil), e.st.subs...)
}

// Reaches refuses an account the access is blacklisted from.
func (a *Access) Reaches(acct *Account) error {
	if acct.Main && a.MainBlacklisted {
		return refuse(Forbidden, CodeBlacklisted, "this access is blacklisted from the main account")
	}
	if a.Blacklisted[acct.ID] {
		// The name is not told: a barred access is not shown it anywhere.
		return refuse(Forbidden, CodeBlacklisted, "this access is blacklisted from sub-account %s", acct.ID)
	}
	return nil
}

// MayWrite refuses a write by the access at now if it is view-only or
// frozen: the refusal of every write, and of a payment session's ticket,
// which is created with its opener's access.
func (a *Access) MayWrite(now time.Time) error {
	if a.Perms.ViewOnly {
		return forbidden("missing permission: this access is viewOnly and may not write")
	}
	if a.frozen(now) {
		return refuse(Forbidden, CodeFrozen, "this access is frozen until %s; no write is allowed", a.FrozenUntil.UTC().Format(time.RFC3339))
	}
	return nil
}
