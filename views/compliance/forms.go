package compliance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

// The local rules of the UBO form are the seed's: the required fields,
// dateOfBirth as YYYY-MM-DD, countries as ISO 3166-1 alpha-3 and state as
// alpha-2.

// checkBirth checks a date of birth against the session's clock: a date
// in the future is a typo in the year.
func checkBirth(now func() time.Time) form.Check {
	return func(v string, _ func(string) string) (string, string, error) {
		d, err := validate.Date(v)
		if err != nil {
			return "", "", err
		}
		if d.After(now()) {
			return "", "", errors.New("is in the future: type the date of birth as YYYY-MM-DD")
		}
		return d.Format("2006-01-02"), "", nil
	}
}

var checkAlpha3 = form.Plain(validate.CountryAlpha3)

// checkState accepts the seed's alpha-2 state: the ISO 3166-2 subdivision
// part ("SP" of BR-SP, "NY" of US-NY), two letters. validate.CountryAlpha2
// checks country codes, which would refuse SP.
var checkState form.Check = func(v string, _ func(string) string) (string, string, error) {
	u := strings.ToUpper(strings.TrimSpace(v))
	if len(u) != 2 || u[0] < 'A' || u[0] > 'Z' || u[1] < 'A' || u[1] > 'Z' {
		return "", "", errors.New("a state is its 2-letter ISO code: type e.g. SP or NY")
	}
	return u, "", nil
}

// checkOwnerTaxID: a Brazilian owner is a person, whose tax id is a CPF
// (the service checks its digits); other countries' ids are kept as typed.
var checkOwnerTaxID form.Check = func(v string, value func(string) string) (string, string, error) {
	if strings.EqualFold(value("countryOfTaxId"), "BRA") {
		d, err := validate.CPF(v)
		if err != nil {
			return "", "", fmt.Errorf("a Brazilian owner's tax id is a CPF: %w", err)
		}
		return d, "CPF " + d, nil
	}
	if len(v) > 40 {
		return "", "", fmt.Errorf("has %d characters: a tax id has at most 40", len(v))
	}
	return v, "", nil
}

// checkPercent accepts a percentage between 0 (exclusive) and 100, written
// with "." or ",", without exponent.
var checkPercent form.Check = func(v string, _ func(string) string) (string, string, error) {
	t := strings.TrimSuffix(strings.TrimSpace(v), "%")
	t = strings.Replace(t, ",", ".", 1)
	if strings.ContainsAny(t, "eE+-") {
		return "", "", errors.New("type a plain number between 0 and 100, e.g. 25 or 12.5")
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return "", "", errors.New("not a number: type a percentage between 0 and 100, e.g. 25 or 12.5")
	}
	if !d.IsPositive() || d.GreaterThan(decimal.NewFromInt(100)) {
		return "", "", errors.New("must be more than 0 and at most 100")
	}
	return d.String(), d.String() + " %", nil
}

var checkUUID form.Check = func(v string, _ func(string) string) (string, string, error) {
	id, err := uuid.Parse(strings.TrimSpace(v))
	if err != nil {
		return "", "", errors.New("not an id: paste the uploaded document's id (a UUID, 8-4-4-4-12 characters)")
	}
	return id.String(), "", nil
}

// checkCountry accepts the alpha-2 or alpha-3 code of a mailing address (the
// seed does not say which one it keeps).
var checkCountry form.Check = func(v string, _ func(string) string) (string, string, error) {
	if len(strings.TrimSpace(v)) == 2 {
		n, err := validate.CountryAlpha2(v)
		return n, "", err
	}
	n, err := validate.CountryAlpha3(v)
	return n, "", err
}

// uboForm is the UBO form; now is the session's clock.
func uboForm(now func() time.Time) func() *form.Form {
	return func() *form.Form { return newUBOForm(now) }
}

func newUBOForm(now func() time.Time) *form.Form {
	return form.New("New ultimate beneficial owner (UBO)",
		form.Field{Key: "fullName", Label: "Full name", Required: true},
		form.Field{Key: "dateOfBirth", Label: "Date of birth", Required: true, Check: checkBirth(now), Placeholder: "YYYY-MM-DD"},
		form.Field{Key: "countryOfTaxId", Label: "Tax country", Required: true, Check: checkAlpha3, Placeholder: "e.g. BRA"},
		form.Field{Key: "taxIdNumber", Label: "Tax id", Required: true, Check: checkOwnerTaxID},
		form.Field{Key: "hasControl", Label: "Control", Required: true, Placeholder: "role giving control: CEO, Director…"},
		form.Field{Key: "percentageOfOwnership", Label: "Ownership %", Check: checkPercent, Placeholder: "e.g. 25"},
		form.Field{Key: "uploadedIdentificationId", Label: "ID document", Check: checkUUID, Placeholder: "uploaded document id"},
		form.Field{Key: "documentCountry", Label: "Doc country", Check: checkAlpha3, Placeholder: "e.g. BRA"},
		form.Field{Key: "streetLine1", Label: "Street"},
		form.Field{Key: "streetLine2", Label: "Street 2"},
		form.Field{Key: "streetLine3", Label: "Street 3"},
		form.Field{Key: "city", Label: "City"},
		form.Field{Key: "zipCode", Label: "Zip code"},
		form.Field{Key: "state", Label: "State", Check: checkState, Placeholder: "2 letters, e.g. SP"},
		form.Field{Key: "country", Label: "Country", Check: checkAlpha3, Placeholder: "e.g. BRA"},
	)
}

// uboRequest reads the UBO form into the call that creates the owner.
func uboRequest(svc Service) func(*form.Form) tabbed.Request {
	return func(f *form.Form) tabbed.Request { return uboRequestOf(svc, f) }
}

func uboRequestOf(svc Service, f *form.Form) tabbed.Request {
	req := api.CreateUBORequest{
		FullName:              f.Normalized("fullName"),
		DateOfBirth:           f.Normalized("dateOfBirth"),
		CountryOfTaxID:        f.Normalized("countryOfTaxId"),
		TaxIDNumber:           f.Normalized("taxIdNumber"),
		HasControl:            f.Normalized("hasControl"),
		PercentageOfOwnership: f.Normalized("percentageOfOwnership"),
		DocumentCountry:       f.Normalized("documentCountry"),
		StreetLine1:           f.Normalized("streetLine1"),
		StreetLine2:           f.Normalized("streetLine2"),
		StreetLine3:           f.Normalized("streetLine3"),
		City:                  f.Normalized("city"),
		ZipCode:               f.Normalized("zipCode"),
		State:                 f.Normalized("state"),
		Country:               f.Normalized("country"),
	}
	if id, err := uuid.Parse(f.Normalized("uploadedIdentificationId")); err == nil {
		req.UploadedIdentificationID = &id
	}
	return func(ctx context.Context, acct uuid.UUID) tabbed.Sent {
		id, err := svc.CreateUBO(ctx, acct, req)
		s := tabbed.Sent{Action: "create-ubo", Endpoint: "POST /v2/account/ubos/", IDs: map[string]string{}, Outcome: "submitted", Err: err,
			ID: id.String(), Toast: fmt.Sprintf("UBO %q created", req.FullName)}
		if err == nil {
			s.IDs["ubo"] = s.ID
		}
		return s
	}
}

// Choices of the W-8BEN's booleans; "not given" sends null.
const (
	choiceUnset = "not given"
	choiceYes   = "yes"
	choiceNo    = "no"
)

var mailingKeys = []string{"mailingAddress.streetAddress", "mailingAddress.city", "mailingAddress.state", "mailingAddress.zipCode", "mailingAddress.country"}

func w8benForm() *form.Form {
	claiming := func(v func(string) string) bool { return v("isClaimingTaxTreatyBenefits") == choiceYes }
	f := form.New("Submit a W-8BEN",
		form.Field{Key: "useDigitalSignature", Label: "Digital signature", Required: true, Choices: []string{choiceYes, choiceNo}},
		form.Field{Key: "foreignTinNotLegallyRequired", Label: "Foreign TIN not required", Choices: []string{choiceUnset, choiceYes, choiceNo}},
		form.Field{Key: "isClaimingTaxTreatyBenefits", Label: "Claims treaty benefits", Choices: []string{choiceUnset, choiceYes, choiceNo}},
		form.Field{Key: "treatyArticle", Label: "Treaty article", Visible: claiming, Placeholder: "e.g. Article 12"},
		form.Field{Key: "treatyIncomeType", Label: "Income type", Visible: claiming, Placeholder: "e.g. royalties"},
		form.Field{Key: "treatyWithholdingRate", Label: "Withholding rate", Visible: claiming, Check: checkPercent, Placeholder: "%"},
		form.Field{Key: "treatyExplanation", Label: "Explanation", Visible: claiming},
		form.Field{Key: "usTin", Label: "US TIN", Check: form.Plain(func(s string) (string, error) { return validate.Digits(s, 9, 9) }), Placeholder: "e.g. 123-45-6789"},
		form.Field{Key: "referenceNumber", Label: "Reference no."},
		form.Field{Key: mailingKeys[0], Label: "Mailing street"},
		form.Field{Key: mailingKeys[1], Label: "Mailing city"},
		form.Field{Key: mailingKeys[2], Label: "Mailing state"},
		form.Field{Key: mailingKeys[3], Label: "Mailing zip"},
		form.Field{Key: mailingKeys[4], Label: "Mailing country", Check: checkCountry, Placeholder: "e.g. BRA"},
	)
	// A partial mailing address is refused: street, city and country make
	// an address the form can be mailed to.
	f.AddRule(func(v func(string) string) (string, string) {
		any := false
		for _, k := range mailingKeys {
			any = any || v(k) != ""
		}
		if !any {
			return "", ""
		}
		for _, k := range []string{mailingKeys[0], mailingKeys[1], mailingKeys[4]} {
			if v(k) == "" {
				return k, "required once a mailing address is given: street, city and country"
			}
		}
		return "", ""
	})
	return f
}

func optBool(v string) *bool {
	switch v {
	case choiceYes:
		b := true
		return &b
	case choiceNo:
		b := false
		return &b
	}
	return nil
}

func optString(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

// w8benRequest reads the W-8BEN form into the call that submits it; the
// answer carries the URL of the generated form.
func w8benRequest(svc Service) func(*form.Form) tabbed.Request {
	return func(f *form.Form) tabbed.Request { return w8benRequestOf(svc, f) }
}

func w8benRequestOf(svc Service, f *form.Form) tabbed.Request {
	req := api.W8BENRequest{
		UseDigitalSignature:          f.Normalized("useDigitalSignature") == choiceYes,
		ForeignTinNotLegallyRequired: optBool(f.Normalized("foreignTinNotLegallyRequired")),
		IsClaimingTaxTreatyBenefits:  optBool(f.Normalized("isClaimingTaxTreatyBenefits")),
		TreatyArticle:                optString(f.Normalized("treatyArticle")),
		TreatyIncomeType:             optString(f.Normalized("treatyIncomeType")),
		TreatyWithholdingRate:        optString(f.Normalized("treatyWithholdingRate")),
		TreatyExplanation:            optString(f.Normalized("treatyExplanation")),
		UsTin:                        optString(f.Normalized("usTin")),
		ReferenceNumber:              optString(f.Normalized("referenceNumber")),
	}
	addr := api.MailingAddress{
		StreetAddress: f.Normalized(mailingKeys[0]),
		City:          f.Normalized(mailingKeys[1]),
		State:         f.Normalized(mailingKeys[2]),
		ZipCode:       f.Normalized(mailingKeys[3]),
		Country:       f.Normalized(mailingKeys[4]),
	}
	if addr != (api.MailingAddress{}) {
		req.MailingAddress = &addr
	}
	return func(ctx context.Context, acct uuid.UUID) tabbed.Sent {
		w, err := svc.SubmitW8BEN(ctx, acct, req)
		s := tabbed.Sent{Action: "submit-w8ben", Endpoint: "POST /v2/kyc/w8ben/", IDs: map[string]string{}, Outcome: "submitted", Err: err,
			Toast: "W-8BEN submitted", Value: w}
		if err == nil && w != nil {
			s.ID = w.ID.String()
			s.IDs["w8ben"] = s.ID
			s.Toast += ": " + w.W8BenURL
		}
		return s
	}
}
