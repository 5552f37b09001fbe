package ui

import (
	"errors"
	"slices"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
)

// Action is something a screen may offer that needs a permission.
type Action int

// Actions the dashboard gates. Every write implies ActWrite's conditions.
const (
	ActWrite            Action = iota // any write at all
	ActCreateTicket                   // create a ticket (or park one for approval)
	ActPayOut                         // a ticket whose output leaves the account
	ActMarkup                         // a quote or ticket with a markup
	ActBeneficiary                    // create or delete beneficiaries
	ActApprove                        // approve or reject multi-signature operations
	ActCreateSubAccount               // create a sub-account
	ActManageWebhooks                 // register, change or delete webhooks
)

// Can reports whether the session may take the action now; the error says
// why not, in words fit for the header ("read-only session (--readonly)").
// What an access may pay is the payment core's rule (payment.Check); the
// dashboard adds its own read-only mode and the actions that are not
// payments.
func (s *Session) Can(a Action) error {
	if s.ReadOnly {
		return errors.New("read-only session (--readonly)")
	}
	acc := s.Access
	if acc == nil {
		return errors.New("access not loaded yet")
	}
	var need payment.Needs
	p := acc.AccountPermissions
	switch a {
	case ActCreateTicket:
		if !p.Convert && !p.PayIn && !p.PayOut && !p.OnChain {
			return errors.New("this access may not create tickets")
		}
	case ActPayOut:
		need.PayOut = true
	case ActMarkup:
		need.Markup = true
	}
	if err := s.CanPay(need); err != nil {
		return err
	}
	switch a {
	case ActBeneficiary:
		if !p.Beneficiary {
			return errors.New("this access lacks the beneficiary permission")
		}
	case ActApprove:
		if !p.OperationApprover {
			return errors.New("this access is not an approver")
		}
	case ActManageWebhooks:
		if !p.ManageWebhooks {
			return errors.New("this access lacks the manageWebhooks permission")
		}
	}
	return nil
}

// CanPay reports whether the session may make a payment with these needs
// on the operated account now: not in read-only mode, and allowed by the
// payment core's rule (payment.Check).
func (s *Session) CanPay(n payment.Needs) error {
	if s.ReadOnly {
		return errors.New("read-only session (--readonly)")
	}
	return payment.Check(s.Access, s.Account.ID, n, s.Now())
}

// Blacklisted reports whether the access is blacklisted from the operated
// account.
func (s *Session) Blacklisted() bool {
	return payment.Blacklisted(s.Access, s.Account.ID)
}

// PermissionNames lists the flags an access has, in words: "view only"
// first when it is view-only, "nothing" when it has none.
func PermissionNames(p api.Permissions) []string {
	flags := []struct {
		on   bool
		name string
	}{
		{p.ViewOnly, "view only"},
		{p.Admin, "admin"}, {p.PayIn, "payIn"}, {p.PayOut, "payOut"}, {p.Convert, "convert"},
		{p.OnChain, "onChain"}, {p.Markup, "markup"}, {p.Beneficiary, "beneficiary"},
		{p.OperationRequester, "requester"}, {p.OperationApprover, "approver"}, {p.ManageWebhooks, "manageWebhooks"}, {p.ManageAccesses, "manageAccesses"},
		{p.EnforceAllowedBeneficiaries, "allowed-beneficiaries-only"},
	}
	var out []string
	for _, f := range flags {
		if f.on {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		out = append(out, "nothing")
	}
	return out
}

// BlacklistNames names the accounts an access is blacklisted from: "main
// account", then each by its name among accounts, or by what unlisted makes
// of its id when it is not listed.
func BlacklistNames(a *api.AccessInfo, accounts []api.Account, unlisted func(uuid.UUID) string) []string {
	var names []string
	if a.IsMainAccountBlacklisted {
		names = append(names, "main account")
	}
	for _, id := range a.BlacklistedAccountIDs {
		name := unlisted(id)
		if i := slices.IndexFunc(accounts, func(acc api.Account) bool { return acc.ID == id }); i >= 0 && accounts[i].Name != "" {
			name = accounts[i].Name
		}
		names = append(names, name)
	}
	return names
}
