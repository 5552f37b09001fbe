package payment

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// Needs are the permission flags a payment needs (service.md §7.5), and
// whether it must pay a registered beneficiary.
type Needs struct {
	PayIn   bool // the input comes from outside: PIX, or a chain transfer in
	Convert bool // the input and output currencies differ
	OnChain bool // either side is a chain
	PayOut  bool // the output leaves the account
	Markup  bool // a markup applies
	// Inline is true when the payee is named inline (a PIX key, a BR Code,
	// bank fields, an address): refused to an access held to registered
	// beneficiaries.
	Inline bool
}

// Needs says which permissions the intent needs.
func (in Intent) Needs() Needs {
	rail, _ := in.Rail()
	n := Needs{
		PayIn:   strings.EqualFold(in.InMethod, "PIX") || money.IsChain(in.InMethod),
		Convert: money.Canonical(in.InCurrency) != money.Canonical(in.OutCurrency),
		OnChain: money.IsChain(in.InMethod) || money.IsChain(in.OutMethod),
		Markup:  in.Markup.Any(),
		Inline:  in.Pay.Kind.inline(),
	}
	switch rail.PayOut {
	case PayOutYes:
		n.PayOut = true
	case PayOutUnlessOwnWallet:
		n.PayOut = in.Pay.Kind != ToOwnWallet
	}
	// Funds moved to another account leave the one acted on.
	if in.Pay.Kind == ToAccount {
		n.PayOut = true
	}
	return n
}

// ErrDenied is wrapped by every refusal of Check.
var ErrDenied = errors.New("not allowed")

// DeniedError says why an access may not make a payment, naming the flag
// or the state at fault in the service's words.
type DeniedError struct {
	// Flag is the missing permission ("payOut", ...), or "viewOnly",
	// "frozen", "blacklisted", "enforceAllowedBeneficiaries".
	Flag string
	Msg  string
}

func (e *DeniedError) Error() string        { return e.Msg }
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }

func denied(flag, format string, args ...any) error {
	return &DeniedError{Flag: flag, Msg: fmt.Sprintf(format, args...)}
}

// Check decides whether the access may make a payment with these needs on
// account (uuid.Nil: the main account) at now: the first of Refusals, or
// nil. It is the one place the dashboard, the command line and batches
// learn what an access may pay; the service decides in the end.
func Check(a *api.AccessInfo, account uuid.UUID, n Needs, now time.Time) error {
	if r := Refusals(a, account, n, now); len(r) > 0 {
		return r[0]
	}
	return nil
}

// Refusals lists every reason the access may not make a payment with these
// needs on account at now (each a *DeniedError): the states that forbid
// every write first (view-only, frozen, blacklisted from the account),
// then each missing flag. A review shows them all at once.
func Refusals(a *api.AccessInfo, account uuid.UUID, n Needs, now time.Time) []error {
	if a == nil {
		return []error{denied("", "the access is not known yet: wait for it to load")}
	}
	var out []error
	if a.AccountPermissions.ViewOnly {
		out = append(out, denied("viewOnly", "this access is view-only"))
	}
	if a.Frozen(now) {
		out = append(out, denied("frozen", "this access is frozen until %s", a.FrozenUntil.Local().Format("2006-01-02 15:04")))
	}
	if Blacklisted(a, account) {
		out = append(out, denied("blacklisted", "this access is blacklisted from the operated account"))
	}
	p := a.AccountPermissions
	for _, f := range []struct {
		need, has bool
		flag, why string
	}{
		{n.PayIn, p.PayIn, "payIn", "money comes in from outside the service"},
		{n.Convert, p.Convert, "convert", "the currencies differ"},
		{n.OnChain, p.OnChain, "onChain", "a side is on a chain"},
		{n.PayOut, p.PayOut, "payOut", "the money leaves the account"},
		{n.Markup, p.Markup, "markup", "a markup applies"},
	} {
		if f.need && !f.has {
			out = append(out, denied(f.flag, "this access lacks the %s permission: %s", f.flag, f.why))
		}
	}
	if n.Inline && p.EnforceAllowedBeneficiaries {
		out = append(out, denied("enforceAllowedBeneficiaries", "this access may only pay registered beneficiaries: register the payee first (Beneficiaries, or tesouro beneficiaries)"))
	}
	return out
}

// CheckWrite decides whether the access may write at all on account: not
// view-only, not frozen at now, not blacklisted from the account.
func CheckWrite(a *api.AccessInfo, account uuid.UUID, now time.Time) error {
	return Check(a, account, Needs{}, now)
}

// Blacklisted reports whether the access may not act on account (uuid.Nil:
// the main account).
func Blacklisted(a *api.AccessInfo, account uuid.UUID) bool {
	if a == nil {
		return false
	}
	if account == uuid.Nil {
		return a.IsMainAccountBlacklisted
	}
	return slices.Contains(a.BlacklistedAccountIDs, account)
}
