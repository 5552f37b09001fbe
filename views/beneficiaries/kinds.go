package beneficiaries

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/money"
	"tesouro/ui/widget"
	"tesouro/validate"
	"tesouro/views/beneficiaries/form"
)

// maxPages bounds how many pages a list loads; beneficiary lists are short,
// and a runaway cursor must not loop forever.
const maxPages = 40

// entry is one beneficiary as the screen shows it, whatever its kind.
type entry struct {
	id     string
	alias  string
	cells  []string
	detail [][2]string // label, value
}

// sender is a create or delete call whose request was read from the form
// (or the selection) before the command runs, so it holds only values.
type sender func(ctx context.Context, svc api.Service, account uuid.UUID) (uuid.UUID, error)

// kind is one family of beneficiaries: how to list, create and delete it.
type kind struct {
	key, title, noun string
	cols             []widget.Column
	// narrow are the columns kept on a narrow terminal.
	narrow     []int
	load       func(ctx context.Context, svc api.Service, account uuid.UUID) ([]entry, error)
	newForm    func() *form.Form
	prepare    func(f *form.Form) sender
	createPath string
	// del is nil where the service offers no delete (USD, COP).
	del     func(ctx context.Context, svc api.Service, account, id uuid.UUID) error
	delPath string
}

func loadAll[T any](ctx context.Context, fetch func(ctx context.Context, cursor string) (api.Page[T], error)) ([]T, error) {
	var out []T
	cursor := ""
	for range maxPages {
		p, err := fetch(ctx, cursor)
		if err != nil {
			return out, err
		}
		out = append(out, p.Items...)
		if !p.More() {
			break
		}
		cursor = p.Cursor
	}
	return out, nil
}

func date(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02")
}

func kinds() []*kind {
	return []*kind{walletKind(), brlKind(), usdKind(), copKind()}
}

func walletKind() *kind {
	return &kind{
		key: "wallet", title: "Wallets", noun: "wallet",
		cols:   []widget.Column{{Title: "Alias", Width: 16}, {Title: "Chain", Width: 9}, {Title: "Address"}, {Title: "Created", Width: 10}},
		narrow: []int{0, 2},
		load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
			ws, err := loadAll(ctx, func(ctx context.Context, c string) (api.Page[api.Wallet], error) {
				return svc.ListWallets(ctx, api.WalletFilter{SubAccountID: acct, Cursor: c})
			})
			out := make([]entry, 0, len(ws))
			for _, w := range ws {
				out = append(out, entry{
					id: w.ID.String(), alias: w.Alias,
					cells: []string{w.Alias, w.WalletChain, w.WalletAddress, date(w.CreatedAt)},
					detail: [][2]string{{"Alias", w.Alias}, {"Address", w.WalletAddress}, {"Chain", w.WalletChain},
						{"Memo", w.WalletMemo}, {"Description", w.Description}, {"Id", w.ID.String()}},
				})
			}
			return out, err
		},
		newForm: func() *form.Form {
			return form.New("New beneficiary wallet",
				form.Field{Key: "alias", Label: "Alias", Required: true, Placeholder: "treasury cold wallet", CharLimit: 100},
				form.Field{Key: "walletChain", Label: "Chain", Required: true, Choices: money.Chains()},
				form.Field{Key: "walletAddress", Label: "Address", Required: true, Placeholder: "0x…", Check: checkWalletAddress},
				form.Field{Key: "walletMemo", Label: "Memo"},
				form.Field{Key: "description", Label: "Description", CharLimit: 255},
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
			return func(ctx context.Context, svc api.Service, acct uuid.UUID) (uuid.UUID, error) {
				return svc.CreateWallet(ctx, acct, req)
			}
		},
		createPath: "POST /v2/account/beneficiaries/wallets/",
		del: func(ctx context.Context, svc api.Service, acct, id uuid.UUID) error {
			return svc.DeleteWallet(ctx, acct, id)
		},
		delPath: "DELETE /v2/account/beneficiaries/wallets/",
	}
}

// BRL beneficiary modes of the create form.
const (
	modePix  = "PIX key"
	modeBank = "bank account"
)

func brlKind() *kind {
	isBank := func(v func(string) string) bool { return v("mode") == modeBank }
	isPix := func(v func(string) string) bool { return v("mode") == modePix }
	return &kind{
		key: "brl", title: "BRL", noun: "BRL account",
		cols:   []widget.Column{{Title: "Alias", Width: 16}, {Title: "Kind", Width: 10}, {Title: "Key / account"}, {Title: "Name", Width: 18}},
		narrow: []int{0, 2},
		load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
			bs, err := loadAll(ctx, func(ctx context.Context, c string) (api.Page[api.BRLAccount], error) {
				return svc.ListBRLAccounts(ctx, api.BeneficiaryFilter{SubAccountID: acct, Cursor: c})
			})
			out := make([]entry, 0, len(bs))
			for _, b := range bs {
				e := entry{id: b.ID.String(), alias: b.Alias}
				if b.PixKey != "" {
					e.cells = []string{b.Alias, "PIX " + b.PixKeyType, b.PixKey, b.UserName}
					e.detail = [][2]string{{"Alias", b.Alias}, {"PIX key", b.PixKey}, {"Key kind", b.PixKeyType}}
				} else {
					acc := b.BankCode + " " + b.BranchCode + " " + b.AccountNumber
					e.cells = []string{b.Alias, "bank", acc, b.UserName}
					e.detail = [][2]string{{"Alias", b.Alias}, {"Holder", b.UserName}, {"Tax id", b.TaxID},
						{"Bank", b.BankCode}, {"Branch", b.BranchCode}, {"Account", b.AccountNumber + " (" + b.AccountType + ")"}}
				}
				e.detail = append(e.detail, [2]string{"Description", b.Description}, [2]string{"Id", b.ID.String()})
				out = append(out, e)
			}
			return out, err
		},
		newForm: func() *form.Form {
			return form.New("New BRL beneficiary",
				form.Field{Key: "alias", Label: "Alias", Required: true, Placeholder: "supplier", CharLimit: 100},
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
				form.Field{Key: "description", Label: "Description", CharLimit: 255},
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
			return func(ctx context.Context, svc api.Service, acct uuid.UUID) (uuid.UUID, error) {
				return svc.CreateBRLAccount(ctx, acct, req)
			}
		},
		createPath: "POST /v2/account/beneficiaries/bank-accounts/brl/",
		del: func(ctx context.Context, svc api.Service, acct, id uuid.UUID) error {
			return svc.DeleteBRLAccount(ctx, acct, id)
		},
		delPath: "DELETE /v2/account/beneficiaries/bank-accounts/brl/",
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

func usdKind() *kind {
	return &kind{
		key: "usd", title: "USD", noun: "USD account",
		cols:   []widget.Column{{Title: "Alias", Width: 16}, {Title: "Beneficiary", Width: 20}, {Title: "Routing", Width: 9}, {Title: "Account"}},
		narrow: []int{0, 3},
		load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
			us, err := loadAll(ctx, func(ctx context.Context, c string) (api.Page[api.USDAccount], error) {
				return svc.ListUSDAccounts(ctx, api.BeneficiaryFilter{SubAccountID: acct, Cursor: c})
			})
			out := make([]entry, 0, len(us))
			for _, u := range us {
				out = append(out, entry{
					id: u.ID.String(), alias: u.Alias,
					cells: []string{u.Alias, u.BankBeneficiaryName, u.BankRoutingNumber, u.BankAccountNumber},
					detail: [][2]string{{"Alias", u.Alias}, {"Beneficiary", u.BankBeneficiaryName},
						{"Name", strings.TrimSpace(u.FirstName + " " + u.LastName)},
						{"Routing", u.BankRoutingNumber}, {"Account", u.BankAccountNumber}, {"Bank", u.BankName},
						{"Address", addressLine(u.BankBeneficiaryAddress)}, {"Bank address", addressLine(u.BankAddress)},
						{"Description", u.Description}, {"Id", u.ID.String()}},
				})
			}
			return out, err
		},
		newForm: func() *form.Form {
			return form.New("New USD bank account",
				form.Field{Key: "alias", Label: "Alias", Required: true, CharLimit: 100},
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
				form.Field{Key: "description", Label: "Description", CharLimit: 255},
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
			return func(ctx context.Context, svc api.Service, acct uuid.UUID) (uuid.UUID, error) {
				return svc.CreateUSDAccount(ctx, acct, req)
			}
		},
		createPath: "POST /v2/account/beneficiaries/bank-accounts/usd/",
	}
}

func copKind() *kind {
	return &kind{
		key: "cop", title: "COP", noun: "COP account",
		cols:   []widget.Column{{Title: "Alias", Width: 16}, {Title: "Beneficiary", Width: 20}, {Title: "Account / Bre-B"}, {Title: "Bank", Width: 14}},
		narrow: []int{0, 2},
		load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
			cs, err := loadAll(ctx, func(ctx context.Context, c string) (api.Page[api.COPAccount], error) {
				return svc.ListCOPAccounts(ctx, api.BeneficiaryFilter{SubAccountID: acct, Cursor: c})
			})
			out := make([]entry, 0, len(cs))
			for _, c := range cs {
				where := c.BankAccountNumber
				if where == "" {
					where = "Bre-B " + c.BreBKey
				}
				addr := ""
				if a := c.BeneficiaryAddress; a != nil {
					addr = addressLine(api.Address{StreetLine1: a.StreetLine1, City: a.City, State: a.State, PostalCode: a.ZipCode, Country: a.Country})
				}
				out = append(out, entry{
					id: c.ID.String(), alias: c.Alias,
					cells: []string{c.Alias, c.BeneficiaryName, where, c.BankName},
					detail: [][2]string{{"Alias", c.Alias}, {"Beneficiary", c.BeneficiaryName}, {"Type", c.BeneficiaryType},
						{"Document", strings.TrimSpace(c.DocumentType + " " + c.DocumentNumber)},
						{"Account", strings.TrimSpace(c.BankAccountNumber + " " + c.AccountType)}, {"Bank", strings.TrimSpace(c.BankName + " " + c.BankID)},
						{"Bre-B key", c.BreBKey}, {"E-mail", c.BeneficiaryEmail}, {"Phone", c.PhoneNumber}, {"Address", addr},
						{"Description", c.Description}, {"Id", c.ID.String()}},
				})
			}
			return out, err
		},
		newForm: func() *form.Form {
			f := form.New("New COP bank account",
				form.Field{Key: "alias", Label: "Alias", Required: true, CharLimit: 100},
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
				form.Field{Key: "description", Label: "Description", CharLimit: 255},
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
			return func(ctx context.Context, svc api.Service, acct uuid.UUID) (uuid.UUID, error) {
				return svc.CreateCOPAccount(ctx, acct, req)
			}
		},
		createPath: "POST /v2/account/beneficiaries/bank-accounts/cop/",
	}
}
