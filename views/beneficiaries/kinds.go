package beneficiaries

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

// kind is one family of beneficiaries: its list, and how to create and
// delete one.
type kind struct {
	*tabbed.List
	svc        Service
	key, noun  string
	newForm    func() *form.Form
	prepare    func(f *form.Form) sender
	createPath string
	// del is nil where the service offers no delete (USD, COP, EUR, ARS).
	del     func(svc Service, ctx context.Context, account, id uuid.UUID) error
	delPath string
	// keyOf is the account the form pays, written as its list's
	// Entry.Key (see same.go).
	keyOf func(f *form.Form) string
}

// sender is a create call whose request was read from the form before the
// command runs, so it holds only values.
type sender func(ctx context.Context, svc Service, account uuid.UUID) (uuid.UUID, error)

// creates binds a create method of the service to its request.
func creates[R any](create func(Service, context.Context, uuid.UUID, R) (uuid.UUID, error), req R) sender {
	return func(ctx context.Context, svc Service, acct uuid.UUID) (uuid.UUID, error) {
		return create(svc, ctx, acct, req)
	}
}

// lists is the Loader of a bank-account kind: its own list method of the
// service, paged by account and cursor, each record shown by show.
func lists[T any](svc Service, list func(Service, context.Context, api.BeneficiaryFilter) (api.Page[T], error), show func(T) tabbed.Entry) tabbed.Loader {
	return tabbed.Paged(func(ctx context.Context, acct uuid.UUID, c string) (api.Page[T], error) {
		return list(svc, ctx, api.BeneficiaryFilter{SubAccountID: acct, Cursor: c})
	}, show)
}

// beneficiaryForm is the create form of a kind: its own fields between
// the alias every beneficiary is listed and picked by (required;
// aliasExample its placeholder) and the description every one may carry.
func beneficiaryForm(title, aliasExample string, fields ...form.Field) *form.Form {
	all := append([]form.Field{{Key: "alias", Label: "Alias", Required: true, Placeholder: aliasExample, CharLimit: 100}}, fields...)
	return form.New(title, append(all, form.Field{Key: "description", Label: "Description", CharLimit: 255})...)
}

// request reads the kind's form into the call that creates the beneficiary
// and the journal line that records it.
func (k *kind) request(f *form.Form) tabbed.Request {
	send, alias, svc := k.prepare(f), f.Normalized("alias"), k.svc
	action, path, toast := "create-beneficiary-"+k.key, k.createPath, fmt.Sprintf("%s %q registered", capital(k.noun), alias)
	return func(ctx context.Context, acct uuid.UUID) tabbed.Sent {
		id, err := send(ctx, svc, acct)
		s := tabbed.Sent{Action: action, Endpoint: path, IDs: map[string]string{"alias": alias}, Outcome: "created", Err: err,
			ID: id.String(), Toast: toast}
		if err == nil {
			s.IDs["beneficiary"] = s.ID
		}
		return s
	}
}

func date(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02")
}

func kinds(svc Service) []*kind {
	ks := []*kind{walletKind(svc), brlKind(svc), usdKind(svc), copKind(svc), eurKind(svc), arsKind(svc)}
	for _, k := range ks {
		k.What = k.Title + " beneficiaries"
		k.Empty = "no " + k.noun + " registered"
	}
	return ks
}

func walletKind(svc Service) *kind {
	return &kind{svc: svc,
		key: "wallet", noun: "wallet",
		List: &tabbed.List{Title: "Wallets", Narrow: []int{0, 2},
			Cols: []widget.Column{{Title: "Alias", Width: 16}, {Title: "Chain", Width: 9}, {Title: "Address"}, {Title: "Created", Width: 10}},
			Load: tabbed.Paged(func(ctx context.Context, acct uuid.UUID, c string) (api.Page[api.Wallet], error) {
				return svc.ListWallets(ctx, api.WalletFilter{SubAccountID: acct, Cursor: c})
			}, walletEntry)},
		newForm: func() *form.Form {
			return beneficiaryForm("New beneficiary wallet", "treasury cold wallet",
				form.Field{Key: "walletChain", Label: "Chain", Required: true, Choices: money.Chains()},
				form.Field{Key: "walletAddress", Label: "Address", Required: true, Placeholder: "0x…", Check: checkWalletAddress},
				form.Field{Key: "walletMemo", Label: "Memo"},
			)
		},
		prepare: func(f *form.Form) sender {
			req := api.CreateWalletRequest{
				Alias:         f.Normalized("alias"),
				WalletChain:   f.Normalized("walletChain"),
				WalletAddress: f.Normalized("walletAddress"),
				WalletMemo:    f.Normalized("walletMemo"),
				Description:   f.Normalized("description"),
			}
			return creates(Service.CreateWallet, req)
		},
		keyOf:      walletFormKey,
		createPath: "POST /v2/account/beneficiaries/wallets/",
		del:        Service.DeleteWallet,
		delPath:    "DELETE /v2/account/beneficiaries/wallets/",
	}
}

// BRL beneficiary modes of the create form.
const (
	modePix  = "PIX key"
	modeBank = "bank account"
)

func brlKind(svc Service) *kind {
	isBank := func(v func(string) string) bool { return v("mode") == modeBank }
	isPix := func(v func(string) string) bool { return v("mode") == modePix }
	return &kind{svc: svc,
		key: "brl", noun: "BRL account",
		List: &tabbed.List{Title: "BRL", Narrow: []int{0, 2},
			Cols: []widget.Column{{Title: "Alias", Width: 16}, {Title: "Kind", Width: 10}, {Title: "Key / account"}, {Title: "Holder / note", Width: 18}},
			Load: lists(svc, Service.ListBRLAccounts, brlEntry)},
		newForm: func() *form.Form {
			return beneficiaryForm("New BRL beneficiary", "supplier",
				form.Field{Key: "mode", Label: "Pay to", Required: true, Choices: []string{modePix, modeBank}},
				form.Field{Key: "pixKey", Label: "PIX key", Required: true, Check: checkPixKey, Visible: isPix,
					Placeholder: "CPF, CNPJ, +55 phone, e-mail or random key"},
				form.Field{Key: "taxId", Label: "CPF/CNPJ", Required: true, Check: checkTaxID, Visible: isBank},
				form.Field{Key: "userName", Label: "Holder name", Required: true, Visible: isBank},
				form.Field{Key: "bankCode", Label: "Bank code", Required: true, Check: checkBankCode, Visible: isBank, Placeholder: "341 (COMPE) or 8-digit ISPB"},
				form.Field{Key: "branchCode", Label: "Branch", Required: true, Check: checkDigits(1, 5), Visible: isBank, Placeholder: "0001"},
				form.Field{Key: "accountNumber", Label: "Account no.", Required: true, Check: checkDigits(1, 20), Visible: isBank},
				form.Field{Key: "accountType", Label: "Account type", Required: true, Visible: isBank,
					Choices: []string{"checking", "payment", "savings", "salary"}},
			)
		},
		prepare: func(f *form.Form) sender {
			req := api.CreateBRLAccountRequest{
				Alias:         f.Normalized("alias"),
				Description:   f.Normalized("description"),
				PixKey:        f.Normalized("pixKey"),
				TaxID:         f.Normalized("taxId"),
				UserName:      f.Normalized("userName"),
				BankCode:      f.Normalized("bankCode"),
				BranchCode:    f.Normalized("branchCode"),
				AccountNumber: f.Normalized("accountNumber"),
				AccountType:   f.Normalized("accountType"),
			}
			return creates(Service.CreateBRLAccount, req)
		},
		keyOf:      brlFormKey,
		createPath: "POST /v2/account/beneficiaries/bank-accounts/brl/",
		del:        Service.DeleteBRLAccount,
		delPath:    "DELETE /v2/account/beneficiaries/bank-accounts/brl/",
	}
}

func addressLine(a api.Address) string {
	parts := []string{}
	for _, p := range []string{a.StreetLine1, a.StreetLine2, a.City, a.State, a.PostalCode, a.Country} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

var checkAlpha3 = form.Plain(validate.CountryAlpha3)

func usdKind(svc Service) *kind {
	return &kind{svc: svc,
		key: "usd", noun: "USD account",
		List: &tabbed.List{Title: "USD", Narrow: []int{0, 3},
			Cols: []widget.Column{{Title: "Alias", Width: 16}, {Title: "Beneficiary", Width: 20}, {Title: "Routing", Width: 9}, {Title: "Account"}},
			Load: lists(svc, Service.ListUSDAccounts, usdEntry)},
		newForm: func() *form.Form {
			return beneficiaryForm("New USD bank account", "",
				form.Field{Key: "bankBeneficiaryName", Label: "Beneficiary", Required: true},
				form.Field{Key: "bankRoutingNumber", Label: "ABA routing", Required: true, Check: checkABA, Placeholder: "9 digits"},
				form.Field{Key: "bankAccountNumber", Label: "Account no.", Required: true, Check: checkDigits(4, 17)},
				form.Field{Key: "bankName", Label: "Bank name"},
				form.Field{Key: "firstName", Label: "First name"},
				form.Field{Key: "lastName", Label: "Last name"},
				form.Field{Key: "beneficiaryAddress.streetLine1", Label: "Street"},
				form.Field{Key: "beneficiaryAddress.city", Label: "City"},
				form.Field{Key: "beneficiaryAddress.state", Label: "State"},
				form.Field{Key: "beneficiaryAddress.postalCode", Label: "Postal code"},
				form.Field{Key: "beneficiaryAddress.country", Label: "Country", Check: checkAlpha3, Placeholder: "USA (ISO alpha-3)"},
			)
		},
		prepare: func(f *form.Form) sender {
			req := api.CreateUSDAccountRequest{
				Alias:               f.Normalized("alias"),
				Description:         f.Normalized("description"),
				BankAccountNumber:   f.Normalized("bankAccountNumber"),
				BankRoutingNumber:   f.Normalized("bankRoutingNumber"),
				BankBeneficiaryName: f.Normalized("bankBeneficiaryName"),
				BankName:            f.Normalized("bankName"),
				FirstName:           f.Normalized("firstName"),
				LastName:            f.Normalized("lastName"),
			}
			addr := api.Address{
				StreetLine1: f.Normalized("beneficiaryAddress.streetLine1"),
				City:        f.Normalized("beneficiaryAddress.city"),
				State:       f.Normalized("beneficiaryAddress.state"),
				PostalCode:  f.Normalized("beneficiaryAddress.postalCode"),
				Country:     f.Normalized("beneficiaryAddress.country"),
			}
			if addr != (api.Address{}) {
				req.BeneficiaryAddress = &addr
			}
			return creates(Service.CreateUSDAccount, req)
		},
		keyOf:      usdFormKey,
		createPath: "POST /v2/account/beneficiaries/bank-accounts/usd/",
	}
}

func copKind(svc Service) *kind {
	return &kind{svc: svc,
		key: "cop", noun: "COP account",
		List: &tabbed.List{Title: "COP", Narrow: []int{0, 2},
			Cols: []widget.Column{{Title: "Alias", Width: 16}, {Title: "Beneficiary", Width: 20}, {Title: "Account / Bre-B"}, {Title: "Bank", Width: 14}},
			Load: lists(svc, Service.ListCOPAccounts, copEntry)},
		newForm: func() *form.Form {
			f := beneficiaryForm("New COP bank account", "",
				form.Field{Key: "beneficiaryName", Label: "Beneficiary", Required: true},
				form.Field{Key: "breBKey", Label: "Bre-B key"},
				form.Field{Key: "bankAccountNumber", Label: "Account no.", Check: checkDigits(6, 20)},
				form.Field{Key: "accountType", Label: "Account type", Choices: []string{"", "SAVINGS", "CHECKING"}},
				form.Field{Key: "bankName", Label: "Bank name"},
				form.Field{Key: "bankId", Label: "Bank id"},
				form.Field{Key: "documentType", Label: "Document type", Choices: []string{"", "CC", "CE", "NIT", "PASSPORT", "PPT"}},
				form.Field{Key: "documentNumber", Label: "Document no.", Check: checkDigits(5, 15)},
				form.Field{Key: "beneficiaryEmail", Label: "E-mail", Check: checkEmail},
				form.Field{Key: "phoneNumber", Label: "Phone"},
			)
			// A COP payment goes to a Bre-B key or to a bank account; bank
			// details name the bank by id or name.
			f.AddRule(func(v func(string) string) (string, string) {
				bank := v("bankAccountNumber") != "" || v("bankId") != "" || v("bankName") != "" || v("accountType") != ""
				switch {
				case v("breBKey") == "" && !bank:
					return "breBKey", "type a Bre-B key, or the bank account below: the payment needs one of them"
				case bank && v("bankAccountNumber") == "":
					return "bankAccountNumber", "required with the other bank fields: type the account number (6 to 20 digits)"
				case bank && v("bankId") == "" && v("bankName") == "":
					return "bankId", "required with the bank fields: type the bank id or the bank name"
				}
				return "", ""
			})
			return f
		},
		prepare: func(f *form.Form) sender {
			req := api.CreateCOPAccountRequest{
				Alias:             f.Normalized("alias"),
				BeneficiaryName:   f.Normalized("beneficiaryName"),
				Description:       f.Normalized("description"),
				BeneficiaryEmail:  f.Normalized("beneficiaryEmail"),
				PhoneNumber:       f.Normalized("phoneNumber"),
				AccountType:       f.Normalized("accountType"),
				BankAccountNumber: f.Normalized("bankAccountNumber"),
				DocumentNumber:    f.Normalized("documentNumber"),
				DocumentType:      f.Normalized("documentType"),
				BankID:            f.Normalized("bankId"),
				BankName:          f.Normalized("bankName"),
				BreBKey:           f.Normalized("breBKey"),
			}
			return creates(Service.CreateCOPAccount, req)
		},
		keyOf:      copFormKey,
		createPath: "POST /v2/account/beneficiaries/bank-accounts/cop/",
	}
}

// The entries of the lists: the cells of a row, then every detail.

func walletEntry(w api.Wallet) tabbed.Entry {
	return tabbed.Entry{ID: w.ID.String(), Name: w.Alias, Key: walletKey(w.WalletAddress, w.WalletChain),
		Cells: []string{w.Alias, w.WalletChain, w.WalletAddress, date(w.CreatedAt)},
		Detail: [][2]string{{"Alias", w.Alias}, {"Address", w.WalletAddress}, {"Chain", w.WalletChain},
			{"Memo", w.WalletMemo}, {"Description", w.Description}, {"Id", w.ID.String()}}}
}

func brlEntry(b api.BRLAccount) tabbed.Entry {
	e := tabbed.Entry{ID: b.ID.String(), Name: b.Alias}
	if b.PixKey != "" {
		// The service keeps no holder's name for a PIX key: the column
		// says what it knows of who it pays, the tax id or the note.
		e.Key = pixKeyKey(b.PixKey)
		e.Cells = []string{b.Alias, "PIX " + b.PixKeyType, b.PixKey, nonEmpty(b.UserName, b.TaxID, b.Description)}
		e.Detail = [][2]string{{"Alias", b.Alias}, {"PIX key", b.PixKey}, {"Key kind", b.PixKeyType}, {"Tax id", b.TaxID}}
	} else {
		e.Key = brlBankKey(b.BankCode, b.BranchCode, b.AccountNumber)
		acc := b.BankCode + " " + b.BranchCode + " " + b.AccountNumber
		e.Cells = []string{b.Alias, "bank", acc, b.UserName}
		e.Detail = [][2]string{{"Alias", b.Alias}, {"Holder", b.UserName}, {"Tax id", b.TaxID},
			{"Bank", b.BankCode}, {"Branch", b.BranchCode}, {"Account", b.AccountNumber + " (" + b.AccountType + ")"}}
	}
	e.Detail = append(e.Detail, [2]string{"Description", b.Description}, [2]string{"Id", b.ID.String()})
	return e
}

func usdEntry(u api.USDAccount) tabbed.Entry {
	return tabbed.Entry{ID: u.ID.String(), Name: u.Alias, Key: usdKey(u.BankRoutingNumber, u.BankAccountNumber),
		Cells: []string{u.Alias, u.BankBeneficiaryName, u.BankRoutingNumber, u.BankAccountNumber},
		Detail: [][2]string{{"Alias", u.Alias}, {"Beneficiary", u.BankBeneficiaryName},
			{"Name", strings.TrimSpace(u.FirstName + " " + u.LastName)},
			{"Routing", u.BankRoutingNumber}, {"Account", u.BankAccountNumber}, {"Bank", u.BankName},
			{"Address", addressLine(u.BankBeneficiaryAddress)}, {"Bank address", addressLine(u.BankAddress)},
			{"Description", u.Description}, {"Id", u.ID.String()}}}
}

func copEntry(c api.COPAccount) tabbed.Entry {
	where := c.BankAccountNumber
	if where == "" {
		where = "Bre-B " + c.BreBKey
	}
	addr := ""
	if a := c.BeneficiaryAddress; a != nil {
		addr = addressLine(api.Address{StreetLine1: a.StreetLine1, City: a.City, State: a.State, PostalCode: a.ZipCode, Country: a.Country})
	}
	return tabbed.Entry{ID: c.ID.String(), Name: c.Alias, Key: copKey(c.BankAccountNumber, c.BreBKey),
		Cells: []string{c.Alias, c.BeneficiaryName, where, c.BankName},
		Detail: [][2]string{{"Alias", c.Alias}, {"Beneficiary", c.BeneficiaryName}, {"Type", c.BeneficiaryType},
			{"Document", strings.TrimSpace(c.DocumentType + " " + c.DocumentNumber)},
			{"Account", strings.TrimSpace(c.BankAccountNumber + " " + c.AccountType)}, {"Bank", strings.TrimSpace(c.BankName + " " + c.BankID)},
			{"Bre-B key", c.BreBKey}, {"E-mail", c.BeneficiaryEmail}, {"Phone", c.PhoneNumber}, {"Address", addr},
			{"Description", c.Description}, {"Id", c.ID.String()}}}
}
