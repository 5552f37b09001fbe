package ui

import (
	"context"
	"log"
	"slices"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// The accounts list of the service holds only what the access may operate:
// a sub-account it is blacklisted from is left out, and the sub-accounts
// list hides it too (the service does not name to an access what it is
// barred from). The switcher shows, disabled, the sub-accounts the
// accounts list left out: those the sub-accounts call names, and those
// the access-info says it is blacklisted from, known by id only.

// subAccountLister is the optional call that names every sub-account.
type subAccountLister interface {
	ListSubAccounts(ctx context.Context, f api.SubAccountFilter) (api.Page[api.SubAccount], error)
}

// maxBarredPages bounds the sub-account pages read for the switcher.
const maxBarredPages = 20

// barredAccounts are the sub-accounts c names that listed does not hold,
// in the service's order. A client without the call, or a failure, gives
// none (withBlacklisted adds those the access-info names).
func barredAccounts(ctx context.Context, c Client, listed []api.Account) []api.Account {
	sl, ok := c.(subAccountLister)
	if !ok {
		return nil
	}
	var out []api.Account
	cursor := ""
	for range maxBarredPages {
		p, err := sl.ListSubAccounts(ctx, api.SubAccountFilter{Cursor: cursor})
		if err != nil {
			log.Printf("list sub-accounts for the switcher: %v", err)
			return out
		}
		for _, s := range p.Items {
			if !slices.ContainsFunc(listed, func(a api.Account) bool { return a.ID == s.SubAccountID }) {
				out = append(out, api.Account{ID: s.SubAccountID, Name: s.AccountInfo.Name, AccountType: s.AccountInfo.AccountType, MainAccountID: s.MainAccountID.String()})
			}
		}
		if p.Cursor == "" {
			break
		}
		cursor = p.Cursor
	}
	return out
}

// withBlacklisted is barred and, after it, the sub-accounts the session's
// access-info says it is blacklisted from that neither barred nor listed
// holds, named by their id (the service names them to no barred access).
func withBlacklisted(barred, listed []api.Account, s *Session) []api.Account {
	out := slices.Clone(barred)
	if s == nil || s.Access == nil {
		return out
	}
	// A sub-account names its main account (an entry without one reads
	// as the main account itself).
	main := "main"
	for _, a := range listed {
		if a.MainAccountID != "" {
			main = a.MainAccountID
			break
		}
	}
	for _, id := range s.Access.BlacklistedAccountIDs {
		has := func(a api.Account) bool { return a.ID == id }
		if !slices.ContainsFunc(listed, has) && !slices.ContainsFunc(out, has) {
			out = append(out, api.Account{ID: id, Name: id.String(), MainAccountID: main})
		}
	}
	return out
}

// unoperable is the message for choosing an account that cannot be
// operated, for the reason the switcher shows.
func unoperable(name, reason string) string {
	if reason == "blacklisted" {
		return name + " cannot be operated: this access is blacklisted from it"
	}
	return name + " cannot be operated: it is " + reason
}

// barredReason says why a sub-account the list left out cannot be operated.
func barredReason(s *Session, id uuid.UUID) string {
	if s.Access != nil && slices.Contains(s.Access.BlacklistedAccountIDs, id) {
		return "blacklisted"
	}
	return "not available to this access"
}
