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
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/validate"
)

// W8BENFormPath is where a submitted W-8BEN form is served, by its id.
const W8BENFormPath = "/v2/sandbox/kyc/w8ben/"

// AddUBO records an owner (validated by the caller) of the operated
// account.
func (e *Engine) AddUBO(c Caller, u UBO) (uuid.UUID, error) {
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
	u.CreatedAt = NewTime(c.Now)
	acct.ubos.add(c.Now, u.ID, &u)
	e.changed(acct)
	return u.ID, nil
}

// SubmitW8BEN records a W-8BEN form of the operated account.
func (e *Engine) SubmitW8BEN(c Caller) (W8BEN, error) {
	if err := c.writable(); err != nil {
		return W8BEN{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return W8BEN{}, err
	}
	w := &W8BEN{ID: uuid.New(), CreatedAt: NewTime(c.Now)}
	w.W8BenURL = W8BENFormPath + w.ID.String()
	acct.w8bens.add(c.Now, w.ID, w)
	e.changed(acct)
	return *w, nil
}

// W8BENList is every W-8BEN form of the operated account, newest first.
func (e *Engine) W8BENList(c Caller) ([]W8BEN, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, err
	}
	all := acct.w8bens.all()
	out := make([]W8BEN, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		out = append(out, *all[i])
	}
	return out, nil
}

// W8BENForm is the form id, whatever its account (its link needs no
// credentials: the id is the secret), and the account.
func (e *Engine) W8BENForm(id uuid.UUID) (W8BEN, *Account, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, acct := range append([]*Account{e.st.main}, e.st.subs...) {
		if w, ok := acct.w8bens.get(id); ok {
			return *w, acct, nil
		}
	}
	return W8BEN{}, nil, notFound("W-8BEN form", id)
}

// AddDocument records an identity document of the operated account. The
// sandbox takes its upload as done at once (ready).
func (e *Engine) AddDocument(c Caller, documentType string, doubleSided bool) (Document, error) {
	if err := c.writable(); err != nil {
		return Document{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return Document{}, err
	}
	id := e.newID()
	base := "https://uploads.sandbox.invalid/documents/" + id.String()
	d := &Document{ID: id, DocumentType: documentType, UploadStatusFront: "UPLOADED", UploadURLFront: base + "/front",
		Ready: true, CreatedAt: NewTime(c.Now), UpdatedAt: NewTime(c.Now)}
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
	k := &KYCAttempt{ID: id, LevelName: "level-1", SubmissionData: data, Status: "COMPLETED", Result: result, ResultMessage: msg,
		Retryable: result == "REJECTED", CreatedAt: NewTime(c.Now), UpdatedAt: NewTime(c.Now)}
	acct.kyc.add(c.Now, id, k)
	e.changed(acct)
	e.insertEvent(acct, &Event{ID: e.newID(), Subscription: "KYC", Status: "KYC-COMPLETED", DataID: id.String(), CreatedAt: c.Now})
	return id, nil
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
func seedCompliance(r demoRand, acct *Account, now time.Time) {
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
		w.W8BenURL = W8BENFormPath + w.ID.String()
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
