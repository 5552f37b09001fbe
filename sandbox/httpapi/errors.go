package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Error codes of the error body (spec/service.md §4): the rules' own
// (package engine) and those of the interface itself.
const (
	codeInvalidField    = engine.CodeInvalidField
	codeMissingField    = engine.CodeMissingField
	codeInvalidAmount   = engine.CodeInvalidAmount
	codeUnsupportedPair = engine.CodeUnsupportedPair
	codeUnexpectedBlock = engine.CodeUnexpectedBlock
	codeInvalidCursor   = engine.CodeInvalidCursor

	codeInvalidRequest = "INVALID_REQUEST"
	codeInvalidJSON    = "INVALID_JSON"
	codeLoginRequired  = "LOGIN_REQUIRED"

	codeUnauthenticated = "UNAUTHENTICATED"
	codeBadSignature    = "BAD_SIGNATURE"
	codeTimestampSkew   = "TIMESTAMP_SKEW"
	codeTokenExpired    = "TOKEN_EXPIRED"

	codeNotFound         = engine.CodeNotFound
	codeMethodNotAllowed = "METHOD_NOT_ALLOWED"

	codeTooLarge    = "PAYLOAD_TOO_LARGE"
	codeRateLimited = "RATE_LIMITED"
	codeInternal    = "INTERNAL"
)

// apiError is a refusal with its HTTP status and §4 body.
type apiError struct {
	Status  int
	Code    string
	Message string
	// retryAfter, when set, is sent as Retry-After (whole seconds).
	retryAfter time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// badRequest is a 400 whose message names the field.
func badRequest(code, format string, args ...any) *apiError {
	return errf(http.StatusBadRequest, code, format, args...)
}

func notFound(what string, id any) *apiError {
	return errf(http.StatusNotFound, codeNotFound, "%s %v not found", what, id)
}

// answerOf is the answer to an error a handler returned: its own refusal,
// a rule's (a kind's status, §4), or, for anything else (a defect), 500.
func answerOf(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var r *engine.Refusal
	if errors.As(err, &r) {
		return errf(kindStatus[r.Kind], r.Code, "%s", r.Message)
	}
	return errf(http.StatusInternalServerError, codeInternal, "internal error: %v", err)
}

// kindStatus is the HTTP status of each kind of refusal.
var kindStatus = map[engine.Kind]int{
	engine.Invalid:   http.StatusBadRequest,
	engine.Forbidden: http.StatusForbidden,
	engine.NotFound:  http.StatusNotFound,
	engine.Conflict:  http.StatusConflict,
}

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError writes the §4 error body.
func writeError(w http.ResponseWriter, e *apiError) {
	var b errorBody
	b.Error.Code = e.Code
	b.Error.Message = e.Message
	data, _ := marshalJSON(b)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(data)))
	if e.retryAfter > 0 {
		h.Set("Retry-After", strconv.FormatInt(int64((e.retryAfter+time.Second-1)/time.Second), 10))
	}
	if e.Status == http.StatusTooManyRequests && h.Get("Retry-After") == "" {
		h.Set("Retry-After", "1")
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(data)
}

// marshalJSON encodes as the service writes JSON (records.Encode).
func marshalJSON(v any) ([]byte, error) { return records.Encode(v) }
