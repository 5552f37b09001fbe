package beneficiaries

import (
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

// EUR (SEPA) and ARS (CVU) beneficiaries, the two kinds the live service
// added (spec/service.md §7.4). It offers no delete for either.

// checkIBAN shows the IBAN in groups of four, as printed on a statement,
// with its country, so that a typo in the country is seen before sending.
var checkIBAN form.Check = func(v string, _ func(string) string) (string, string, error) {
	iban, err := validate.IBAN(v)
	if err != nil {
		return "", "", err
	}
	hint := "IBAN " + validate.IBANGroups(iban) + ", check digits verified"
	if a3, err := validate.Alpha2To3(iban[:2]); err == nil {
		hint += " (" + a3 + ")"
	}
	return iban, hint, nil
}

var checkBIC = form.Plain(validate.BIC)

// checkCVU verifies both check digits of a CVU and shows its two blocks.
var checkCVU form.Check = func(v string, _ func(string) string) (string, string, error) {
	cvu, err := validate.CVU(v)
	if err != nil {
		return "", "", err
	}
	return cvu, fmt.Sprintf("CVU %s %s, both check digits verified", cvu[:8], cvu[8:]), nil
}

// eurCountry is the country the request carries: the one typed, else the
// IBAN's (the service requires it; most operators would type the IBAN's).
func eurCountry(f *form.Form) string {
	if c := f.Normalized("country"); c != "" {
		return c
	}
	if iban := f.Normalized("iban"); len(iban) >= 2 {
		if a3, err := validate.Alpha2To3(iban[:2]); err == nil {
			return a3
		}
	}
	return ""
}

func eurKind(svc Service) *kind {
	return &kind{svc: svc,
		key: "eur", noun: "EUR account",
		List: &tabbed.List{Title: "EUR", Narrow: []int{0, 2},
			Cols: []widget.Column{{Title: "Alias", Width: 16}, {Title: "Beneficiary", Width: 20}, {Title: "IBAN"}, {Title: "BIC", Width: 11}},
			Load: lists(svc, Service.ListEURAccounts, eurEntry)},
		newForm: func() *form.Form {
			return beneficiaryForm("New EUR bank account (SEPA)", "",
				form.Field{Key: "bankBeneficiaryName", Label: "Beneficiary", Required: true},
				form.Field{Key: "iban", Label: "IBAN", Required: true, Check: checkIBAN, Placeholder: "DE89 3704 0044 0532 0130 00"},
				form.Field{Key: "bic", Label: "BIC", Check: checkBIC, Placeholder: "optional: DEUTDEFF"},
				form.Field{Key: "country", Label: "Country", Check: checkAlpha3, Placeholder: "blank: the IBAN's (ISO alpha-3)"},
				form.Field{Key: "isBusiness", Label: "Business", Choices: []string{"no", "yes"}},
			)
		},
		prepare: func(f *form.Form) sender {
			req := api.CreateEURAccountRequest{
				Alias:               f.Normalized("alias"),
				Description:         f.Normalized("description"),
				IBAN:                f.Normalized("iban"),
				BIC:                 f.Normalized("bic"),
				Country:             eurCountry(f),
				BankBeneficiaryName: f.Normalized("bankBeneficiaryName"),
				IsBusiness:          f.Value("isBusiness") == "yes",
			}
			return creates(Service.CreateEURAccount, req)
		},
		keyOf:      eurFormKey,
		createPath: "POST /v2/account/beneficiaries/bank-accounts/eur/",
	}
}

func arsKind(svc Service) *kind {
	return &kind{svc: svc,
		key: "ars", noun: "ARS account",
		List: &tabbed.List{Title: "ARS", Narrow: []int{0, 1},
			Cols: []widget.Column{{Title: "Alias", Width: 16}, {Title: "CVU", Width: 23}, {Title: "Description"}, {Title: "Created", Width: 10}},
			Load: lists(svc, Service.ListARSAccounts, arsEntry)},
		newForm: func() *form.Form {
			return beneficiaryForm("New ARS account (CVU)", "",
				form.Field{Key: "cvu", Label: "CVU", Required: true, Check: checkCVU, Placeholder: "22 digits"},
			)
		},
		prepare: func(f *form.Form) sender {
			req := api.CreateARSAccountRequest{
				Alias:       f.Normalized("alias"),
				Description: f.Normalized("description"),
				CVU:         f.Normalized("cvu"),
			}
			return creates(Service.CreateARSAccount, req)
		},
		keyOf:      arsFormKey,
		createPath: "POST /v2/account/beneficiaries/bank-accounts/ars/",
	}
}

func eurEntry(e api.EURAccount) tabbed.Entry {
	business := "no"
	if e.IsBusiness {
		business = "yes"
	}
	iban := e.IBAN
	if iban != "" {
		iban = validate.IBANGroups(iban)
	}
	return tabbed.Entry{ID: e.ID.String(), Name: e.Alias, Key: ibanKey(e.IBAN),
		Cells: []string{e.Alias, e.BankBeneficiaryName, iban, e.BIC},
		Detail: [][2]string{{"Alias", e.Alias}, {"Beneficiary", e.BankBeneficiaryName}, {"IBAN", iban}, {"BIC", e.BIC},
			{"Country", e.Country}, {"Business", business}, {"Description", e.Description}, {"Id", e.ID.String()}}}
}

func arsEntry(a api.ARSAccount) tabbed.Entry {
	cvu := a.CVU
	if len(cvu) == 22 {
		cvu = cvu[:8] + " " + cvu[8:]
	}
	return tabbed.Entry{ID: a.ID.String(), Name: a.Alias, Key: cvuKey(a.CVU),
		Cells:  []string{a.Alias, cvu, strings.TrimSpace(a.Description), date(a.CreatedAt)},
		Detail: [][2]string{{"Alias", a.Alias}, {"CVU", cvu}, {"Description", a.Description}, {"Id", a.ID.String()}}}
}
