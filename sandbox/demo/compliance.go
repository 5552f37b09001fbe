package demo

import (
	"fmt"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

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

// compliance adds an account's demo UBOs, W-8BEN forms and
// proof-of-address attempts: 1-3 owners, 0-2 forms, and 4-6 attempts with
// at least one of each state and result.
func (p *past) compliance(acct *engine.Account) {
	r, now := p.r, p.now
	daysAgo := func(lo, hi int) time.Time {
		return now.Add(-time.Duration(lo*24*60+r.IntN((hi-lo)*24*60)) * time.Minute)
	}

	owners := 1 + r.IntN(3)
	share := 100
	for i, n := range r.Perm(len(demoOwners))[:owners] {
		u := &records.UBO{ID: r.uuid(), FullName: demoOwners[n], HasControl: demoRoles[i%len(demoRoles)], CreatedAt: records.NewTime(daysAgo(60, 300))}
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
		p.e.UBOs().Put(acct, u.CreatedAt.Time, u.ID, u)
	}

	for range r.IntN(3) {
		w := &records.W8BEN{ID: r.uuid(), CreatedAt: records.NewTime(daysAgo(5, 85))}
		w.W8BenURL = engine.W8BENFormPath + w.ID.String()
		p.e.W8BENs().Put(acct, w.CreatedAt.Time, w.ID, w)
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
		a := &records.ProofOfAddressAttempt{ID: r.uuid(), UploadedPoAID: r.uuid(), Status: st.status, Result: st.result, CreatedAt: records.NewTime(created), UpdatedAt: records.NewTime(created)}
		switch {
		case st.result == poaRejected:
			a.ResultMessage = r.pick(poaRejections)
			a.UpdatedAt = records.NewTime(created.Add(st.review))
		case st.result == poaApproved:
			a.ResultMessage = r.pick(poaApprovals)
			a.UpdatedAt = records.NewTime(created.Add(st.review))
		case st.status == poaProcessing:
			// Picked up by a reviewer a little after the upload.
			if mid := created.Add(time.Duration(10+r.IntN(50)) * time.Minute); mid.Before(now) {
				a.UpdatedAt = records.NewTime(mid)
			}
		}
		p.e.ProofsOfAddress().Put(acct, created, a.ID, a)
	}
}
