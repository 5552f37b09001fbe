package httpapi

import (
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Accounts and accesses: the caller's own access, the accesses and
// accounts of its main account, sub-accounts, balances and the account's
// identity and static BR Code.

// GET /v2/account/access-info: the caller's own access.
func (s *Server) accessInfo(c *call) error {
	a := c.who
	info := AccessInfo{
		Email:                    a.Email,
		MFAActivated:             a.MFAID != uuid.Nil,
		PricingSet:               true,
		PasswordUpdatedAt:        records.NewTime(a.PasswordAt),
		FrozenUntil:              records.NewTime(a.FrozenUntil),
		AccountPermissions:       a.Perms,
		BlacklistedAccountIDs:    []uuid.UUID{},
		IsMainAccountBlacklisted: a.MainBlacklisted,
	}
	for _, sub := range s.eng.SubAccounts() {
		if a.Blacklisted[sub.ID] {
			info.BlacklistedAccountIDs = append(info.BlacklistedAccountIDs, sub.ID)
		}
	}
	return c.reply(http.StatusOK, info)
}

func accessView(a *engine.Access) Access {
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
	out := []Access{}
	for _, a := range s.eng.Accesses() {
		if w.Holds(a.CreatedAt) {
			out = append(out, accessView(a))
		}
	}
	return c.reply(http.StatusOK, map[string]any{"accesses": out})
}

// GET /v2/accounts [decided]: every account the access may operate, main
// first.
func (s *Server) listAccounts(c *call) error {
	out := []Account{}
	if !c.who.MainBlacklisted {
		m := s.eng.Main()
		out = append(out, Account{ID: m.ID, Name: m.Name, AccountType: m.Type})
	}
	for _, a := range s.eng.SubAccounts() {
		if c.who.Blacklisted[a.ID] {
			continue
		}
		out = append(out, Account{ID: a.ID, Name: a.Name, AccountType: a.Type, MainAccountID: a.MainID.String()})
	}
	return c.reply(http.StatusOK, map[string]any{"accounts": out})
}

func subAccountView(a *engine.Account) SubAccount {
	return SubAccount{
		SubAccountID: a.ID, MainAccountID: a.MainID, CreatedAt: records.NewTime(a.CreatedAt),
		AccountInfo: AccountInfo{ID: a.ID, AccountType: a.Type, Name: a.Name},
	}
}

// accountInfo is the full accountInfo of an account (§7.4).
func accountInfo(a *engine.Account, id engine.Identity) AccountInfo {
	return AccountInfo{
		ID: a.ID, AccountType: a.Type, Name: a.Name, CountryTaxResidence: id.CountryTaxResidence,
		CountrySubdivisionTaxResidence: id.CountrySubdivisionTaxResidence, IdentityStatus: id.Status,
		FullName: id.FullName, Birthdate: id.Birthdate, TaxID: id.TaxID,
	}
}

// GET /v2/account/sub-accounts?name=&cursor= (without those the access is
// barred from)
func (s *Server) listSubAccounts(c *call) error {
	items, next, err := s.eng.SubAccountPage(c.caller(), c.query.Get("name"), c.query.Get("cursor"))
	if err != nil {
		return err
	}
	out := make([]SubAccount, 0, len(items))
	for _, a := range items {
		out = append(out, subAccountView(a))
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
	if validate.Chars(req.Name) > 100 {
		return badRequest(codeInvalidField, "name: at most 100 characters")
	}
	if req.AccountType != "INDIVIDUAL" && req.AccountType != "COMPANY" {
		return badRequest(codeInvalidField, "accountType: must be INDIVIDUAL or COMPANY, got %q", truncate(req.AccountType, 20))
	}
	id, err := s.eng.CreateSubAccount(c.caller(), req.Name, req.AccountType)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/account/balances[?subAccountId]
func (s *Server) balances(c *call) error {
	bal, err := s.eng.Balances(c.caller())
	if err != nil {
		return err
	}
	out := make(map[string]string, len(bal))
	for _, b := range bal {
		out[b.Currency] = b.Amount.StringFixed(6)
	}
	return c.reply(http.StatusOK, map[string]any{"balances": out})
}

// GET /v2/account/metadata: which fiat rails the account may use (§8.7).
func (s *Server) metadata(c *call) error {
	m, err := s.eng.Metadata(c.caller())
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, m)
}

// GET /v2/account/account-info
func (s *Server) accountDetails(c *call) error {
	a, id, code, err := s.eng.AccountDetails(c.caller())
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, AccountDetails{
		ID: a.ID, AccountInfo: accountInfo(a, id), PixKey: a.PixKey, BrCode: code, CreatedAt: records.NewTime(a.CreatedAt),
		// One service wallet serves every EVM chain.
		Wallets: []AccountWallet{{ID: uuid.NewSHA1(a.ID, []byte("wallet")).String(), WalletAddress: a.Wallet, Chain: "EVM"}},
	})
}

// GET /v2/account/sub-accounts/{id}
func (s *Server) getSubAccount(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	a, ident, err := s.eng.SubAccount(c.caller(), id)
	if err != nil {
		return err
	}
	v := subAccountView(a)
	v.AccountInfo = accountInfo(a, ident)
	return c.reply(http.StatusOK, v)
}

// GET /v2/account/bank-accounts/brl/static-br-code?amount&referenceLabel&additionalData
func (s *Server) staticBrCode(c *call) error {
	amount := decimal.Zero
	if raw := c.query.Get("amount"); raw != "" {
		d, err := parseWireAmount("amount", raw, "BRL")
		if err != nil {
			return err
		}
		amount = d
	}
	label := c.query.Get("referenceLabel")
	if validate.Chars(label) > 25 || strings.ContainsFunc(label, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		return badRequest(codeInvalidField, "referenceLabel: at most 25 letters and digits")
	}
	if validate.Chars(c.query.Get("additionalData")) > 72 {
		return badRequest(codeInvalidField, "additionalData: at most 72 characters")
	}
	code, err := s.eng.StaticBrCode(c.caller(), amount, label)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"brCode": code})
}

// Access is an access of the main account (GET /v2/auth/accesses).
type Access struct {
	ID               string              `json:"id"`
	Email            string              `json:"email"`
	CreatedAt        string              `json:"createdAt"`
	UpdatedAt        string              `json:"updatedAt"`
	FrozenUntil      string              `json:"frozenUntil"`
	AccessPermission records.Permissions `json:"accessPermission"`
	MFA              *MFA                `json:"mfa,omitempty"`
}

// MFA is an access's second factor.
type MFA struct {
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// AccessInfo is the caller's own access (GET /v2/account/access-info).
type AccessInfo struct {
	Email                    string              `json:"email"`
	MFAActivated             bool                `json:"mfaActivated"`
	PricingSet               bool                `json:"pricingSet"`
	PasswordUpdatedAt        records.Time        `json:"passwordUpdatedAt"`
	FrozenUntil              records.Time        `json:"frozenUntil"`
	AccountPermissions       records.Permissions `json:"accountPermissions"`
	BlacklistedAccountIDs    []uuid.UUID         `json:"blacklistedAccountIds"`
	IsMainAccountBlacklisted bool                `json:"isMainAccountBlacklisted"`
}

// Account is an account the caller may operate (GET /v2/accounts, [decided]).
type Account struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	AccountType   string    `json:"accountType"`
	MainAccountID string    `json:"mainAccountId"`
}

// AccountInfo is an account's identity; the full form (account-info, a
// sub-account's detail) adds the fields after name (§7.4).
type AccountInfo struct {
	ID                             uuid.UUID `json:"id"`
	AccountType                    string    `json:"accountType"`
	Name                           string    `json:"name"`
	CountrySubdivisionTaxResidence string    `json:"countrySubdivisionTaxResidence,omitempty"`
	CountryTaxResidence            string    `json:"countryTaxResidence,omitempty"`
	IdentityStatus                 string    `json:"identityStatus,omitempty"`
	FullName                       string    `json:"fullName,omitempty"`
	Birthdate                      string    `json:"birthdate,omitempty"`
	TaxID                          string    `json:"taxId,omitempty"`
}

// SubAccount is a sub-account as listed (§3) and detailed (§7.4).
type SubAccount struct {
	SubAccountID  uuid.UUID    `json:"subAccountId"`
	MainAccountID uuid.UUID    `json:"mainAccountId"`
	CreatedAt     records.Time `json:"createdAt"`
	AccountInfo   AccountInfo  `json:"accountInfo"`
}

// AccountDetails is GET /v2/account/account-info (§7.4).
type AccountDetails struct {
	ID          uuid.UUID       `json:"id"`
	AccountInfo AccountInfo     `json:"accountInfo"`
	Wallets     []AccountWallet `json:"wallets"`
	PixKey      string          `json:"pixKey"`
	BrCode      string          `json:"brCode"`
	CreatedAt   records.Time    `json:"createdAt"`
}

// AccountWallet is one of an account's service wallets.
type AccountWallet struct {
	ID            string `json:"id"`
	WalletAddress string `json:"walletAddress"`
	Chain         string `json:"chain"`
}

// CreateSubAccountRequest is POST /v2/account/sub-accounts (§3).
type CreateSubAccountRequest struct {
	AccountType string `json:"accountType"`
	Name        string `json:"name"`
}
