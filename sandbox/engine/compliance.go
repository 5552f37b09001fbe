// Compliance records: UBOs, W-8BEN forms, proof-of-address attempts,
// identity documents and KYC attempts, and their demo data.
//
// A submitted W-8BEN form's w8BenUrl points at this sandbox (W8BENFormPath
// and its id, no credentials, like a pre-signed link), which serves a
// plain-text copy of the form; the record keeps the path alone, so the
// link follows the address the sandbox is reached at. Proof-of-address
// attempts are only listed: they come from document uploads and reviews
// that happen outside this interface, so the demo history holds them in
// every state.

package engine

import (
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// W8BENFormPath is where a submitted W-8BEN form is served, by its id.
const W8BENFormPath = "/v2/sandbox/kyc/w8ben/"

// AddUBO records an owner (validated by the caller) of the operated
// account.
func (e *Engine) AddUBO(c Caller, u records.UBO) (uuid.UUID, error) {
	if err := c.writable(); err != nil {
		return uuid.Nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	u.ID = uuid.New()
	u.CreatedAt = records.NewTime(c.Now)
	acct.ubos.add(c.Now, u.ID, &u)
	e.changed(acct)
	return u.ID, nil
}

// SubmitW8BEN records a W-8BEN form of the operated account.
func (e *Engine) SubmitW8BEN(c Caller) (records.W8BEN, error) {
	if err := c.writable(); err != nil {
		return records.W8BEN{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return records.W8BEN{}, err
	}
	w := &records.W8BEN{ID: uuid.New(), CreatedAt: records.NewTime(c.Now)}
	w.W8BenURL = W8BENFormPath + w.ID.String()
	acct.w8bens.add(c.Now, w.ID, w)
	e.changed(acct)
	return *w, nil
}

// W8BENList is every W-8BEN form of the operated account, newest first.
func (e *Engine) W8BENList(c Caller) ([]records.W8BEN, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	all := acct.w8bens.all()
	out := make([]records.W8BEN, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		out = append(out, *all[i])
	}
	return out, nil
}

// W8BENForm is the form id, whatever its account (its link needs no
// credentials: the id is the secret), and the account.
func (e *Engine) W8BENForm(id uuid.UUID) (records.W8BEN, *Account, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, acct := range append([]*Account{e.st.main}, e.st.subs...) {
		if w, ok := acct.w8bens.get(id); ok {
			return *w, acct, nil
		}
	}
	return records.W8BEN{}, nil, notFound("W-8BEN form", id)
}

// AddDocument records an identity document of the operated account. The
// sandbox takes its upload as done at once (ready).
func (e *Engine) AddDocument(c Caller, documentType string, doubleSided bool) (records.Document, error) {
	if err := c.writable(); err != nil {
		return records.Document{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return records.Document{}, err
	}
	id := e.newID()
	base := "https://uploads.sandbox.invalid/documents/" + id.String()
	d := &records.Document{ID: id, DocumentType: documentType, UploadStatusFront: "UPLOADED", UploadURLFront: base + "/front",
		Ready: true, CreatedAt: records.NewTime(c.Now), UpdatedAt: records.NewTime(c.Now)}
	if doubleSided {
		d.UploadStatusBack, d.UploadURLBack = "UPLOADED", base+"/back"
	}
	acct.documents.add(c.Now, id, d)
	e.changed(acct)
	return *d, nil
}

// SubmitKYC records a level-1 KYC attempt of the operated account with
// what was submitted (its fields checked by the caller). It completes at
// once: APPROVED when the documents it names exist and the tax id is
// valid, REJECTED otherwise (sandboxReject forces a rejection); the
// outcome is an event of the account.
func (e *Engine) SubmitKYC(c Caller, data map[string]any) (uuid.UUID, error) {
	if err := c.writable(); err != nil {
		return uuid.Nil, err
	}
	str := func(k string) string { v, _ := data[k].(string); return strings.TrimSpace(v) }
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	result, msg := "APPROVED", ""
	for _, k := range []string{"uploadedDocumentId", "uploadedSelfieId"} {
		if id := str(k); id != "" {
			did, err := uuid.Parse(id)
			if _, ok := acct.documents.get(did); err != nil || !ok {
				result, msg = "REJECTED", k+" names no document of this account"
			}
		}
	}
	if str("countryOfTaxId") == "BRA" {
		if _, _, err := validate.TaxID(str("taxIdNumber")); err != nil {
			result, msg = "REJECTED", "taxIdNumber: "+err.Error()
		}
	}
	if b, _ := data["sandboxReject"].(bool); b {
		result, msg = "REJECTED", "rejected on request (sandboxReject)"
	}
	id := e.newID()
	delete(data, "subAccountId")
	k := &records.KYCAttempt{ID: id, LevelName: "level-1", SubmissionData: data, Status: "COMPLETED", Result: result, ResultMessage: msg,
		Retryable: result == "REJECTED", CreatedAt: records.NewTime(c.Now), UpdatedAt: records.NewTime(c.Now)}
	acct.kyc.add(c.Now, id, k)
	e.changed(acct)
	e.insertEvent(acct, &Event{ID: e.newID(), Subscription: "KYC", Status: "KYC-COMPLETED", DataID: id.String(), CreatedAt: c.Now})
	return id, nil
}
