package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Sentinels for errors.Is. A *Error matches the sentinel of its status (or,
// for ErrQuoteExpired, of its service code).
var (
	ErrNotFound        = errors.New("not found")
	ErrUnauthenticated = errors.New("not authenticated")
	ErrForbidden       = errors.New("forbidden")
	ErrQuoteExpired    = errors.New("quote expired")
	ErrRateLimited     = errors.New("rate limited")
	// ErrMalformedResponse matches a response whose body could not be read
	// or is not the JSON the endpoint returns.
	ErrMalformedResponse = errors.New("malformed response")
	// ErrNoAnswer matches a call that got no complete answer: the service
	// was unreachable, the connection dropped, or the timeout passed.
	ErrNoAnswer = errors.New("no answer from the service")
	// ErrOutcomeUnknown matches an *OutcomeUnknownError: a write reached the
	// service but its answer was lost, and the client could not establish
	// what happened.
	ErrOutcomeUnknown = errors.New("outcome unknown")
)

// CodeReplayed is the service's code for a signed request it has seen
// already (401): each request must be signed afresh.
const CodeReplayed = "REPLAYED"

// Error is a failed call: the service answered with a non-success status,
// or with a body the client cannot read.
type Error struct {
	Status  int    // HTTP status
	Code    string // service error code (QUOTE_EXPIRED, NOT_FOUND, ...); empty when the body had none
	Message string // the service's message, sanitised
	Method  string
	Path    string // request path without the query
	// Excerpt is a short, sanitised start of the body when it was not the
	// documented error shape (a proxy page, plain text, a truncated body).
	Excerpt string
	// RetryAfter is the wait the service asked for (429 and 503), if any.
	RetryAfter time.Duration

	malformed bool
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", e.Method, e.Path)
	if e.malformed {
		fmt.Fprintf(&b, "unreadable answer (HTTP %d)", e.Status)
	} else {
		fmt.Fprintf(&b, "HTTP %d", e.Status)
		if t := http.StatusText(e.Status); t != "" {
			b.WriteString(" " + t)
		}
	}
	if e.Code != "" {
		b.WriteString(" [" + e.Code + "]")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Excerpt != "" {
		fmt.Fprintf(&b, " (body: %q)", e.Excerpt)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, "; retry after %s", e.RetryAfter)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrNotFound) and the other sentinels work.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrUnauthenticated:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrQuoteExpired:
		return e.Code == codeQuoteExpired
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrMalformedResponse:
		return e.malformed
	}
	return false
}

// Temporary reports whether the same call may succeed later unchanged
// (rate limiting and server-side failures).
func (e *Error) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// excerptLen bounds how much of an unexpected body an error carries.
const excerptLen = 160

// messageLen bounds the service's own message.
const messageLen = 500

// newStatusError builds the error of a non-success response.
func newStatusError(method, path string, status int, header http.Header, body []byte) *Error {
	e := &Error{Status: status, Method: method, Path: path, RetryAfter: parseRetryAfter(header.Get("Retry-After"), time.Now())}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil {
		if eb.Error != nil && (eb.Error.Code != "" || eb.Error.Message != "") {
			e.Code = sanitize(eb.Error.Code, 64)
			e.Message = sanitize(eb.Error.Message, messageLen)
			return e
		}
		if eb.Message != "" {
			e.Message = sanitize(eb.Message, messageLen)
			return e
		}
	}
	e.Excerpt = sanitize(string(body), excerptLen)
	return e
}

// malformedError reports a response the client cannot read.
func malformedError(method, path string, status int, body []byte, cause error) *Error {
	return &Error{
		Status: status, Method: method, Path: path, malformed: true,
		Message: sanitize(cause.Error(), messageLen),
		Excerpt: sanitize(string(body), excerptLen),
	}
}

// sanitize makes text from the network safe to show in a terminal: control
// characters (escape sequences included) become spaces, runs of spaces
// collapse, invalid UTF-8 is replaced, and the result is cut to max runes.
func sanitize(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for len(s) > 0 && n < max {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if r == utf8.RuneError && size <= 1 {
			r = '\uFFFD'
		}
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029' || (r >= 0x200B && r <= 0x200F) || (r >= 0x202A && r <= 0x202E) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
				n++
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
		n++
	}
	out := strings.TrimRight(b.String(), " ")
	if len(s) > 0 {
		out += "…"
	}
	return out
}

// OutcomeUnknownError is returned by CreateTicket when the request reached
// the service but its answer was lost (a timeout, a dropped connection, a
// 5xx or an unreadable body) and looking the ticket up by its externalId did
// not settle what happened. The client never re-sends in that case: the
// service does not deduplicate, and a re-send could pay twice.
type OutcomeUnknownError struct {
	ExternalID   string
	SubAccountID uuid.UUID
	// Parked is true when the service answered 202 (parked for approval)
	// but the operation in the answer could not be read.
	Parked bool
	// Cause is what went wrong with the creation call.
	Cause error
	// LookupErr is why the lookup by externalId failed, if it did.
	LookupErr error
}

func (e *OutcomeUnknownError) Error() string {
	account := "the main account"
	if e.SubAccountID != uuid.Nil {
		account = "sub-account " + e.SubAccountID.String()
	}
	if e.Parked {
		return fmt.Sprintf("ticket creation was parked for approval (externalId %s, %s) but the answer could not be read (%v); do not create it again: find the pending operation in the approvals list", e.ExternalID, account, e.Cause)
	}
	msg := fmt.Sprintf("ticket creation outcome unknown (externalId %s, %s): %v; ", e.ExternalID, account, e.Cause)
	if e.LookupErr != nil {
		msg += fmt.Sprintf("looking it up failed too (%v); ", e.LookupErr)
	} else {
		msg += "no ticket with that externalId was found yet, but the request may have been parked for approval or may still be processing; "
	}
	return msg + "do not create it again: search the tickets for that externalId (and the approvals list) in a minute, and only if it is absent request a new quote"
}

// Is matches ErrOutcomeUnknown.
func (e *OutcomeUnknownError) Is(target error) bool { return target == ErrOutcomeUnknown }

// Unwrap returns the creation call's failure.
func (e *OutcomeUnknownError) Unwrap() error { return e.Cause }
