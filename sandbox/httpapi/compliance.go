package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Compliance records: UBOs, W-8BEN forms (and the plain-text copy a
// form's w8BenUrl links to), proof-of-address attempts, identity documents
// and KYC attempts.

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
func (q *uboRequest) check(today time.Time) (records.UBO, error) {
	var u records.UBO
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
	} else if validate.Chars(u.TaxIDNumber) > 40 {
		return u, badRequest(codeInvalidField, "taxIdNumber: %d characters is too long for a tax id; type at most 40", validate.Chars(u.TaxIDNumber))
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
	id, err := s.eng.AddUBO(c.caller(), u)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/account/ubos/
func (s *Server) listUBOs(c *call) error {
	return listPage(c, "ubos", engine.Window{}, s.eng.UBOs(), nil)
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
	w, err := s.eng.SubmitW8BEN(c.caller())
	if err != nil {
		return err
	}
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
	out, err := s.eng.W8BENList(c.caller())
	if err != nil {
		return err
	}
	for i := range out {
		out[i].W8BenURL = c.absoluteURL(out[i].W8BenURL)
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
	w, acct, err := s.eng.W8BENForm(id)
	if err != nil {
		return err
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

// GET /v2/account/address/proof-of-address/attempts/
func (s *Server) listPoAAttempts(c *call) error {
	w, err := c.createdWindow(c.queryUnix)
	if err != nil {
		return err
	}
	return listPage(c, "attempts", w, s.eng.ProofsOfAddress(), nil)
}

var documentTypes = []string{"ID", "DRIVERS-LICENSE", "PASSPORT", "SELFIE", "SELFIE-FROM-LIVENESS", "RESIDENCE-PERMIT", "CERTIFICATE-OF-INCORPORATION", "COMPANY-TAX-IDENTIFICATION-DOCUMENT"}

// POST /v2/documents/ {documentType, isDoubleSided}: a record and its
// upload URLs. The sandbox takes the upload as done at once (ready).
func (s *Server) createDocument(c *call) error {
	var req CreateDocumentRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	if !slices.Contains(documentTypes, req.DocumentType) {
		return badRequest(codeInvalidField, "documentType: must be one of %s, got %q", strings.Join(documentTypes, ", "), truncate(req.DocumentType, 30))
	}
	d, err := s.eng.AddDocument(c.caller(), req.DocumentType, req.IsDoubleSided)
	if err != nil {
		return err
	}
	return c.reply(http.StatusCreated, DocumentUpload{ID: d.ID.String(), UploadURLFront: d.UploadURLFront, UploadURLBack: d.UploadURLBack})
}

// GET /v2/documents/?documentType
func (s *Server) listDocuments(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	kind := c.query.Get("documentType")
	return listPage(c, "documents", w, s.eng.Documents(), func(d *records.Document) bool { return kind == "" || d.DocumentType == kind })
}

// GET /v2/documents/{id}
func (s *Server) getDocument(c *call) error {
	return getRecord(s, c, "document", s.eng.Documents())
}

// getRecord replies {key: record} with the record of the path's id.
func getRecord[T any](s *Server, c *call, key string, recs engine.Records[T]) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	v, err := recs.Get(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{key: v})
}

// POST /v2/kyc/new-level-1/api: a level-1 attempt for the account named by
// subAccountId (body or query). It completes at once (engine.SubmitKYC).
func (s *Server) submitKYCLevel1(c *call) error {
	var req map[string]any
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	str := func(k string) string { v, _ := req[k].(string); return strings.TrimSpace(v) }
	for _, k := range []string{"fullName", "dateOfBirth", "countryOfTaxId", "taxIdNumber", "uploadedDocumentId"} {
		if str(k) == "" {
			return badRequest(codeMissingField, "%s: required", k)
		}
	}
	if _, err := time.Parse("2006-01-02", str("dateOfBirth")); err != nil {
		return badRequest(codeInvalidField, "dateOfBirth: %q is not YYYY-MM-DD", truncate(str("dateOfBirth"), 20))
	}
	if sub := str("subAccountId"); sub != "" && c.query.Get("subAccountId") == "" {
		c.query.Set("subAccountId", sub)
	}
	id, err := s.eng.SubmitKYC(c.caller(), req)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/kyc/attempts/?levelName&status&result
func (s *Server) listKYCAttempts(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	level, status, result := c.query.Get("levelName"), c.query.Get("status"), c.query.Get("result")
	return listPage(c, "attempts", w, s.eng.KYCAttempts(), func(k *records.KYCAttempt) bool {
		return (level == "" || k.LevelName == level) && (status == "" || k.Status == status) && (result == "" || k.Result == result)
	})
}

// GET /v2/kyc/attempts/{id}
func (s *Server) getKYCAttempt(c *call) error {
	return getRecord(s, c, "attempt", s.eng.KYCAttempts())
}

// GET /v2/kyc/w8ben/{id}
func (s *Server) getW8BEN(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	v, err := s.eng.W8BENs().Get(c.caller(), id)
	if err != nil {
		return err
	}
	v.W8BenURL = c.absoluteURL(v.W8BenURL)
	return c.reply(http.StatusOK, map[string]any{"w8ben": v})
}

// DocumentUpload is the answer of POST /v2/documents: where to upload.
type DocumentUpload struct {
	ID             string `json:"id"`
	UploadURLFront string `json:"uploadURLFront"`
	UploadURLBack  string `json:"uploadURLBack,omitempty"`
}

// CreateDocumentRequest is POST /v2/documents (§7.4).
type CreateDocumentRequest struct {
	DocumentType  string `json:"documentType"`
	IsDoubleSided bool   `json:"isDoubleSided"`
}
