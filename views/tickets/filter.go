package tickets

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// Keys of the filter bar's fields, besides the creation dates'.
const (
	fStatus     = "status"
	fInCur      = "in"
	fOutCur     = "out"
	fOutMethod  = "method"
	fExternalID = "ext"
	fEndToEndID = "e2e"
)

// statuses are the live ticket states (service.md §7.2); the filter
// accepts others, since the service may send more.
var statuses = func() []string {
	out := make([]string, len(api.TicketStatuses))
	for i, s := range api.TicketStatuses {
		out[i] = string(s)
	}
	return out
}()

func newFilterBar() *widget.FilterBar {
	return widget.NewFilterBar(
		widget.FilterField{Key: fStatus, Label: "Status", Placeholder: "any (PAID, UNPAID, …)", Suggestions: statuses, Normalize: normStatus},
		widget.FilterField{Key: fInCur, Label: "Input currency", Placeholder: "any (BRL, USDC, …)", Suggestions: money.Currencies(), Normalize: normCurrency},
		widget.FilterField{Key: fOutCur, Label: "Output currency", Placeholder: "any", Suggestions: money.Currencies(), Normalize: normCurrency},
		widget.FilterField{Key: fOutMethod, Label: "Output method", Placeholder: "any (PIX, POLYGON, ACH, …)", Suggestions: allMethods(), Normalize: normMethod},
		listing.CreatedFrom(),
		listing.CreatedTo(),
		widget.FilterField{Key: fExternalID, Label: "External ID", Placeholder: "exact value"},
		widget.FilterField{Key: fEndToEndID, Label: "End-to-end ID", Placeholder: "PIX end-to-end id (E…)", Normalize: normEndToEnd},
	)
}

func allMethods() []string {
	var out []string
	for _, c := range money.Currencies() {
		for _, m := range money.Methods(c) {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// word accepts a code made of letters, digits, "-" and "_".
func word(s, what, example string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	for _, r := range u {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", fmt.Errorf("%q is not a %s: type a code such as %s", s, what, example)
		}
	}
	return u, nil
}

func normStatus(s string) (string, error) { return word(s, "ticket status", "PAID") }

func normCurrency(s string) (string, error) {
	u, err := word(s, "currency", "BRL or USDC")
	if err != nil {
		return "", err
	}
	if !slices.Contains(money.Currencies(), u) {
		return "", fmt.Errorf("%q is not a currency the service handles: use one of %s", s, strings.Join(money.Currencies(), ", "))
	}
	return u, nil
}

func normMethod(s string) (string, error) { return word(s, "payment method", "PIX or POLYGON") }

func normEndToEnd(s string) (string, error) {
	t := strings.TrimSpace(s)
	if strings.ContainsAny(t, " \t") {
		return "", fmt.Errorf("an end-to-end id has no spaces: paste it as the bank shows it")
	}
	return t, nil
}

// filterValues is the applied filter of the list, captured by value when a
// query is made so that a later edit cannot change a request under way.
type filterValues struct {
	Status, InCur, OutCur, OutMethod string
	From, To                         string // YYYY-MM-DD, local calendar days, both inclusive
	ExternalID, EndToEndID           string
}

func valuesOf(f *widget.FilterBar) filterValues {
	return filterValues{
		Status: f.Value(fStatus), InCur: f.Value(fInCur), OutCur: f.Value(fOutCur), OutMethod: f.Value(fOutMethod),
		From: f.Value(listing.FromKey), To: f.Value(listing.ToKey), ExternalID: f.Value(fExternalID), EndToEndID: f.Value(fEndToEndID),
	}
}

// query maps the filter to the service's query; dates are the operator's
// calendar days in loc.
func (f filterValues) query(account uuid.UUID, cursor string, loc *time.Location) (api.TicketFilter, error) {
	q := api.TicketFilter{
		SubAccountID:        account,
		Cursor:              cursor,
		Status:              f.Status,
		InputCurrency:       f.InCur,
		OutputCurrency:      f.OutCur,
		OutputPaymentMethod: f.OutMethod,
		ExternalID:          f.ExternalID,
		EndToEndID:          f.EndToEndID,
	}
	var err error
	q.CreatedAfter, q.CreatedBefore, err = listing.Created(f.From, f.To, loc)
	return q, err
}
