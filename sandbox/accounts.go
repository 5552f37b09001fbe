package sandbox

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/validate"
)

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// GET /v2/account/access-info: the caller's own access.
func (s *Server) accessInfo(c *call) error {
	s.mu.RLock()
	a := c.who
	info := AccessInfo{
		Email:                    a.Email,
		MFAActivated:             a.MFAID != uuid.Nil,
		PricingSet:               true,
		PasswordUpdatedAt:        NewTime(a.PasswordAt),
		FrozenUntil:              NewTime(a.FrozenUntil),
		AccountPermissions:       a.Perms,
		BlacklistedAccountIDs:    []uuid.UUID{},
		IsMainAccountBlacklisted: a.MainBlacklisted,
	}
	for _, sub := range s.st.subs {
		if a.Blacklisted[sub.ID] {
			info.BlacklistedAccountIDs = append(info.BlacklistedAccountIDs, sub.ID)
		}
	}
	s.mu.RUnlock()
	return c.reply(http.StatusOK, info)
}

func accessView(a *access) Access {
	v := Access{
		ID: a.ID.String(), Email: a.Email, CreatedAt: fmtTime(a.CreatedAt), UpdatedAt: fmtTime(a.UpdatedAt),
		FrozenUntil: fmtTime(a.FrozenUntil), AccessPermission: a.Perms,
	}
	if a.MFAID != uuid.Nil {
		v.MFA = &MFA{ID: a.MFAID.String(), CreatedAt: fmtTime(a.CreatedAt), UpdatedAt: fmtTime(a.CreatedAt)}
	}
	return v
}

// GET /v2/auth/accesses: the accesses of the caller's main account.
func (s *Server) listAccesses(c *call) error {
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	s.mu.RLock()
	out := []Access{}
	for _, a := range s.st.accesses {
		if w.holds(a.CreatedAt) {
			out = append(out, accessView(a))
		}
	}
	s.mu.RUnlock()
	return c.reply(http.StatusOK, map[string]any{"accesses": out})
}

// GET /v2/accounts [decided]: every account the access may operate, main
// first.
func (s *Server) listAccounts(c *call) error {
	s.mu.RLock()
	out := []Account{}
	if !c.who.MainBlacklisted {
		m := s.st.main
		out = append(out, Account{ID: m.ID, Name: m.Name, AccountType: m.Type})
	}
	for _, a := range s.st.subs {
		if c.who.Blacklisted[a.ID] {
			continue
		}
		out = append(out, Account{ID: a.ID, Name: a.Name, AccountType: a.Type, MainAccountID: a.MainID.String()})
	}
	s.mu.RUnlock()
	return c.reply(http.StatusOK, map[string]any{"accounts": out})
}

func subAccountView(a *account) SubAccount {
	return SubAccount{
		SubAccountID: a.ID, MainAccountID: a.MainID, CreatedAt: NewTime(a.CreatedAt),
		AccountInfo: AccountInfo{ID: a.ID, AccountType: a.Type, Name: a.Name},
	}
}

// GET /v2/account/sub-accounts?name=&cursor=
func (s *Server) listSubAccounts(c *call) error {
	name := strings.ToLower(c.query.Get("name"))
	cursor := c.query.Get("cursor")
	s.mu.RLock()
	// Sub-accounts are few; they are paged through a series built on the fly.
	ser := newSeries[account]()
	for _, a := range s.st.subs {
		ser.add(a.CreatedAt, a.ID, a)
	}
	items, next, err := ser.page(cursor, pageSize, window{}, func(a *account) bool {
		return name == "" || strings.Contains(strings.ToLower(a.Name), name)
	})
	out := make([]SubAccount, 0, len(items))
	for _, a := range items {
		out = append(out, subAccountView(a))
	}
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"subAccount": out, "cursor": next})
}

// POST /v2/account/sub-accounts {accountType, name} -> {id}
func (s *Server) createSubAccount(c *call) error {
	var req CreateSubAccountRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	if err := validate.Required(req.Name); err != nil {
		return badRequest(codeMissingField, "name: %v", err)
	}
	if len(req.Name) > 100 {
		return badRequest(codeInvalidField, "name: at most 100 characters")
	}
	if req.AccountType != "INDIVIDUAL" && req.AccountType != "COMPANY" {
		return badRequest(codeInvalidField, "accountType: must be INDIVIDUAL or COMPANY, got %q", truncate(req.AccountType, 20))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.who.MainBlacklisted {
		return errf(http.StatusForbidden, codeBlacklisted, "this access is blacklisted from the main account")
	}
	for _, a := range s.st.subs {
		if strings.EqualFold(a.Name, req.Name) {
			return conflict("NAME_TAKEN", "name: a sub-account named %q already exists", a.Name)
		}
	}
	id := newID()
	a := newAccount(id, req.Name, req.AccountType, false, s.st.main.ID, c.now)
	a.PixKey = uuid.New().String()
	a.Wallet = walletFromID(id)
	s.st.addAccount(a)
	s.saveAccount(a)
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/account/balances[?subAccountId]
func (s *Server) balances(c *call) error {
	s.mu.RLock()
	acct, err := c.scope()
	if err != nil {
		s.mu.RUnlock()
		return err
	}
	out := make(map[string]string, len(acct.balances))
	for _, k := range slices.Sorted(maps.Keys(acct.balances)) {
		out[k] = acct.balances[k].StringFixed(6)
	}
	s.mu.RUnlock()
	return c.reply(http.StatusOK, map[string]any{"balances": out})
}
