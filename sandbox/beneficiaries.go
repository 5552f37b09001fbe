package sandbox

import (
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/validate"
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

// beneficiaryKind is one kind of beneficiary: where an account keeps it
// and how the interface names it. Its methods serve what every kind does
// alike; the handlers keep what is their own (validation, filters).
type beneficiaryKind[T any] struct {
	of    func(*account) *series[T]
	alias func(*T) string
	what  string // in messages: "BRL beneficiary <id> not found"
	one   string // the key of a detail on the wire ("" : no detail route)
	many  string // the key of a list on the wire
}

var (
	walletKind = &beneficiaryKind[Wallet]{
		of:    func(a *account) *series[Wallet] { return a.wallets },
		alias: func(v *Wallet) string { return v.Alias },
		what:  "beneficiary wallet", one: "wallet", many: "wallets",
	}
	brlKind = &beneficiaryKind[BRLAccount]{
		of:    func(a *account) *series[BRLAccount] { return a.brl },
		alias: func(v *BRLAccount) string { return v.Alias },
		what:  "BRL beneficiary", one: "brlBankAccount", many: "brlBankAccounts",
	}
	usdKind = &beneficiaryKind[USDAccount]{
		of:    func(a *account) *series[USDAccount] { return a.usd },
		alias: func(v *USDAccount) string { return v.Alias },
		what:  "USD beneficiary", one: "beneficiaryUsdBankAccount", many: "beneficiaryUsdBankAccount",
	}
	copKind = &beneficiaryKind[COPAccount]{
		of:    func(a *account) *series[COPAccount] { return a.cop },
		alias: func(v *COPAccount) string { return v.Alias },
		what:  "COP beneficiary", many: "beneficiaryCopBankAccount",
	}
)

// decodeBeneficiary decodes a creation body into req and checks what every
// kind asks for: the beneficiary permission, then the alias (trimmed in
// place) and the description.
func decodeBeneficiary(c *call, req any, alias, description *string) error {
	if err := decodeBody(c, req); err != nil {
		return err
	}
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	*alias = strings.TrimSpace(*alias)
	return checkAlias(*alias, *description)
}

// add stores a validated beneficiary in the operated account, unless its
// alias is taken there, and replies with its id. build makes the record
// for its account and id under the write lock.
func (k *beneficiaryKind[T]) add(s *Server, c *call, alias string, build func(acct *account, id uuid.UUID) *T) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	ser := k.of(acct)
	for _, e := range ser.es {
		if strings.EqualFold(k.alias(e.v), alias) {
			return conflict(codeAliasTaken, "alias: %q is already used by another beneficiary of this kind; choose another", alias)
		}
	}
	id := newID()
	ser.add(c.now, id, build(acct, id))
	s.changed(acct)
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// list serves a page of the operated account's beneficiaries of the kind,
// created inside the createdAfter/createdBefore window and accepted by
// match.
func (k *beneficiaryKind[T]) list(s *Server, c *call, match func(*T) bool) error {
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	return listPage(s, c, k.many, w, k.of, match, deref[T])
}

// listByAlias serves a list filtered by the alias query (a substring,
// either case).
func (k *beneficiaryKind[T]) listByAlias(s *Server, c *call) error {
	want := c.query.Get("alias")
	return k.list(s, c, func(v *T) bool { return containsFold(k.alias(v), want) })
}

// get replies with a copy of the beneficiary of the path.
func (k *beneficiaryKind[T]) get(s *Server, c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, v, err := recordByID(c, k.of, k.what)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{k.one: *v})
}

// remove deletes the beneficiary of the path and replies with its id.
func (k *beneficiaryKind[T]) remove(s *Server, c *call) error {
	if err := c.canManageBeneficiaries(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, id, _, err := recordByID(c, k.of, k.what)
	if err != nil {
		return err
	}
	if op := s.pendingOperationNaming(acct, id); op != nil {
		return conflict(codeBeneficiaryInUse, "%s %s is the output of pending operation %s; reject it or wait for its decision before deleting", k.what, id, op.ID)
	}
	k.of(acct).remove(id)
	s.changed(acct)
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// missing is what a payout finds gone: the kind's name when the account no
// longer keeps the beneficiary id, else "". The caller holds s.mu.
func (k *beneficiaryKind[T]) missing(acct *account, id uuid.UUID) string {
	if _, ok := k.of(acct).get(id); ok {
		return ""
	}
	return k.what
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
	var req CreateWalletRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
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
	return walletKind.add(s, c, req.Alias, func(_ *account, id uuid.UUID) *Wallet {
		return &Wallet{ID: id, Alias: req.Alias, Description: req.Description, WalletAddress: addr, WalletChain: req.WalletChain, WalletMemo: req.WalletMemo, CreatedAt: NewTime(c.now)}
	})
}

// GET /v2/account/beneficiaries/wallets/
func (s *Server) listWallets(c *call) error {
	alias, addr, chain := c.query.Get("alias"), c.query.Get("walletAddress"), c.query.Get("walletChain")
	if chain != "" && !slices.Contains(money.Chains(), chain) {
		return badRequest(codeInvalidField, "walletChain: unknown chain %q", truncate(chain, 20))
	}
	return walletKind.list(s, c, func(v *Wallet) bool {
		return containsFold(v.Alias, alias) && (addr == "" || strings.EqualFold(v.WalletAddress, addr)) && (chain == "" || v.WalletChain == chain)
	})
}

func (s *Server) getWallet(c *call) error    { return walletKind.get(s, c) }
func (s *Server) deleteWallet(c *call) error { return walletKind.remove(s, c) }

// POST /v2/account/beneficiaries/bank-accounts/brl/
func (s *Server) createBRL(c *call) error {
	var req CreateBRLAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
		return err
	}
	b := &BRLAccount{Alias: req.Alias, Description: req.Description, CreatedAt: NewTime(c.now)}
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
		f, err := bankFields{req.TaxID, req.UserName, req.BankCode, req.BranchCode, req.AccountNumber, req.AccountType}.check("")
		if err != nil {
			return err
		}
		b.TaxID, b.UserName, b.BankCode, b.BranchCode, b.AccountNumber, b.AccountType = f.TaxID, f.UserName, f.BankCode, f.BranchCode, f.AccountNumber, f.AccountType
	default:
		return badRequest(codeMissingField, "pixKey: required (or all of taxId, userName, bankCode, branchCode, accountNumber, accountType)")
	}
	return brlKind.add(s, c, req.Alias, func(_ *account, id uuid.UUID) *BRLAccount {
		b.ID = id
		return b
	})
}

func (s *Server) listBRL(c *call) error   { return brlKind.listByAlias(s, c) }
func (s *Server) getBRL(c *call) error    { return brlKind.get(s, c) }
func (s *Server) deleteBRL(c *call) error { return brlKind.remove(s, c) }

func checkAddress(field string, a *Address) error {
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
	var req CreateUSDAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
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
	for _, a := range []struct {
		field string
		v     *Address
	}{{"beneficiaryAddress", req.BeneficiaryAddress}, {"bankAddress", req.BankAddress}} {
		if err := bothSpellings(a.field, a.v); err != nil {
			return err
		}
		if err := checkAddress(a.field, a.v); err != nil {
			return err
		}
	}
	return usdKind.add(s, c, req.Alias, func(acct *account, id uuid.UUID) *USDAccount {
		b := &USDAccount{
			ID: id, UserID: acct.ID, Alias: req.Alias, Description: req.Description, BankAccountNumber: number, BankRoutingNumber: routing,
			BankBeneficiaryName: strings.TrimSpace(req.BankBeneficiaryName), BankName: req.BankName, FirstName: req.FirstName, LastName: req.LastName,
			CreatedAt: NewTime(c.now),
		}
		if req.BeneficiaryAddress != nil {
			b.BankBeneficiaryAddress = *req.BeneficiaryAddress
		}
		if req.BankAddress != nil {
			b.BankAddress = *req.BankAddress
		}
		return b
	})
}

func (s *Server) listUSD(c *call) error { return usdKind.listByAlias(s, c) }
func (s *Server) getUSD(c *call) error  { return usdKind.get(s, c) }

var copDocumentTypes = []string{"CC", "CE", "NIT", "PASSPORT", "PPT"}
var copAccountTypes = []string{"SAVINGS", "CHECKING"}

// POST /v2/account/beneficiaries/bank-accounts/cop/
func (s *Server) createCOP(c *call) error {
	var req CreateCOPAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
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
	return copKind.add(s, c, req.Alias, func(_ *account, id uuid.UUID) *COPAccount {
		return &COPAccount{
			ID: id, Alias: req.Alias, BeneficiaryName: strings.TrimSpace(req.BeneficiaryName), Description: req.Description,
			BeneficiaryType: req.BeneficiaryType, BeneficiaryEmail: req.BeneficiaryEmail, BeneficiaryAddress: req.BeneficiaryAddress,
			PhoneNumber: req.PhoneNumber, AccountType: req.AccountType, BankAccountNumber: req.BankAccountNumber, DocumentNumber: req.DocumentNumber,
			DocumentType: req.DocumentType, BankID: req.BankID, BankName: req.BankName, BreBKey: req.BreBKey, CreatedAt: NewTime(c.now),
		}
	})
}

func (s *Server) listCOP(c *call) error { return copKind.listByAlias(s, c) }
