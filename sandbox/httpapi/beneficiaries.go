package httpapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Beneficiaries of every kind (wallets, BRL, USD, COP, EUR and ARS bank
// accounts): creation validates the body as the client does
// (../reference/validation.md) and names the field it refuses; lists
// filter by alias; a beneficiary a pending operation pays is kept.

// fieldErr is a 400 naming the field a validate check refused.
func fieldErr(field string, err error) error { return engine.FieldError(field, err) }

func checkAlias(alias, description string) error {
	if err := validate.Required(alias); err != nil {
		return fieldErr("alias", err)
	}
	if validate.Chars(alias) > 100 {
		return badRequest(codeInvalidField, "alias: at most 100 characters")
	}
	if validate.Chars(description) > 255 {
		return badRequest(codeInvalidField, "description: at most 255 characters")
	}
	return nil
}

// decodeBeneficiary decodes a creation body into req and checks what every
// kind asks for: the beneficiary permission, then the alias (trimmed in
// place) and the description.
func decodeBeneficiary(c *call, req any, alias, description *string) error {
	if err := decodeBody(c, req); err != nil {
		return err
	}
	if err := c.who.MayManageBeneficiaries(c.now); err != nil {
		return err
	}
	*alias = strings.TrimSpace(*alias)
	return checkAlias(*alias, *description)
}

// beneficiaryKind is one kind of beneficiary as the interface names it:
// the key of a detail ("" : no detail route) and of a list.
type beneficiaryKind[T any] struct {
	of        func(*engine.Engine) engine.Beneficiaries[T]
	one, many string
}

var (
	walletKind = beneficiaryKind[records.Wallet]{(*engine.Engine).Wallets, "wallet", "wallets"}
	brlKind    = beneficiaryKind[records.BRLAccount]{(*engine.Engine).BRLAccounts, "brlBankAccount", "brlBankAccounts"}
	usdKind    = beneficiaryKind[records.USDAccount]{(*engine.Engine).USDAccounts, "beneficiaryUsdBankAccount", "beneficiaryUsdBankAccount"}
	copKind    = beneficiaryKind[records.COPAccount]{(*engine.Engine).COPAccounts, "", "beneficiaryCopBankAccount"}
	eurKind    = beneficiaryKind[records.EURAccount]{(*engine.Engine).EURAccounts, "beneficiaryEurBankAccount", "beneficiaryEurBankAccount"}
	arsKind    = beneficiaryKind[records.ARSAccount]{(*engine.Engine).ARSAccounts, "beneficiaryArsBankAccount", "beneficiaryArsBankAccount"}
)

// add stores a validated beneficiary in the operated account and replies
// with its id. build makes the record for its account and id.
func (k beneficiaryKind[T]) add(s *Server, c *call, alias string, build func(acct *engine.Account, id uuid.UUID) *T) error {
	id, err := k.of(s.eng).Add(c.caller(), alias, build)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// list serves a page of the operated account's beneficiaries of the kind,
// created inside the createdAfter/createdBefore window and accepted by
// match.
func (k beneficiaryKind[T]) list(s *Server, c *call, match func(*T) bool) error {
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	return listPage(c, k.many, w, k.of(s.eng).Records, match)
}

// listByAlias serves a list filtered by the alias query (a substring,
// either case).
func (k beneficiaryKind[T]) listByAlias(s *Server, c *call) error {
	want := c.query.Get("alias")
	kind := k.of(s.eng)
	return k.list(s, c, func(v *T) bool { return containsFold(kind.Alias(v), want) })
}

// get replies with the beneficiary of the path.
func (k beneficiaryKind[T]) get(s *Server, c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	v, err := k.of(s.eng).Get(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{k.one: v})
}

// remove deletes the beneficiary of the path and replies with its id.
func (k beneficiaryKind[T]) remove(s *Server, c *call) error {
	if err := c.who.MayManageBeneficiaries(c.now); err != nil {
		return err
	}
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	if err := k.of(s.eng).Remove(c.caller(), id); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

func containsFold(s, sub string) bool {
	return sub == "" || strings.Contains(strings.ToLower(s), strings.ToLower(sub))
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
	addr, err := engine.ChainAddress(req.WalletChain, strings.TrimSpace(req.WalletAddress))
	if err != nil {
		return fieldErr("walletAddress", err)
	}
	if validate.Chars(req.WalletMemo) > 100 {
		return badRequest(codeInvalidField, "walletMemo: at most 100 characters")
	}
	return walletKind.add(s, c, req.Alias, func(_ *engine.Account, id uuid.UUID) *records.Wallet {
		return &records.Wallet{ID: id, Alias: req.Alias, Description: req.Description, WalletAddress: addr, WalletChain: req.WalletChain, WalletMemo: req.WalletMemo, CreatedAt: records.NewTime(c.now)}
	})
}

// GET /v2/account/beneficiaries/wallets/
func (s *Server) listWallets(c *call) error {
	alias, addr, chain := c.query.Get("alias"), c.query.Get("walletAddress"), c.query.Get("walletChain")
	if chain != "" && !slices.Contains(money.Chains(), chain) {
		return badRequest(codeInvalidField, "walletChain: unknown chain %q", truncate(chain, 20))
	}
	return walletKind.list(s, c, func(v *records.Wallet) bool {
		return containsFold(v.Alias, alias) && (addr == "" || strings.EqualFold(v.WalletAddress, addr)) && (chain == "" || v.WalletChain == chain)
	})
}

func (s *Server) getWallet(c *call) error { return walletKind.get(s, c) }

func (s *Server) deleteWallet(c *call) error { return walletKind.remove(s, c) }

// POST /v2/account/beneficiaries/bank-accounts/brl/
func (s *Server) createBRL(c *call) error {
	var req CreateBRLAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
		return err
	}
	b := &records.BRLAccount{Alias: req.Alias, Description: req.Description, CreatedAt: records.NewTime(c.now)}
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
		f, err := engine.BankFields{TaxID: req.TaxID, UserName: req.UserName, BankCode: req.BankCode, BranchCode: req.BranchCode, AccountNumber: req.AccountNumber, AccountType: req.AccountType}.Check("")
		if err != nil {
			return err
		}
		b.TaxID, b.UserName, b.BankCode, b.BranchCode, b.AccountNumber, b.AccountType = f.TaxID, f.UserName, f.BankCode, f.BranchCode, f.AccountNumber, f.AccountType
	default:
		return badRequest(codeMissingField, "pixKey: required (or all of taxId, userName, bankCode, branchCode, accountNumber, accountType)")
	}
	return brlKind.add(s, c, req.Alias, func(_ *engine.Account, id uuid.UUID) *records.BRLAccount {
		b.ID = id
		return b
	})
}

func (s *Server) listBRL(c *call) error { return brlKind.listByAlias(s, c) }

func (s *Server) getBRL(c *call) error { return brlKind.get(s, c) }

func (s *Server) deleteBRL(c *call) error { return brlKind.remove(s, c) }

func checkAddress(field string, a *records.Address) error {
	if a == nil {
		return nil
	}
	if a.Country != "" {
		if _, err := validate.CountryAlpha3(a.Country); err != nil {
			return fieldErr(field+".country", err)
		}
	}
	for _, f := range []struct{ name, v string }{{"streetLine1", a.StreetLine1}, {"streetLine2", a.StreetLine2}, {"city", a.City}, {"state", a.State}, {"postalCode", a.PostalCode}} {
		if validate.Chars(f.v) > 100 {
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
		v     *records.Address
	}{{"beneficiaryAddress", req.BeneficiaryAddress}, {"bankAddress", req.BankAddress}} {
		if err := bothSpellings(a.field, a.v); err != nil {
			return err
		}
		if err := checkAddress(a.field, a.v); err != nil {
			return err
		}
	}
	return usdKind.add(s, c, req.Alias, func(acct *engine.Account, id uuid.UUID) *records.USDAccount {
		b := &records.USDAccount{
			ID: id, UserID: acct.ID, Alias: req.Alias, Description: req.Description, BankAccountNumber: number, BankRoutingNumber: routing,
			BankBeneficiaryName: strings.TrimSpace(req.BankBeneficiaryName), BankName: req.BankName, FirstName: req.FirstName, LastName: req.LastName,
			CreatedAt: records.NewTime(c.now),
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

func (s *Server) getUSD(c *call) error { return usdKind.get(s, c) }

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
	return copKind.add(s, c, req.Alias, func(_ *engine.Account, id uuid.UUID) *records.COPAccount {
		return &records.COPAccount{
			ID: id, Alias: req.Alias, BeneficiaryName: strings.TrimSpace(req.BeneficiaryName), Description: req.Description,
			BeneficiaryType: req.BeneficiaryType, BeneficiaryEmail: req.BeneficiaryEmail, BeneficiaryAddress: req.BeneficiaryAddress,
			PhoneNumber: req.PhoneNumber, AccountType: req.AccountType, BankAccountNumber: req.BankAccountNumber, DocumentNumber: req.DocumentNumber,
			DocumentType: req.DocumentType, BankID: req.BankID, BankName: req.BankName, BreBKey: req.BreBKey, CreatedAt: records.NewTime(c.now),
		}
	})
}

func (s *Server) listCOP(c *call) error { return copKind.listByAlias(s, c) }

// POST /v2/account/beneficiaries/bank-accounts/eur/
func (s *Server) createEUR(c *call) error {
	var req CreateEURAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
		return err
	}
	iban, err := validate.IBAN(req.IBAN)
	if err != nil {
		return fieldErr("iban", err)
	}
	bic := ""
	if req.BIC != "" {
		if bic, err = validate.BIC(req.BIC); err != nil {
			return fieldErr("bic", err)
		}
	}
	country, err := validate.CountryAlpha3(req.Country)
	if err != nil {
		return fieldErr("country", err)
	}
	if err := validate.Required(req.BankBeneficiaryName); err != nil {
		return fieldErr("bankBeneficiaryName", err)
	}
	return eurKind.add(s, c, req.Alias, func(_ *engine.Account, id uuid.UUID) *records.EURAccount {
		return &records.EURAccount{ID: id, Alias: req.Alias, Description: req.Description, IBAN: iban, BIC: bic, Country: country,
			BankBeneficiaryName: strings.TrimSpace(req.BankBeneficiaryName), IsBusiness: req.IsBusiness, CreatedAt: records.NewTime(c.now)}
	})
}

func (s *Server) listEUR(c *call) error { return eurKind.listByAlias(s, c) }

func (s *Server) getEUR(c *call) error { return eurKind.get(s, c) }

// POST /v2/account/beneficiaries/bank-accounts/ars/
func (s *Server) createARS(c *call) error {
	var req CreateARSAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
		return err
	}
	cvu, err := validate.CVU(req.CVU)
	if err != nil {
		return fieldErr("cvu", err)
	}
	return arsKind.add(s, c, req.Alias, func(_ *engine.Account, id uuid.UUID) *records.ARSAccount {
		return &records.ARSAccount{ID: id, Alias: req.Alias, Description: req.Description, CVU: cvu, CreatedAt: records.NewTime(c.now)}
	})
}

func (s *Server) listARS(c *call) error { return arsKind.listByAlias(s, c) }

func (s *Server) getARS(c *call) error { return arsKind.get(s, c) }

// bothSpellings fills an address's two spellings from whichever was sent
// ({streetLine1, streetLine2, postalCode} and the older {streetAddress,
// zipCode}), so that nothing sent is dropped and both kinds of client
// read it back. Both sent and different is a 400.
func bothSpellings(field string, a *records.Address) error {
	if a == nil {
		return nil
	}
	lines := strings.TrimSpace(strings.Join([]string{a.StreetLine1, a.StreetLine2}, " "))
	switch {
	case a.StreetAddress == "":
		a.StreetAddress = lines
	case a.StreetLine1 == "" && a.StreetLine2 == "":
		a.StreetLine1 = a.StreetAddress
	case a.StreetAddress != lines && a.StreetAddress != a.StreetLine1:
		return badRequest(codeInvalidField, "%s.streetAddress: %q differs from streetLine1/streetLine2; send one spelling", field, truncate(a.StreetAddress, 40))
	}
	switch {
	case a.ZipCode == "":
		a.ZipCode = a.PostalCode
	case a.PostalCode == "":
		a.PostalCode = a.ZipCode
	case a.ZipCode != a.PostalCode:
		return badRequest(codeInvalidField, "%s.zipCode: %q differs from postalCode %q; send one spelling", field, truncate(a.ZipCode, 20), truncate(a.PostalCode, 20))
	}
	if len(a.StreetAddress) > 200 {
		return badRequest(codeInvalidField, "%s.streetAddress: at most 200 characters", field)
	}
	return nil
}

// CreateWalletRequest is POST /v2/account/beneficiaries/wallets/ (§3).
type CreateWalletRequest struct {
	Alias         string `json:"alias"`
	Description   string `json:"description,omitempty"`
	WalletAddress string `json:"walletAddress"`
	WalletChain   string `json:"walletChain"`
	WalletMemo    string `json:"walletMemo,omitempty"`
}

// CreateBRLAccountRequest is POST .../bank-accounts/brl/ (§3).
type CreateBRLAccountRequest struct {
	Alias         string `json:"alias"`
	Description   string `json:"description,omitempty"`
	PixKey        string `json:"pixKey,omitempty"`
	TaxID         string `json:"taxId,omitempty"`
	UserName      string `json:"userName,omitempty"`
	BankCode      string `json:"bankCode,omitempty"`
	BranchCode    string `json:"branchCode,omitempty"`
	AccountNumber string `json:"accountNumber,omitempty"`
	AccountType   string `json:"accountType,omitempty"`
}

// CreateUSDAccountRequest is POST .../bank-accounts/usd/ (§3, §7.4).
type CreateUSDAccountRequest struct {
	Alias               string           `json:"alias"`
	Description         string           `json:"description,omitempty"`
	BankAccountNumber   string           `json:"bankAccountNumber"`
	BankRoutingNumber   string           `json:"bankRoutingNumber"`
	BankBeneficiaryName string           `json:"bankBeneficiaryName"`
	BankName            string           `json:"bankName,omitempty"`
	BeneficiaryAddress  *records.Address `json:"beneficiaryAddress,omitempty"`
	BankAddress         *records.Address `json:"bankAddress,omitempty"`
	FirstName           string           `json:"firstName,omitempty"`
	LastName            string           `json:"lastName,omitempty"`
}

// CreateCOPAccountRequest is POST .../bank-accounts/cop/ [decided].
type CreateCOPAccountRequest struct {
	Alias              string              `json:"alias"`
	BeneficiaryName    string              `json:"beneficiaryName"`
	Description        string              `json:"description,omitempty"`
	BeneficiaryType    string              `json:"beneficiaryType,omitempty"`
	BeneficiaryEmail   string              `json:"beneficiaryEmail,omitempty"`
	BeneficiaryAddress *records.COPAddress `json:"beneficiaryAddress,omitempty"`
	PhoneNumber        string              `json:"phoneNumber,omitempty"`
	AccountType        string              `json:"accountType,omitempty"`
	BankAccountNumber  string              `json:"bankAccountNumber,omitempty"`
	DocumentNumber     string              `json:"documentNumber,omitempty"`
	DocumentType       string              `json:"documentType,omitempty"`
	BankID             string              `json:"bankId,omitempty"`
	BankName           string              `json:"bankName,omitempty"`
	BreBKey            string              `json:"breBKey,omitempty"`
}

// CreateEURAccountRequest is POST .../bank-accounts/eur/ (§7.4).
type CreateEURAccountRequest struct {
	Alias               string `json:"alias"`
	Description         string `json:"description,omitempty"`
	IBAN                string `json:"iban"`
	BIC                 string `json:"bic,omitempty"`
	Country             string `json:"country"`
	BankBeneficiaryName string `json:"bankBeneficiaryName"`
	IsBusiness          bool   `json:"isBusiness"`
}

// CreateARSAccountRequest is POST .../bank-accounts/ars/ (§7.4).
type CreateARSAccountRequest struct {
	Alias       string `json:"alias"`
	Description string `json:"description,omitempty"`
	CVU         string `json:"cvu"`
}
