package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// FormatTime is a time as the service's records write it: RFC 3339 with
// fractional seconds in UTC, "" when zero.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func fmtTime(t time.Time) string { return FormatTime(t) }

// The identityStatus values (§7.4).
const (
	IdentityNotIdentified = "NOT-IDENTIFIED"
	IdentityConfirmed     = "CONFIRMED"
)

// Identity is who an account is, as far as the service verified it.
type Identity struct {
	CountryTaxResidence, CountrySubdivisionTaxResidence string
	Status                                              string // IdentityConfirmed or IdentityNotIdentified
	FullName, Birthdate, TaxID                          string
}

// identity is an account's identity: demo accounts are verified; a new
// sub-account is once a KYC attempt of it is approved. The caller holds
// e.mu.
func identity(a *Account) Identity {
	info := Identity{
		CountryTaxResidence: "BRA", CountrySubdivisionTaxResidence: "BR-SP",
		Status: IdentityNotIdentified, FullName: a.Name, TaxID: a.TaxID,
	}
	if a.TaxID != "" {
		info.Status = IdentityConfirmed
	}
	for _, k := range a.kyc.all() {
		if k.Result == "APPROVED" {
			info.Status = IdentityConfirmed
			if name, ok := k.SubmissionData["fullName"].(string); ok {
				info.FullName = name
			}
			if b, ok := k.SubmissionData["dateOfBirth"].(string); ok {
				info.Birthdate = b
			}
			if t, ok := k.SubmissionData["taxIdNumber"].(string); ok && info.TaxID == "" {
				info.TaxID = t
			}
		}
	}
	return info
}

// staticCode is the BR Code paying the account's PIX key.
func staticCode(a *Account, amount decimal.Decimal, label string) (string, error) {
	return brcode.Encode(brcode.Payload{Key: a.PixKey, Amount: amount, MerchantName: merchantName(a.Name), MerchantCity: "SAO PAULO", TxID: label})
}

// AccountDetails is the operated account with its identity and the
// static BR Code that pays into it (§7.4).
func (e *Engine) AccountDetails(c Caller) (*Account, Identity, string, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	a, err := e.scope(c)
	if err != nil {
		return nil, Identity{}, "", err
	}
	code, err := staticCode(a, decimal.Zero, "")
	if err != nil {
		return nil, Identity{}, "", fmt.Errorf("static BR Code of %s: %w", a.ID, err)
	}
	return a, identity(a), code, nil
}

// SubAccount is a sub-account the caller may see, with its identity.
func (e *Engine) SubAccount(c Caller, id uuid.UUID) (*Account, Identity, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	a, ok := e.st.accounts[id]
	if !ok || a.Main || c.Access.Blacklisted[a.ID] {
		return nil, Identity{}, notFound("sub-account", id)
	}
	return a, identity(a), nil
}

// StaticBrCode is a BR Code paying amount (zero: any) into the operated
// account, labelled.
func (e *Engine) StaticBrCode(c Caller, amount decimal.Decimal, label string) (string, error) {
	e.mu.RLock()
	a, err := e.scope(c)
	e.mu.RUnlock()
	if err != nil {
		return "", err
	}
	code, err := staticCode(a, amount, label)
	if err != nil {
		return "", badRequest(CodeInvalidField, "referenceLabel: %v", err)
	}
	return code, nil
}

// SubAccountPage is a page of the sub-accounts the caller's access may see
// whose name contains name (any case), newest first: a list hides a
// sub-account the access is barred from, as /v2/accounts does.
func (e *Engine) SubAccountPage(c Caller, name, cursor string) ([]*Account, string, error) {
	name = strings.ToLower(name)
	e.mu.RLock()
	defer e.mu.RUnlock()
	// Sub-accounts are few; they are paged through a series built on the fly.
	ser := newSeries[Account]()
	for _, a := range e.st.subs {
		ser.add(a.CreatedAt, a.ID, a)
	}
	return ser.page(cursor, PageSize, Window{}, func(a *Account) bool {
		return (name == "" || strings.Contains(strings.ToLower(a.Name), name)) && (c.Access == nil || c.Access.Reaches(a) == nil)
	})
}

// CreateSubAccount opens a sub-account of the main account, named name
// (checked by the caller) and of type typ.
func (e *Engine) CreateSubAccount(c Caller, name, typ string) (uuid.UUID, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c.Access.MainBlacklisted {
		return uuid.Nil, refuse(Forbidden, CodeBlacklisted, "this access is blacklisted from the main account")
	}
	for _, a := range e.st.subs {
		if strings.EqualFold(a.Name, name) {
			return uuid.Nil, conflict(CodeNameTaken, "name: a sub-account named %q already exists", a.Name)
		}
	}
	id := uuid.New()
	a := newAccount(id, name, typ, false, e.st.main.ID, c.Now)
	a.PixKey = uuid.New().String()
	a.Wallet = WalletAddress(id)
	e.st.addAccount(a)
	e.saveAccount(a)
	return id, nil
}

// Balance is what an account holds of one currency.
type Balance struct {
	Currency string
	Amount   decimal.Decimal
}

// Metadata is which fiat rails the operated account may use (§8.7).
func (e *Engine) Metadata(c Caller) (records.AccountMetadata, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return records.AccountMetadata{}, err
	}
	return acct.metadata, nil
}

// railRefusal refuses a quote or ticket that pays in or out on a fiat
// rail the account may not use (403 RAIL_LOCKED, §8.7). The caller holds
// e.mu.
func railRefusal(acct *Account, in, inMethod, out, outMethod string) error {
	for _, side := range []struct{ cur, method, field string }{{in, inMethod, "inputCurrency"}, {out, outMethod, "outputCurrency"}} {
		if open := acct.metadata.Rail(side.cur); open != nil && !*open {
			return refuse(Forbidden, CodeRailLocked, "%s: the %s rail (%s) is locked for this account (GET /v2/account/metadata says %sUnlocked false); use another account or ask for the rail to be unlocked",
				side.field, side.cur, side.method, strings.ToLower(side.cur))
		}
	}
	return nil
}

// listedTokens are the tokens a balance list always names, zero included;
// USDCe is listed where held (§8.2).
var listedTokens = []string{"BRLA", "USDC", "USDT", "USDM", "EURC"}

// Balances are the operated account's balances, by currency: every token
// of listedTokens, and whatever else the account holds.
// While the demo history is built they are the present's (present.go).
func (e *Engine) Balances(c Caller) ([]Balance, error) {
	if p := e.presentNow(); p != nil {
		// The accounts and accesses scope reads are not changed by
		// the history.
		acct, err := e.scope(c)
		if err != nil {
			return nil, err
		}
		if out, ok := p.balancesAt(acct, c.Now); ok {
			return out, nil
		}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	return balanceList(acct.balances), nil
}

// WalletAddress is the service wallet of the account id: a stable EIP-55
// address derived from the id.
func WalletAddress(id uuid.UUID) string {
	h := sha256.Sum256(append([]byte("tesouro-sandbox-wallet/"), id[:]...))
	addr, _, err := validate.EVMAddress("0x" + hex.EncodeToString(h[:20]))
	if err != nil {
		return "0x" + hex.EncodeToString(h[:20])
	}
	return addr
}
