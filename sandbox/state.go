package sandbox

import (
	"crypto/sha256"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
)

// state is what the sandbox keeps in memory. Server.mu guards it.
type state struct {
	main     *account
	subs     []*account // creation order
	accounts map[uuid.UUID]*account

	accesses     []*access
	accessByID   map[uuid.UUID]*access
	accessByKey  map[[32]byte]*access // sha256 of the API key
	accessByMail map[string]*access

	operations   *series[operation]
	sessions     map[uuid.UUID]*paymentSession
	minApprovals int32

	due dueQueue

	// JWT login flow: e-mails with a login waiting for its token, and
	// refresh tokens already used (rotation).
	pendingLogins map[uuid.UUID]time.Time
	usedRefresh   map[string]time.Time
}

func newState() *state {
	return &state{
		accounts:      map[uuid.UUID]*account{},
		accessByID:    map[uuid.UUID]*access{},
		accessByKey:   map[[32]byte]*access{},
		accessByMail:  map[string]*access{},
		operations:    newSeries[operation](),
		sessions:      map[uuid.UUID]*paymentSession{},
		minApprovals:  2,
		pendingLogins: map[uuid.UUID]time.Time{},
		usedRefresh:   map[string]time.Time{},
	}
}

func (st *state) addAccess(a *access) {
	st.accesses = append(st.accesses, a)
	st.accessByID[a.ID] = a
	st.accessByMail[strings.ToLower(a.Email)] = a
	if a.APIKey != "" {
		st.accessByKey[sha256.Sum256([]byte(a.APIKey))] = a
	}
}

func (st *state) addAccount(a *account) {
	st.accounts[a.ID] = a
	if a.Main {
		st.main = a
	} else {
		st.subs = append(st.subs, a)
	}
}

// scope resolves the account a request operates: the main account, or the
// sub-account named by subAccountId. The caller holds s.mu. An access never
// reaches an account outside its main account, nor one it is blacklisted
// from.
func (c *call) scope() (*account, error) {
	st := c.s.st
	raw := c.query.Get("subAccountId")
	var acct *account
	if raw == "" {
		acct = st.main
	} else {
		id, err := uuid.Parse(raw)
		if err != nil {
			return nil, badRequest(codeInvalidField, "subAccountId %q is not a UUID", truncate(raw, 40))
		}
		a, ok := st.accounts[id]
		if !ok || a.MainID != st.main.ID {
			return nil, notFound("sub-account", id)
		}
		acct = a
	}
	if c.who != nil {
		if err := c.who.reaches(acct); err != nil {
			return nil, err
		}
	}
	return acct, nil
}

// reaches refuses an account the access is blacklisted from.
func (a *access) reaches(acct *account) error {
	if acct.Main && a.MainBlacklisted {
		return errf(http.StatusForbidden, codeBlacklisted, "this access is blacklisted from the main account")
	}
	if a.Blacklisted[acct.ID] {
		return errf(http.StatusForbidden, codeBlacklisted, "this access is blacklisted from sub-account %s (%s)", acct.ID, acct.Name)
	}
	return nil
}

// writable refuses writes by view-only and frozen accesses.
func (c *call) writable() error {
	if c.who == nil {
		return nil
	}
	return c.who.mayWrite(c.now)
}

// mayWrite refuses a write by the access at now if it is view-only or
// frozen: the refusal of every write route, and of a payment session's
// ticket, which is created with its opener's access.
func (a *access) mayWrite(now time.Time) error {
	if a.Perms.ViewOnly {
		return forbidden("missing permission: this access is viewOnly and may not write")
	}
	if a.frozen(now) {
		return errf(http.StatusForbidden, codeFrozen, "this access is frozen until %s; no write is allowed", a.FrozenUntil.UTC().Format(time.RFC3339))
	}
	return nil
}
