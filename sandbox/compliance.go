// Compliance records: UBOs (POST/GET /v2/account/ubos/), W-8BEN forms
// (POST/GET /v2/kyc/w8ben/), proof-of-address attempts
// (GET /v2/account/address/proof-of-address/attempts/) and their demo data.
//
// UBO creation follows the seed's field rules; W-8BEN forms need only
// useDigitalSignature. A submitted form's w8BenUrl points at this sandbox
// (GET /v2/sandbox/kyc/w8ben/{id}, no credentials, like a pre-signed
// link), which serves a plain-text copy of the form; the store keeps the
// path alone, so the link follows the address the sandbox is reached at.
// Proof-of-address attempts are only listed: they come from document
// uploads and reviews that happen outside this interface, so the demo
// history holds them in every state.

package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/validate"
)

// w8benDocPath is where a submitted W-8BEN form is served.
const w8benDocPath = "/v2/sandbox/kyc/w8ben/"

// routeCompliance registers the compliance endpoints.
func (s *Server) routeCompliance(r *router) {
	r.handle(http.MethodPost, "/v2/account/ubos", authAccess, s.createUBO)
	r.handle(http.MethodGet, "/v2/account/ubos", authAccess, s.listUBOs)
	r.handle(http.MethodPost, "/v2/kyc/w8ben", authAccess, s.submitW8BEN)
	r.handle(http.MethodGet, "/v2/kyc/w8ben", authAccess, s.listW8BENs)
	r.handle(http.MethodGet, w8benDocPath+"{id}", authNone, s.w8benDocument)
	r.handle(http.MethodGet, "/v2/account/address/proof-of-address/attempts", authAccess, s.listPoAAttempts)
}

// uboRequest is the body of POST /v2/account/ubos/. Every field is a
// string on the wire, so a value of another JSON type is a 400 naming it.
type uboRequest struct {
	FullName                 string `json:"fullName"`
	DateOfBirth              string `json:"dateOfBirth"`
	CountryOfTaxID           string `json:"countryOfTaxId"`
	TaxIDNumber              string `json:"taxIdNumber"`
	HasControl               string `json:"hasControl"`
	PercentageOfOwnership    string `json:"percentageOfOwnership"`
	UploadedIdentificationID string `json:"uploadedIdentificationId"`
	DocumentCountry          string `json:"documentCountry"`
	StreetLine1              string `json:"streetLine1"`
	StreetLine2              string `json:"streetLine2"`
	StreetLine3              string `json:"streetLine3"`
	City                     string `json:"city"`
	ZipCode                  string `json:"zipCode"`
	State                    string `json:"state"`
	Country                  string `json:"country"`
}

// fieldProblem turns a validator's error into a 400 naming the field:
// MISSING_FIELD when nothing was sent, INVALID_FIELD otherwise.
func fieldProblem(field, value string, err error) error {
	if strings.TrimSpace(value) == "" {
		return badRequest(codeMissingField, "%s: %v", field, err)
	}
	return badRequest(codeInvalidField, "%s: %v", field, err)
}

// check validates a UBO and returns the record to store (without id and
// creation time). today is the sandbox's current UTC date.
func (q *uboRequest) check(today time.Time) (UBO, error) {
	var u UBO
	u.FullName = strings.TrimSpace(q.FullName)
	if u.FullName == "" {
		return u, badRequest(codeMissingField, "fullName: required: type the owner's full name")
	}
	dob, err := validate.Date(q.DateOfBirth)
	if err != nil {
		return u, fieldProblem("dateOfBirth", q.DateOfBirth, err)
	}
	if dob.After(today) {
		return u, badRequest(codeInvalidField, "dateOfBirth: %s is in the future: type the owner's date of birth as YYYY-MM-DD", dob.Format(time.DateOnly))
	}
	u.DateOfBirth = dob.Format(time.DateOnly)
	if u.CountryOfTaxID, err = validate.CountryAlpha3(q.CountryOfTaxID); err != nil {
		return u, fieldProblem("countryOfTaxId", q.CountryOfTaxID, err)
	}
	u.TaxIDNumber = strings.TrimSpace(q.TaxIDNumber)
	if u.TaxIDNumber == "" {
		return u, badRequest(codeMissingField, "taxIdNumber: required: type the owner's tax id in %s", u.CountryOfTaxID)
	}
	// An owner is a person: in Brazil, a CPF with valid check digits.
	if u.CountryOfTaxID == "BRA" {
		if u.TaxIDNumber, err = validate.CPF(u.TaxIDNumber); err != nil {
			return u, badRequest(codeInvalidField, "taxIdNumber: a Brazilian owner's tax id is a CPF: %v", err)
		}
	} else if len(u.TaxIDNumber) > 40 {
		return u, badRequest(codeInvalidField, "taxIdNumber: %d characters is too long for a tax id; type at most 40", len(u.TaxIDNumber))
	}
	u.HasControl = strings.TrimSpace(q.HasControl)
	if u.HasControl == "" {
		return u, badRequest(codeMissingField, "hasControl: required: say how the owner controls the company (e.g. CEO, majority shareholder)")
	}
	u.PercentageOfOwnership = strings.TrimSpace(q.PercentageOfOwnership)
	if raw := strings.TrimSpace(q.UploadedIdentificationID); raw != "" {
		if _, err := uuid.Parse(raw); err != nil {
			return u, badRequest(codeInvalidField, "uploadedIdentificationId: %q is not a UUID; send the id the document upload returned", truncate(raw, 40))
		}
	}
	for _, f := range []struct{ name, value string }{{"documentCountry", q.DocumentCountry}, {"country", q.Country}} {
		if strings.TrimSpace(f.value) == "" {
			continue
		}
		if _, err := validate.CountryAlpha3(f.value); err != nil {
			return u, badRequest(codeInvalidField, "%s: %v", f.name, err)
		}
	}
	if st := strings.TrimSpace(q.State); st != "" && !twoLetters(st) {
		return u, badRequest(codeInvalidField, "state: %q is not a 2-letter code: type the state's ISO code such as SP or NY", truncate(st, 20))
	}
	return u, nil
}

// twoLetters accepts the ISO 3166-2 subdivision part of a state ("SP" of
// BR-SP, "NY" of US-NY): two letters A-Z, either case.
func twoLetters(s string) bool {
	if len(s) != 2 {
		return false
	}
	for i := range 2 {
		ch := s[i] | 0x20
		if ch < 'a' || ch > 'z' {
			return false
		}
	}
	return true
}

// POST /v2/account/ubos/
func (s *Server) createUBO(c *call) error {
	if err := c.writable(); err != nil {
		return err
	}
	var req uboRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	today := time.Date(c.now.Year(), c.now.Month(), c.now.Day(), 0, 0, 0, 0, time.UTC)
	u, err := req.check(today)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	u.ID = newID()
	u.CreatedAt = NewTime(c.now)
	acct.ubos.add(c.now, u.ID, &u)
	s.changed(acct)
	return c.reply(http.StatusOK, map[string]string{"id": u.ID.String()})
}

// GET /v2/account/ubos/
func (s *Server) listUBOs(c *call) error {
	return listPage(s, c, "ubos", window{}, func(a *account) *series[UBO] { return a.ubos }, nil, deref[UBO])
}

// w8benRequest is the body of POST /v2/kyc/w8ben/: the nullable optional
// fields of the seed, typed so that a value of the wrong JSON type is a 400
// naming the field. useDigitalSignature is checked on the raw object, where
// missing and null can be told apart.
type w8benRequest struct {
	UseDigitalSignature          *bool   `json:"useDigitalSignature"`
	ForeignTinNotLegallyRequired *bool   `json:"foreignTinNotLegallyRequired"`
	IsClaimingTaxTreatyBenefits  *bool   `json:"isClaimingTaxTreatyBenefits"`
	TreatyArticle                *string `json:"treatyArticle"`
	TreatyIncomeType             *string `json:"treatyIncomeType"`
	TreatyWithholdingRate        *string `json:"treatyWithholdingRate"`
	TreatyExplanation            *string `json:"treatyExplanation"`
	UsTin                        *string `json:"usTin"`
	ReferenceNumber              *string `json:"referenceNumber"`
	MailingAddress               *struct {
		StreetAddress *string `json:"streetAddress"`
		City          *string `json:"city"`
		State         *string `json:"state"`
		ZipCode       *string `json:"zipCode"`
		Country       *string `json:"country"`
	} `json:"mailingAddress"`
}

// POST /v2/kyc/w8ben/
func (s *Server) submitW8BEN(c *call) error {
	if err := c.writable(); err != nil {
		return err
	}
	var req w8benRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(c.body, &fields); err != nil {
		return jsonError(err)
	}
	raw, ok := fields["useDigitalSignature"]
	switch {
	case !ok:
		return badRequest(codeMissingField, "useDigitalSignature: required: send true to sign digitally or false to sign on paper")
	case bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || req.UseDigitalSignature == nil:
		return badRequest(codeInvalidField, "useDigitalSignature: must be true or false, not null")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	w := &W8BEN{ID: newID(), CreatedAt: NewTime(c.now)}
	w.W8BenURL = w8benDocPath + w.ID.String()
	acct.w8bens.add(c.now, w.ID, w)
	s.changed(acct)
	return c.reply(http.StatusOK, map[string]string{"id": w.ID.String(), "w8BenUrl": c.absoluteURL(w.W8BenURL)})
}

// absoluteURL turns a stored path into a link at the address the caller
// reached the sandbox at; full URLs pass unchanged.
func (c *call) absoluteURL(u string) string {
	if !strings.HasPrefix(u, "/") || c.r.Host == "" {
		return u
	}
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host + u
}

// GET /v2/kyc/w8ben/
func (s *Server) listW8BENs(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	all := acct.w8bens.all()
	out := make([]W8BEN, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		w := *all[i]
		w.W8BenURL = c.absoluteURL(w.W8BenURL)
		out = append(out, w)
	}
	return c.reply(http.StatusOK, map[string]any{"w8bens": out})
}

// GET /v2/sandbox/kyc/w8ben/{id}: the form a w8BenUrl links to. Like a
// pre-signed link it needs no credentials; the id is the secret.
func (s *Server) w8benDocument(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, acct := range append([]*account{s.st.main}, s.st.subs...) {
		w, ok := acct.w8bens.get(id)
		if !ok {
			continue
		}
		doc := strings.Join([]string{
			"Form W-8BEN - Certificate of Foreign Status of Beneficial Owner",
			"",
			"Form id:   " + w.ID.String(),
			"Account:   " + acct.Name + " (" + acct.ID.String() + ")",
			"Submitted: " + w.CreatedAt.UTC().Format(time.RFC3339),
			"",
			"Issued by the Tesouro sandbox: not a tax form, no legal effect.",
			"",
		}, "\n")
		return c.replyRaw(http.StatusOK, "text/plain; charset=utf-8", []byte(doc), nil)
	}
	return notFound("W-8BEN form", id)
}

// GET /v2/account/address/proof-of-address/attempts/
func (s *Server) listPoAAttempts(c *call) error {
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	return listPage(s, c, "attempts", w, func(a *account) *series[ProofOfAddressAttempt] { return a.poa }, nil, deref[ProofOfAddressAttempt])
}

// Proof-of-address states and results (spec/service.md §5).
const (
	poaPending    = "PENDING"
	poaProcessing = "PROCESSING"
	poaCompleted  = "COMPLETED"
	poaApproved   = "APPROVED"
	poaRejected   = "REJECTED"
)

var (
	demoOwners = []string{"Maria Helena Albuquerque", "Ricardo Tavares Nogueira", "Beatriz Fonseca Prado", "Eduardo Martins Leal", "Helena Duarte", "Thomas Whitfield"}
	demoRoles  = []string{"CEO", "Majority shareholder", "Managing partner", "Board member"}
	// Foreign owners: country, tax id length.
	demoForeign = []struct {
		country string
		digits  int
	}{{"PRT", 9}, {"USA", 9}, {"DEU", 11}}
	poaRejections = []string{
		"The document is older than 90 days; upload a bill or statement from the last 3 months",
		"The name on the document does not match the account holder",
		"The image is unreadable; upload a sharper scan showing the whole page",
		"The address on the document differs from the registered address",
	}
	poaApprovals = []string{
		"Address confirmed from a utility bill",
		"Address confirmed from a bank statement",
	}
)

// seedCompliance adds an account's demo UBOs, W-8BEN forms and
// proof-of-address attempts: 1-3 owners, 0-2 forms, and 4-6 attempts with
// at least one of each state and result.
func seedCompliance(r demoRand, acct *account, now time.Time) {
	daysAgo := func(lo, hi int) time.Time {
		return now.Add(-time.Duration(lo*24*60+r.IntN((hi-lo)*24*60)) * time.Minute)
	}

	owners := 1 + r.IntN(3)
	share := 100
	for i, n := range r.Perm(len(demoOwners))[:owners] {
		u := &UBO{ID: r.uuid(), FullName: demoOwners[n], HasControl: demoRoles[i%len(demoRoles)], CreatedAt: NewTime(daysAgo(60, 300))}
		dob := time.Date(1950+r.IntN(45), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
		u.DateOfBirth = dob.Format(time.DateOnly)
		if i == 2 {
			f := demoForeign[r.IntN(len(demoForeign))]
			u.CountryOfTaxID, u.TaxIDNumber = f.country, r.digits(f.digits)
		} else {
			u.CountryOfTaxID, u.TaxIDNumber = "BRA", demoCPF(r)
		}
		pct := share
		if i < owners-1 {
			pct = 25 + r.IntN(share/2-10)
		}
		share -= pct
		u.PercentageOfOwnership = fmt.Sprintf("%d.%02d", pct, 0)
		acct.ubos.add(u.CreatedAt.Time, u.ID, u)
	}

	for range r.IntN(3) {
		w := &W8BEN{ID: r.uuid(), CreatedAt: NewTime(daysAgo(5, 85))}
		w.W8BenURL = w8benDocPath + w.ID.String()
		acct.w8bens.add(w.CreatedAt.Time, w.ID, w)
	}

	// Oldest first: rejected uploads, an approval, then a new address
	// being reviewed and one waiting in the queue.
	type step struct {
		status, result string
		lo, hi         int // days ago
		review         time.Duration
	}
	steps := []step{{poaCompleted, poaRejected, 70, 88, 26 * time.Hour}}
	if r.IntN(2) == 0 {
		steps = append(steps, step{poaCompleted, poaRejected, 50, 69, 5 * time.Hour})
	}
	steps = append(steps, step{poaCompleted, poaApproved, 30, 49, 20 * time.Hour})
	if r.IntN(2) == 0 {
		steps = append(steps, step{poaCompleted, poaApproved, 8, 29, 3 * time.Hour})
	}
	steps = append(steps, step{poaProcessing, "", 1, 3, 0}, step{poaPending, "", 0, 1, 0})
	for _, st := range steps {
		created := daysAgo(st.lo, st.hi)
		a := &ProofOfAddressAttempt{ID: r.uuid(), UploadedPoAID: r.uuid(), Status: st.status, Result: st.result, CreatedAt: NewTime(created), UpdatedAt: NewTime(created)}
		switch {
		case st.result == poaRejected:
			a.ResultMessage = r.pick(poaRejections)
			a.UpdatedAt = NewTime(created.Add(st.review))
		case st.result == poaApproved:
			a.ResultMessage = r.pick(poaApprovals)
			a.UpdatedAt = NewTime(created.Add(st.review))
		case st.status == poaProcessing:
			// Picked up by a reviewer a little after the upload.
			if mid := created.Add(time.Duration(10+r.IntN(50)) * time.Minute); mid.Before(now) {
				a.UpdatedAt = NewTime(mid)
			}
		}
		acct.poa.add(created, a.ID, a)
	}
}
