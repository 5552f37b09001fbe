package engine

import (
	"crypto/sha256"
	"slices"
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
	if old := st.accessByID[a.ID]; old != nil {
		st.replaceAccess(old, a)
		return
	}
	st.accesses = append(st.accesses, a)
	st.index(a)
}

func (st *state) index(a *Access) {
	st.accessByID[a.ID] = a
	if a.Revoked {
		return
	}
	st.accessByMail[strings.ToLower(a.Email)] = a
	if a.APIKey != "" {
		st.accessByKey[sha256.Sum256([]byte(a.APIKey))] = a
	}
}

// replaceAccess puts a in old's place: a request holding old keeps the
// copy it had, and the next one finds a.
func (st *state) replaceAccess(old, a *Access) {
	for i, x := range st.accesses {
		if x == old {
			st.accesses[i] = a
		}
	}
	if m := strings.ToLower(old.Email); st.accessByMail[m] == old {
		delete(st.accessByMail, m)
	}
	if old.APIKey != "" {
		if h := sha256.Sum256([]byte(old.APIKey)); st.accessByKey[h] == old {
			delete(st.accessByKey, h)
		}
	}
	st.index(a)
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

// PutAccess adds a, or puts it in place of the access of its id (a copy
// with other permissions, password or second factor, or revoked). The
// caller holds the lock for writing (Edit).
func (e *Engine) PutAccess(a *Access) { e.st.addAccess(a) }

// AccessByIDLocked is AccessByID for a caller holding the lock (Edit).
func (e *Engine) AccessByIDLocked(id uuid.UUID) *Access {
	if a := e.st.accessByID[id]; a != nil && !a.Revoked {
		return a
	}
	return nil
}

// AccessByMailLocked is AccessByMail for a caller holding the lock (Edit).
func (e *Engine) AccessByMailLocked(mail string) *Access {
	return e.st.accessByMail[strings.ToLower(mail)]
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
	if p := e.presentNow(); p != nil {
		return p.access(id)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.AccessByIDLocked(id)
}

// AccessByMail is the access of an e-mail (any case), or nil.
func (e *Engine) AccessByMail(mail string) *Access {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.accessByMail[strings.ToLower(mail)]
}

// Accesses are the accesses of the main account, in creation order
// (revoked ones left out).
func (e *Engine) Accesses() []*Access {
	all := e.st.accesses
	if p := e.presentNow(); p != nil {
		all = p.accessList
	} else {
		e.mu.RLock()
		defer e.mu.RUnlock()
	}
	out := make([]*Access, 0, len(all))
	for _, a := range all {
		if !a.Revoked {
			out = append(out, a)
		}
	}
	return out
}

// Main is the main account.
func (e *Engine) Main() *Account {
	if p := e.presentNow(); p != nil {
		return p.main
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.main
}

// SubAccounts are the main account's sub-accounts, in creation order.
func (e *Engine) SubAccounts() []*Account {
	if p := e.presentNow(); p != nil {
		return slices.Clone(p.subs)
	}
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
