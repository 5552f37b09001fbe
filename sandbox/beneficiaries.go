package sandbox

import (
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/money"
	"tesouro/validate"
)

const codeAliasTaken = "ALIAS_TAKEN"

var brlAccountTypes = []string{"checking", "payment", "savings", "salary"}

// canManageBeneficiaries refuses accesses without the beneficiary
// permission (and read-only or frozen ones).
func (c *call) canManageBeneficiaries() error {
	if err := c.writable(); err != nil {
		return err
	}
	if !c.who.Perms.Beneficiary {
		return forbidden("missing permission beneficiary: this access may not create or delete beneficiaries")
	}
	return nil
}

func fieldErr(field string, err error) error {
	if err == nil {
		return nil
	}
	code := codeInvalidField
	if strings.HasPrefix(err.Error(), "required") {
		code = codeMissingField
	}
	return badRequest(code, "%s: %v", field, err)
}

func checkAlias(alias, description string) error {
	if err := validate.Required(alias); err != nil {
		return fieldErr("alias", err)
	}
	if len(alias) > 100 {
		return badRequest(codeInvalidField, "alias: at most 100 characters")
	}
	if len(description) > 255 {
		return badRequest(codeInvalidField, "description: at most 255 characters")
	}
	return nil
}

func aliasTaken[T any](ser *series[T], alias string, get func(*T) string) error {
	for _, e := range ser.es {
		if strings.EqualFold(get(e.v), alias) {
			return conflict(codeAliasTaken, "alias: %q is already used by another beneficiary of this kind; choose another", alias)
		}
	}
	return nil
}

func containsFold(s, sub string) bool {
	return sub == "" || strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// validTronAddress checks a TRON base58 address (T and 33 characters).
func validTronAddress(s string) bool {
	const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	if len(s) != 34 || s[0] != 'T' {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(b58, r) {
			return false
		}
	}
	return true
}

// POST /v2/account/beneficiaries/wallets/
func (s *Server) createWallet(c *call) error {
	var req api.CreateWalletRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	req.Alias = strings.TrimSpace(req.Alias)
	if err := checkAlias(req.Alias, req.Description); err != nil {
		return err
	}
	if req.WalletChain == "" {
		return badRequest(codeMissingField, "walletChain: required (%s)", strings.Join(money.Chains(), ", "))
	}
	if !slices.Contains(money.Chains(), req.WalletChain) {
		return badRequest(codeInvalidField, "walletChain: unknown chain %q (chains: %s)", truncate(req.WalletChain, 20), strings.Join(money.Chains(), ", "))
	}
	addr := strings.TrimSpace(req.WalletAddress)
	if req.WalletChain == "TRON" {
		if !validTronAddress(addr) {
			return badRequest(codeInvalidField, "walletAddress: a TRON address is T followed by 33 base58 characters")
		}
	} else {
		sum, _, err := validate.EVMAddress(addr)
		if err != nil {
			return fieldErr("walletAddress", err)
		}
		addr = sum
	}
	if len(req.WalletMemo) > 100 {
		return badRequest(codeInvalidField, "walletMemo: at most 100 characters")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	if err := aliasTaken(acct.wallets, req.Alias, func(w *api.Wallet) string { return w.Alias }); err != nil {
		return err
	}
	w := &api.Wallet{ID: newID(), Alias: req.Alias, Description: req.Description, WalletAddress: addr, WalletChain: req.WalletChain, WalletMemo: req.WalletMemo, CreatedAt: api.NewTime(c.now)}
	acct.wallets.add(c.now, w.ID, w)
	s.changed()
	return c.reply(http.StatusOK, map[string]string{"id": w.ID.String()})
}

// GET /v2/account/beneficiaries/wallets/
func (s *Server) listWallets(c *call) error {
	alias, addr, chain := c.query.Get("alias"), c.query.Get("walletAddress"), c.query.Get("walletChain")
	if chain != "" && !slices.Contains(money.Chains(), chain) {
		return badRequest(codeInvalidField, "walletChain: unknown chain %q", truncate(chain, 20))
	}
	after, err := c.queryUnix("createdAfter")
	if err != nil {
		return err
	}
	before, err := c.queryUnix("createdBefore")
	if err != nil {
		return err
	}
	w, err := windowFrom(after, before)
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	items, next, err := acct.wallets.page(c.query.Get("cursor"), pageSize, w, func(v *api.Wallet) bool {
		return containsFold(v.Alias, alias) && (addr == "" || strings.EqualFold(v.WalletAddress, addr)) && (chain == "" || v.WalletChain == chain)
	})
	if err != nil {
		return err
	}
	out := make([]api.Wallet, len(items))
	for i, v := range items {
		out[i] = *v
	}
	return c.reply(http.StatusOK, map[string]any{"wallets": out, "cursor": next})
}

// beneficiaryByID reads the {id} of a beneficiary path in the operated
// account. The caller holds s.mu.
func beneficiaryByID[T any](c *call, pick func(*account) *series[T], what string) (*account, uuid.UUID, *T, error) {
	id, err := c.pathUUID("id")
	if err != nil {
		return nil, uuid.Nil, nil, err
	}
	acct, err := c.scope()
	if err != nil {
		return nil, uuid.Nil, nil, err
	}
	v, ok := pick(acct).get(id)
	if !ok {
		return nil, uuid.Nil, nil, notFound(what, id)
	}
	return acct, id, v, nil
}

func (s *Server) getWallet(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, w, err := beneficiaryByID(c, func(a *account) *series[api.Wallet] { return a.wallets }, "beneficiary wallet")
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"wallet": *w})
}

func (s *Server) deleteWallet(c *call) error {
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, id, _, err := beneficiaryByID(c, func(a *account) *series[api.Wallet] { return a.wallets }, "beneficiary wallet")
	if err != nil {
		return err
	}
	acct.wallets.remove(id)
	s.changed()
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// POST /v2/account/beneficiaries/bank-accounts/brl/
func (s *Server) createBRL(c *call) error {
	var req api.CreateBRLAccountRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	req.Alias = strings.TrimSpace(req.Alias)
	if err := checkAlias(req.Alias, req.Description); err != nil {
		return err
	}
	b := &api.BRLAccount{ID: newID(), Alias: req.Alias, Description: req.Description, CreatedAt: api.NewTime(c.now)}
	bankGiven := req.TaxID != "" || req.UserName != "" || req.BankCode != "" || req.BranchCode != "" || req.AccountNumber != "" || req.AccountType != ""
	switch {
	case req.PixKey != "" && bankGiven:
		return badRequest(codeInvalidField, "pixKey: give either a PIX key or the bank account fields, not both")
	case req.PixKey != "":
		kind, key, err := validate.PixKey(req.PixKey)
		if err != nil {
			return fieldErr("pixKey", err)
		}
		b.PixKey, b.PixKeyType = key, string(kind)
		if kind == validate.PixCPF || kind == validate.PixCNPJ {
			b.TaxID = key
		}
	case bankGiven:
		tax, _, err := validate.TaxID(req.TaxID)
		if err != nil {
			return fieldErr("taxId", err)
		}
		if err := validate.Required(req.UserName); err != nil {
			return fieldErr("userName", err)
		}
		if len(req.UserName) > 100 {
			return badRequest(codeInvalidField, "userName: at most 100 characters")
		}
		bank, err := validate.Digits(req.BankCode, 3, 8)
		if err != nil {
			return fieldErr("bankCode", err)
		}
		if len(bank) != 3 && len(bank) != 8 {
			return badRequest(codeInvalidField, "bankCode: 3 digits (COMPE) or 8 digits (ISPB), got %d", len(bank))
		}
		branch, err := validate.Digits(req.BranchCode, 1, 5)
		if err != nil {
			return fieldErr("branchCode", err)
		}
		number, err := validate.Digits(req.AccountNumber, 1, 20)
		if err != nil {
			return fieldErr("accountNumber", err)
		}
		if !slices.Contains(brlAccountTypes, req.AccountType) {
			return badRequest(codeInvalidField, "accountType: must be one of %s, got %q", strings.Join(brlAccountTypes, ", "), truncate(req.AccountType, 20))
		}
		b.TaxID, b.UserName, b.BankCode, b.BranchCode, b.AccountNumber, b.AccountType = tax, strings.TrimSpace(req.UserName), bank, branch, number, req.AccountType
	default:
		return badRequest(codeMissingField, "pixKey: required (or all of taxId, userName, bankCode, branchCode, accountNumber, accountType)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	if err := aliasTaken(acct.brl, req.Alias, func(v *api.BRLAccount) string { return v.Alias }); err != nil {
		return err
	}
	acct.brl.add(c.now, b.ID, b)
	s.changed()
	return c.reply(http.StatusOK, map[string]string{"id": b.ID.String()})
}

// aliasList serves a beneficiary list filtered by alias.
func aliasList[T any](s *Server, c *call, pick func(*account) *series[T], alias func(*T) string, key string) error {
	want := c.query.Get("alias")
	after, err := c.queryUnix("createdAfter")
	if err != nil {
		return err
	}
	before, err := c.queryUnix("createdBefore")
	if err != nil {
		return err
	}
	w, err := windowFrom(after, before)
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	items, next, err := pick(acct).page(c.query.Get("cursor"), pageSize, w, func(v *T) bool { return containsFold(alias(v), want) })
	if err != nil {
		return err
	}
	out := make([]T, len(items))
	for i, v := range items {
		out[i] = *v
	}
	return c.reply(http.StatusOK, map[string]any{key: out, "cursor": next})
}

func (s *Server) listBRL(c *call) error {
	return aliasList(s, c, func(a *account) *series[api.BRLAccount] { return a.brl }, func(v *api.BRLAccount) string { return v.Alias }, "brlBankAccounts")
}

func (s *Server) getBRL(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, b, err := beneficiaryByID(c, func(a *account) *series[api.BRLAccount] { return a.brl }, "BRL beneficiary")
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"brlBankAccount": *b})
}

func (s *Server) deleteBRL(c *call) error {
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, id, _, err := beneficiaryByID(c, func(a *account) *series[api.BRLAccount] { return a.brl }, "BRL beneficiary")
	if err != nil {
		return err
	}
	acct.brl.remove(id)
	s.changed()
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

func checkAddress(field string, a *api.Address) error {
	if a == nil {
		return nil
	}
	if a.Country != "" {
		if _, err := validate.CountryAlpha3(a.Country); err != nil {
			return fieldErr(field+".country", err)
		}
	}
	for _, f := range []struct{ name, v string }{{"streetLine1", a.StreetLine1}, {"streetLine2", a.StreetLine2}, {"city", a.City}, {"state", a.State}, {"postalCode", a.PostalCode}} {
		if len(f.v) > 100 {
			return badRequest(codeInvalidField, "%s.%s: at most 100 characters", field, f.name)
		}
	}
	return nil
}

// POST /v2/account/beneficiaries/bank-accounts/usd/
func (s *Server) createUSD(c *call) error {
	var req api.CreateUSDAccountRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	req.Alias = strings.TrimSpace(req.Alias)
	if err := checkAlias(req.Alias, req.Description); err != nil {
		return err
	}
	number, err := validate.Digits(req.BankAccountNumber, 4, 17)
	if err != nil {
		return fieldErr("bankAccountNumber", err)
	}
	routing, err := validate.ABA(req.BankRoutingNumber)
	if err != nil {
		return fieldErr("bankRoutingNumber", err)
	}
	if err := validate.Required(req.BankBeneficiaryName); err != nil {
		return fieldErr("bankBeneficiaryName", err)
	}
	if err := checkAddress("beneficiaryAddress", req.BeneficiaryAddress); err != nil {
		return err
	}
	if err := checkAddress("bankAddress", req.BankAddress); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	if err := aliasTaken(acct.usd, req.Alias, func(v *api.USDAccount) string { return v.Alias }); err != nil {
		return err
	}
	b := &api.USDAccount{
		ID: newID(), UserID: acct.ID, Alias: req.Alias, Description: req.Description, BankAccountNumber: number, BankRoutingNumber: routing,
		BankBeneficiaryName: strings.TrimSpace(req.BankBeneficiaryName), BankName: req.BankName, FirstName: req.FirstName, LastName: req.LastName,
		CreatedAt: api.NewTime(c.now),
	}
	if req.BeneficiaryAddress != nil {
		b.BankBeneficiaryAddress = *req.BeneficiaryAddress
	}
	if req.BankAddress != nil {
		b.BankAddress = *req.BankAddress
	}
	acct.usd.add(c.now, b.ID, b)
	s.changed()
	return c.reply(http.StatusOK, map[string]string{"id": b.ID.String()})
}

func (s *Server) listUSD(c *call) error {
	return aliasList(s, c, func(a *account) *series[api.USDAccount] { return a.usd }, func(v *api.USDAccount) string { return v.Alias }, "beneficiaryUsdBankAccount")
}

func (s *Server) getUSD(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, b, err := beneficiaryByID(c, func(a *account) *series[api.USDAccount] { return a.usd }, "USD beneficiary")
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"beneficiaryUsdBankAccount": *b})
}

var copDocumentTypes = []string{"CC", "CE", "NIT", "PASSPORT", "PPT"}
var copAccountTypes = []string{"SAVINGS", "CHECKING"}

// POST /v2/account/beneficiaries/bank-accounts/cop/
func (s *Server) createCOP(c *call) error {
	var req api.CreateCOPAccountRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	req.Alias = strings.TrimSpace(req.Alias)
	if err := checkAlias(req.Alias, req.Description); err != nil {
		return err
	}
	if err := validate.Required(req.BeneficiaryName); err != nil {
		return fieldErr("beneficiaryName", err)
	}
	if req.BeneficiaryEmail != "" {
		if _, err := validate.Email(req.BeneficiaryEmail); err != nil {
			return fieldErr("beneficiaryEmail", err)
		}
	}
	bank := req.BankAccountNumber != "" || req.BankID != "" || req.BankName != "" || req.AccountType != ""
	if req.BreBKey == "" && !bank {
		return badRequest(codeMissingField, "breBKey: required (or the bank fields bankAccountNumber, bankId or bankName, accountType)")
	}
	if bank {
		if _, err := validate.Digits(req.BankAccountNumber, 6, 20); err != nil {
			return fieldErr("bankAccountNumber", err)
		}
		if req.BankID == "" && req.BankName == "" {
			return badRequest(codeMissingField, "bankId: required with the bank fields (or bankName)")
		}
		if req.AccountType != "" && !slices.Contains(copAccountTypes, req.AccountType) {
			return badRequest(codeInvalidField, "accountType: must be SAVINGS or CHECKING, got %q", truncate(req.AccountType, 20))
		}
	}
	if req.DocumentType != "" && !slices.Contains(copDocumentTypes, req.DocumentType) {
		return badRequest(codeInvalidField, "documentType: must be one of %s", strings.Join(copDocumentTypes, ", "))
	}
	if req.DocumentNumber != "" {
		if _, err := validate.Digits(req.DocumentNumber, 5, 15); err != nil {
			return fieldErr("documentNumber", err)
		}
	}
	if a := req.BeneficiaryAddress; a != nil && a.Country != "" {
		if _, err := validate.CountryAlpha3(a.Country); err != nil {
			return fieldErr("beneficiaryAddress.country", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	if err := aliasTaken(acct.cop, req.Alias, func(v *api.COPAccount) string { return v.Alias }); err != nil {
		return err
	}
	b := &api.COPAccount{
		ID: newID(), Alias: req.Alias, BeneficiaryName: strings.TrimSpace(req.BeneficiaryName), Description: req.Description,
		BeneficiaryType: req.BeneficiaryType, BeneficiaryEmail: req.BeneficiaryEmail, BeneficiaryAddress: req.BeneficiaryAddress,
		PhoneNumber: req.PhoneNumber, AccountType: req.AccountType, BankAccountNumber: req.BankAccountNumber, DocumentNumber: req.DocumentNumber,
		DocumentType: req.DocumentType, BankID: req.BankID, BankName: req.BankName, BreBKey: req.BreBKey, CreatedAt: api.NewTime(c.now),
	}
	acct.cop.add(c.now, b.ID, b)
	s.changed()
	return c.reply(http.StatusOK, map[string]string{"id": b.ID.String()})
}

func (s *Server) listCOP(c *call) error {
	return aliasList(s, c, func(a *account) *series[api.COPAccount] { return a.cop }, func(v *api.COPAccount) string { return v.Alias }, "beneficiaryCopBankAccount")
}
