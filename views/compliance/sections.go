package compliance

import (
	"context"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

// section is one list of the screen, with its create form if it has one.
type section struct {
	*tabbed.List
	key, noun string
	newForm   func() *form.Form // nil: nothing to create
	request   func(f *form.Form) tabbed.Request
}

func stamp(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02 15:04")
}

func sections(s *ui.Session, svc Service) []*section {
	ss := []*section{
		{
			key: "ubos", noun: "UBO", newForm: uboForm(s.Now), request: uboRequest(svc),
			List: &tabbed.List{Title: "UBOs", Narrow: []int{0, 1},
				Cols: []widget.Column{{Title: "Full name"}, {Title: "Born", Width: 10}, {Title: "Tax", Width: 3}, {Title: "Tax id", Width: 14},
					{Title: "Control", Width: 16}, {Title: "%", Width: 6, Right: true}},
				Load: tabbed.Paged(func(ctx context.Context, acct uuid.UUID, c string) (api.Page[api.UBO], error) {
					return svc.ListUBOs(ctx, acct, c)
				}, uboEntry)},
		},
		{
			key: "w8ben", noun: "W-8BEN", newForm: w8benForm, request: w8benRequest(svc),
			List: &tabbed.List{Title: "W-8BEN", Narrow: []int{1},
				Cols: []widget.Column{{Title: "Submitted", Width: 16}, {Title: "Form URL"}},
				Load: tabbed.Whole(svc.ListW8BENs, w8benEntry)},
		},
		{
			key: "poa", noun: "proof-of-address attempt",
			List: &tabbed.List{Title: "Proof of address", Narrow: []int{1, 2, 3},
				Cols: []widget.Column{{Title: "Created", Width: 16}, {Title: "Status", Width: 10}, {Title: "Result", Width: 8}, {Title: "Message"}},
				Load: tabbed.Paged(func(ctx context.Context, acct uuid.UUID, c string) (api.Page[api.ProofOfAddressAttempt], error) {
					return svc.ListProofOfAddressAttempts(ctx, api.TimeRangeFilter{SubAccountID: acct, Cursor: c})
				}, poaEntry)},
		},
	}
	for _, s := range ss {
		s.What = s.Title
		s.Empty = "no " + s.noun + " yet"
	}
	return ss
}

func uboEntry(u api.UBO) tabbed.Entry {
	return tabbed.Entry{ID: u.ID.String(),
		Cells: []string{u.FullName, u.DateOfBirth, u.CountryOfTaxID, u.TaxIDNumber, u.HasControl, u.PercentageOfOwnership},
		Detail: [][2]string{{"Full name", u.FullName}, {"Born", u.DateOfBirth}, {"Tax country", u.CountryOfTaxID},
			{"Tax id", u.TaxIDNumber}, {"Control", u.HasControl}, {"Ownership", u.PercentageOfOwnership},
			{"Created", stamp(u.CreatedAt)}, {"Id", u.ID.String()}}}
}

func w8benEntry(w api.W8BEN) tabbed.Entry {
	return tabbed.Entry{ID: w.ID.String(), Cells: []string{stamp(w.CreatedAt), w.W8BenURL},
		Detail: [][2]string{{"Form URL", w.W8BenURL}, {"Submitted", stamp(w.CreatedAt)}, {"Id", w.ID.String()}}}
}

func poaEntry(a api.ProofOfAddressAttempt) tabbed.Entry {
	return tabbed.Entry{ID: a.ID.String(), Cells: []string{stamp(a.CreatedAt), a.Status, a.Result, a.ResultMessage},
		Detail: [][2]string{{"Status", a.Status}, {"Result", a.Result}, {"Message", a.ResultMessage},
			{"Created", stamp(a.CreatedAt)}, {"Updated", stamp(a.UpdatedAt)},
			{"Upload id", a.UploadedPoAID.String()}, {"Id", a.ID.String()}}}
}
