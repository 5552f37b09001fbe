package compliance

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/ui/widget"
	"tesouro/views/beneficiaries/form"
)

// maxPages bounds a list load.
const maxPages = 40

// entry is one record of a section as shown.
type entry struct {
	id     string
	cells  []string
	detail [][2]string
}

// section is one list of the screen, with its create form if it has one.
type section struct {
	key, title, noun string
	cols             []widget.Column
	// narrow are the columns kept on a narrow terminal.
	narrow  []int
	load    func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error)
	newForm func() *form.Form // nil: nothing to create
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

func stamp(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02 15:04")
}

func sections() []*section {
	return []*section{
		{
			key: "ubos", title: "UBOs", noun: "UBO",
			cols: []widget.Column{{Title: "Full name"}, {Title: "Born", Width: 10}, {Title: "Tax", Width: 3}, {Title: "Tax id", Width: 14},
				{Title: "Control", Width: 16}, {Title: "%", Width: 6, Right: true}},
			narrow: []int{0, 1},
			load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
				us, err := loadAll(ctx, func(ctx context.Context, c string) (api.Page[api.UBO], error) {
					return svc.ListUBOs(ctx, acct, c)
				})
				out := make([]entry, 0, len(us))
				for _, u := range us {
					out = append(out, entry{id: u.ID.String(),
						cells: []string{u.FullName, u.DateOfBirth, u.CountryOfTaxID, u.TaxIDNumber, u.HasControl, u.PercentageOfOwnership},
						detail: [][2]string{{"Full name", u.FullName}, {"Born", u.DateOfBirth}, {"Tax country", u.CountryOfTaxID},
							{"Tax id", u.TaxIDNumber}, {"Control", u.HasControl}, {"Ownership", u.PercentageOfOwnership},
							{"Created", stamp(u.CreatedAt)}, {"Id", u.ID.String()}}})
				}
				return out, err
			},
			newForm: uboForm,
		},
		{
			key: "w8ben", title: "W-8BEN", noun: "W-8BEN",
			cols:   []widget.Column{{Title: "Submitted", Width: 16}, {Title: "Form URL"}},
			narrow: []int{1},
			load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
				ws, err := svc.ListW8BENs(ctx, acct)
				out := make([]entry, 0, len(ws))
				for _, w := range ws {
					out = append(out, entry{id: w.ID.String(), cells: []string{stamp(w.CreatedAt), w.W8BenURL},
						detail: [][2]string{{"Form URL", w.W8BenURL}, {"Submitted", stamp(w.CreatedAt)}, {"Id", w.ID.String()}}})
				}
				return out, err
			},
			newForm: w8benForm,
		},
		{
			key: "poa", title: "Proof of address", noun: "proof-of-address attempt",
			cols:   []widget.Column{{Title: "Created", Width: 16}, {Title: "Status", Width: 10}, {Title: "Result", Width: 8}, {Title: "Message"}},
			narrow: []int{1, 2, 3},
			load: func(ctx context.Context, svc api.Service, acct uuid.UUID) ([]entry, error) {
				as, err := loadAll(ctx, func(ctx context.Context, c string) (api.Page[api.ProofOfAddressAttempt], error) {
					return svc.ListProofOfAddressAttempts(ctx, api.TimeRangeFilter{SubAccountID: acct, Cursor: c})
				})
				out := make([]entry, 0, len(as))
				for _, a := range as {
					out = append(out, entry{id: a.ID.String(), cells: []string{stamp(a.CreatedAt), a.Status, a.Result, a.ResultMessage},
						detail: [][2]string{{"Status", a.Status}, {"Result", a.Result}, {"Message", a.ResultMessage},
							{"Created", stamp(a.CreatedAt)}, {"Updated", stamp(a.UpdatedAt)},
							{"Upload id", a.UploadedPoAID.String()}, {"Id", a.ID.String()}}})
				}
				return out, err
			},
		},
	}
}

func (s *section) empty() string { return fmt.Sprintf("no %s yet", s.noun) }
