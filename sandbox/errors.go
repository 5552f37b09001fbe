package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Error codes of the error body (spec/service.md §4).
const (
	codeInvalidRequest     = "INVALID_REQUEST"
	codeInvalidJSON        = "INVALID_JSON"
	codeInvalidField       = "INVALID_FIELD"
	codeMissingField       = "MISSING_FIELD"
	codeInvalidAmount      = "INVALID_AMOUNT"
	codeAmountTooSmall     = "AMOUNT_TOO_SMALL"
	codeAmountTooLarge     = "AMOUNT_TOO_LARGE"
	codeUnsupportedPair    = "UNSUPPORTED_PAIR"
	codeQuoteExpired       = "QUOTE_EXPIRED"
	codeQuoteInvalid       = "QUOTE_INVALID"
	codeSubAccountMismatch = "SUB_ACCOUNT_MISMATCH"
	codeInsufficient       = "INSUFFICIENT_BALANCE"
	codeUnexpectedBlock    = "UNEXPECTED_BLOCK"
	codeInvalidCursor      = "INVALID_CURSOR"
	codeLimitReached       = "LIMIT_REACHED"
	codeLoginRequired      = "LOGIN_REQUIRED"

	codeUnauthenticated = "UNAUTHENTICATED"
	codeBadSignature    = "BAD_SIGNATURE"
	codeTimestampSkew   = "TIMESTAMP_SKEW"
	codeTokenExpired    = "TOKEN_EXPIRED"

	codeForbidden   = "FORBIDDEN"
	codeFrozen      = "ACCESS_FROZEN"
	codeBlacklisted = "ACCOUNT_BLACKLISTED"
	codeSelf        = "SELF_APPROVAL"

	codeNotFound         = "NOT_FOUND"
	codeMethodNotAllowed = "METHOD_NOT_ALLOWED"

	codeAlreadyDecided  = "ALREADY_DECIDED"
	codeAlreadyApproved = "ALREADY_APPROVED"
	codeReceiptNA       = "RECEIPT_NOT_AVAILABLE"
	codeNotFundable     = "NOT_FUNDABLE"

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

func forbidden(format string, args ...any) *apiError {
	return errf(http.StatusForbidden, codeForbidden, format, args...)
}

func conflict(code, format string, args ...any) *apiError {
	return errf(http.StatusConflict, code, format, args...)
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

// marshalJSON encodes without HTML escaping ("<" stays "<" in messages).
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
