package engine

import (
	"fmt"
	"strings"
)

// Kind is what sort of refusal a Refusal is; the surface serving the
// engine turns it into its own answer (spec/service.md §4 maps each to an
// HTTP status).
type Kind int

// The kinds of refusal.
const (
	// Invalid: the request itself is wrong; the message names the field.
	Invalid Kind = iota + 1
	// Forbidden: the caller may not do this (a permission, a frozen or
	// blacklisted access, its own operation).
	Forbidden
	// NotFound: what the request names does not exist for the caller.
	NotFound
	// Conflict: the thing named is not in a state that allows it.
	Conflict
)

// Refusal is a rule of the service refusing a request: its kind, the
// code of spec/service.md §4 and a message that says what happened and,
// where it can, what to do.
type Refusal struct {
	Kind    Kind
	Code    string
	Message string
}

func (r *Refusal) Error() string { return r.Code + ": " + r.Message }

func refuse(kind Kind, code, format string, args ...any) *Refusal {
	return &Refusal{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// badRequest is an Invalid refusal whose message names the field.
func badRequest(code, format string, args ...any) *Refusal {
	return refuse(Invalid, code, format, args...)
}

func forbidden(format string, args ...any) *Refusal {
	return refuse(Forbidden, CodeForbidden, format, args...)
}

func notFound(what string, id any) *Refusal {
	return refuse(NotFound, CodeNotFound, "%s %v not found", what, id)
}

func conflict(code, format string, args ...any) *Refusal {
	return refuse(Conflict, code, format, args...)
}

// FieldError is the refusal of a field's value by one of the validate
// package's checks: MISSING_FIELD when the check says it is required,
// INVALID_FIELD otherwise.
func FieldError(field string, err error) error {
	if err == nil {
		return nil
	}
	code := CodeInvalidField
	if strings.HasPrefix(err.Error(), "required") {
		code = CodeMissingField
	}
	return badRequest(code, "%s: %v", field, err)
}

// The error codes of the refusals the rules make (spec/service.md §4).
const (
	CodeInvalidField       = "INVALID_FIELD"
	CodeMissingField       = "MISSING_FIELD"
	CodeInvalidAmount      = "INVALID_AMOUNT"
	CodeAmountTooSmall     = "AMOUNT_TOO_SMALL"
	CodeAmountTooLarge     = "AMOUNT_TOO_LARGE"
	CodeUnsupportedPair    = "UNSUPPORTED_PAIR"
	CodeQuoteExpired       = "QUOTE_EXPIRED"
	CodeQuoteInvalid       = "QUOTE_INVALID"
	CodeSubAccountMismatch = "SUB_ACCOUNT_MISMATCH"
	CodeInsufficient       = "INSUFFICIENT_BALANCE"
	CodeUnexpectedBlock    = "UNEXPECTED_BLOCK"
	CodeInvalidCursor      = "INVALID_CURSOR"
	CodeLimitReached       = "LIMIT_REACHED"
	CodeUnknownBeneficiary = "UNKNOWN_BENEFICIARY"

	CodeForbidden   = "FORBIDDEN"
	CodeFrozen      = "ACCESS_FROZEN"
	CodeBlacklisted = "ACCOUNT_BLACKLISTED"
	CodeRailLocked  = "RAIL_LOCKED"
	CodeSelf        = "SELF_APPROVAL"
	// CodeNotWebhookOwner refuses a change of a webhook another access
	// registered [decided: the service is silent].
	CodeNotWebhookOwner = "NOT_WEBHOOK_OWNER"

	CodeNotFound = "NOT_FOUND"

	CodeAlreadyDecided   = "ALREADY_DECIDED"
	CodeAlreadyApproved  = "ALREADY_APPROVED"
	CodeReceiptNA        = "RECEIPT_NOT_AVAILABLE"
	CodeNotFundable      = "NOT_FUNDABLE"
	CodeNotCancelable    = "NOT_CANCELABLE"
	CodeNotHeld          = "NOT_ON_HOLD"
	CodeAliasTaken       = "ALIAS_TAKEN"
	CodeNameTaken        = "NAME_TAKEN"
	CodeBeneficiaryInUse = "BENEFICIARY_IN_USE"
	CodeSessionUsed      = "SESSION_USED"
	CodeSessionExpired   = "SESSION_EXPIRED"
)
