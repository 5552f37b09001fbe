package api

import (
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// query builds a query string; empty values are left out so that a filter
// that is not set is not sent.
type query url.Values

func newQuery() query { return query{} }

func (q query) sub(id uuid.UUID) query {
	if id != uuid.Nil {
		q[qSubAccountID] = []string{id.String()}
	}
	return q
}

func (q query) str(k, v string) query {
	if v != "" {
		q[k] = []string{v}
	}
	return q
}

// decimal sets an amount when it is given.
func (q query) decimal(k string, d decimal.NullDecimal) query {
	if d.Valid {
		q[k] = []string{d.Decimal.String()}
	}
	return q
}

func (q query) boolean(k string, v bool) query {
	q[k] = []string{strconv.FormatBool(v)}
	return q
}

func (q query) cursor(c string) query { return q.str(qCursor, c) }

// unix sets an integer Unix-seconds time filter.
func (q query) unix(k string, t time.Time) query {
	if !t.IsZero() {
		q[k] = []string{unixTimeParam(t)}
	}
	return q
}

// rfc3339 sets an RFC 3339 time filter (the ticket list only).
func (q query) rfc3339(k string, t time.Time) query {
	if !t.IsZero() {
		q[k] = []string{ticketTimeParam(t)}
	}
	return q
}

func (q query) values() url.Values { return url.Values(q) }
