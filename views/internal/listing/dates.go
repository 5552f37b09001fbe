package listing

import (
	"fmt"
	"time"

	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Keys of the creation-date fields of a filter bar.
const (
	FromKey = "from"
	ToKey   = "to"
)

// CreatedFrom and CreatedTo are the filter bar's fields of the creation-date
// range: calendar days, both inclusive.
func CreatedFrom() widget.FilterField {
	return widget.FilterField{Key: FromKey, Label: "Created from", Placeholder: "YYYY-MM-DD (inclusive)", Normalize: NormDate}
}

// CreatedTo: see CreatedFrom.
func CreatedTo() widget.FilterField {
	return widget.FilterField{Key: ToKey, Label: "Created to", Placeholder: "YYYY-MM-DD (inclusive)", Normalize: NormDate}
}

// NormDate accepts a date as validate.Date does and returns it as
// YYYY-MM-DD.
func NormDate(s string) (string, error) {
	d, err := validate.Date(s)
	if err != nil {
		return "", err
	}
	return d.Format(time.DateOnly), nil
}

// Created maps the creation-date range, calendar days in loc (either may
// be empty), to the service's bounds: "from" starts at its midnight
// (createdAfter is inclusive) and "to" ends at the next midnight, so that a
// day typed in both fields lists that whole day.
func Created(from, to string, loc *time.Location) (after, before time.Time, err error) {
	if from != "" {
		if after, err = time.ParseInLocation(time.DateOnly, from, loc); err != nil {
			return after, before, fmt.Errorf("created from: %w", err)
		}
	}
	if to != "" {
		d, err := time.ParseInLocation(time.DateOnly, to, loc)
		if err != nil {
			return after, before, fmt.Errorf("created to: %w", err)
		}
		before = d.AddDate(0, 0, 1)
	}
	if !after.IsZero() && !before.IsZero() && !after.Before(before) {
		return after, before, fmt.Errorf("the range is empty: \"created from\" %s is after \"created to\" %s", from, to)
	}
	return after, before, nil
}

// CheckCreated is the filter bar's check (widget.FilterBar.SetCheck) that
// the creation-date range is not empty, in the zone loc returns.
func CheckCreated(loc func() *time.Location) func(value func(key string) string) error {
	return func(value func(string) string) error {
		_, _, err := Created(value(FromKey), value(ToKey), loc())
		return err
	}
}
