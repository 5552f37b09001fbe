package payment

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Fixed says which amount of an intent is the operator's: the one sent, or
// the one the beneficiary receives. The service computes the other.
type Fixed int

// Which amount is fixed.
const (
	FixInput  Fixed = iota // "I send" (inputAmount)
	FixOutput              // "they receive" (outputAmount)
)

// DestKind is what a Destination names.
type DestKind int

// The destinations of service.md §7.1.
const (
	// ToBalance: the output stays in the operated account's balance
	// (INTERNAL); no output block, or the nil wallet id.
	ToBalance DestKind = iota
	// ToBeneficiary: a registered beneficiary of the rail's kind, by id.
	ToBeneficiary
	// ToPixKey: any PIX key, unregistered.
	ToPixKey
	// ToBrCode: the BR Code the quote was asked to pay (outputBrCode).
	ToBrCode
	// ToBankAccount: a BRL bank account given field by field.
	ToBankAccount
	// ToAddress: any wallet address on the output's chain, unregistered.
	ToAddress
	// ToOwnWallet: the operated account's own service wallet on the
	// output's chain (the nil wallet id).
	ToOwnWallet
	// ToAccount: the balance of another account of the workspace, by its
	// id (an INTERNAL output, service.md §8.5): a sub-account from the
	// main account, the main account from a sub-account.
	ToAccount
)

// inline reports whether the destination names a payee no beneficiary
// record stands for, which an access held to registered beneficiaries
// (enforceAllowedBeneficiaries) may not pay.
func (k DestKind) inline() bool {
	return k == ToPixKey || k == ToBrCode || k == ToBankAccount || k == ToAddress
}

// BankAccount is a BRL bank account given field by field.
type BankAccount struct {
	TaxID, UserName, BankCode, BranchCode, AccountNumber, AccountType string
}

// Destination is where an intent's output goes.
type Destination struct {
	Kind DestKind
	// ID is the registered beneficiary (ToBeneficiary) or the account
	// moved to (ToAccount).
	ID uuid.UUID
	// PixKey is the key paid (ToPixKey), as validate.PixKey normalises it.
	PixKey string
	// BrCode is the code paid (ToBrCode).
	BrCode string
	// Bank is the account paid (ToBankAccount).
	Bank BankAccount
	// Address and Memo are the wallet paid (ToAddress); the chain is the
	// output method.
	Address, Memo string
}

// Source is what the input side supplies beyond its currency and method.
type Source struct {
	// RemitterID and AdditionalData ride on a PIX input (optional).
	RemitterID, AdditionalData string
	// Wallet sends a chain input; Permit or Personal prove that a PERMIT
	// input may be pulled (neither: a service wallet, rule 4).
	Wallet   string
	Permit   *api.Permit
	Personal *api.PersonalSignature
}

// Markup is what the operator adds on top of the service's price.
type Markup struct {
	// Percent is the floating fee in percent (0.5 is half a percent); it is
	// sent as the fraction.
	Percent decimal.NullDecimal
	// InputFixed and OutputFixed are fixed fees in the input and output
	// currency.
	InputFixed, OutputFixed decimal.NullDecimal
	// Currency is the currency the markup is collected in.
	Currency string
	// Wallet is the caller's service wallet that receives the markup
	// (ticketMarkupInput), chosen once the quote shows a markup.
	Wallet string
}

// Any reports whether a markup is asked for.
func (m Markup) Any() bool { return m.Percent.Valid || m.InputFixed.Valid || m.OutputFixed.Valid }

// Origin says where an intent comes from when it is one of many: the batch
// (its name) and the row.
type Origin struct {
	Batch string
	Row   int
}

// Intent is one payment as the operator means it.
type Intent struct {
	// Account is the operated account: a sub-account's id, uuid.Nil for
	// the main account. The quote and the ticket both carry it.
	Account uuid.UUID

	InCurrency, InMethod   string
	OutCurrency, OutMethod string
	// Amount is the fixed amount, in the input currency (FixInput) or the
	// output currency (FixOutput). It is zero only when a BR Code paid
	// (Pay.BrCode) carries the amount.
	Amount decimal.Decimal
	Fixed  Fixed
	// SendMethod is PERMIT or TRANSFER for a token input ("" : PERMIT,
	// service.md §8.4).
	SendMethod string

	InThirdParty, OutThirdParty bool

	Markup Markup
	Pay    Destination
	From   Source
	// Reference is the free text for the beneficiary, carried in the
	// rail's own field (pixMessage, achReference, wireMessage,
	// sepaReference); rails without one do not carry it.
	Reference string
	// ExternalID names the intent: made once, it is what makes a retry or a
	// re-run find the ticket instead of making a second one.
	ExternalID string
	Origin     Origin
}

// Limits of free text, in characters (what the service's validation takes).
const (
	MaxExternalID = 100
	MaxReference  = 140
)

// FieldError is a problem with one field of an intent; Field names it as on
// the wire (inputCurrency, outputAmount, pixKey, externalId, ...), so that a
// form can put the message on the field it concerns.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Rail is the intent's output rail (ok false: the catalogue does not know
// the output method).
func (in Intent) Rail() (Rail, bool) { return RailOf(in.OutCurrency, in.OutMethod) }

// AmountCurrency is the currency of the fixed amount.
func (in Intent) AmountCurrency() string {
	if in.Fixed == FixOutput {
		return in.OutCurrency
	}
	return in.InCurrency
}

// sendMethod is the send method the quote asks with: the intent's, PERMIT
// for a token input that names none, nothing for any other input.
func (in Intent) sendMethod() string {
	if !money.IsToken(in.InCurrency) && !money.IsChain(in.InMethod) {
		return ""
	}
	if m := strings.ToUpper(strings.TrimSpace(in.SendMethod)); m != "" {
		return m
	}
	return api.SendPermit
}

// Validate checks everything about the intent that needs no service: the
// catalogue, the amount, the markup, where the output goes and whether its
// rail can name that, the references and the external id. The error is a
// *FieldError naming the first field at fault.
func (in Intent) Validate() error {
	if err := in.validateSides(); err != nil {
		return err
	}
	if err := in.validateAmount(); err != nil {
		return err
	}
	if err := in.validateMarkup(); err != nil {
		return err
	}
	if err := in.validatePayee(); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(in.ExternalID) == "":
		return fieldErr("externalId", "the external id is empty: it is what lets a retry be recognised instead of creating a second ticket")
	case utf8.RuneCountInString(in.ExternalID) > MaxExternalID:
		return fieldErr("externalId", "the external id has %d characters: at most %d", utf8.RuneCountInString(in.ExternalID), MaxExternalID)
	case utf8.RuneCountInString(in.Reference) > MaxReference:
		return fieldErr("reference", "the reference has %d characters: at most %d", utf8.RuneCountInString(in.Reference), MaxReference)
	}
	return nil
}

func (in Intent) validateSides() error {
	for _, s := range []struct{ field, cur, method, side string }{
		{"inputCurrency", in.InCurrency, in.InMethod, "input"},
		{"outputCurrency", in.OutCurrency, in.OutMethod, "output"},
	} {
		switch {
		case strings.TrimSpace(s.cur) == "":
			return fieldErr(s.field, "the %s currency is empty: choose one (%s)", s.side, strings.Join(money.Currencies(), ", "))
		case strings.TrimSpace(s.method) == "":
			return fieldErr(strings.Replace(s.field, "Currency", "PaymentMethod", 1), "the %s method is empty: choose how %s moves", s.side, s.cur)
		}
		// A currency the catalogue does not know is the service's to judge;
		// a known one travels only by its own methods.
		if ms := money.Methods(s.cur); ms != nil && !money.SupportsMethod(s.cur, s.method) {
			return fieldErr(strings.Replace(s.field, "Currency", "PaymentMethod", 1), "%s does not travel by %s: %s", s.cur, strings.ToUpper(s.method), strings.Join(ms, ", "))
		}
	}
	if money.OutputOnly(in.InCurrency) {
		return fieldErr("inputCurrency", "%s can only be paid out, never sent in: choose a balance or a PIX input", money.Canonical(in.InCurrency))
	}
	if m := strings.ToUpper(strings.TrimSpace(in.SendMethod)); m != "" && m != api.SendPermit && m != api.SendTransfer {
		return fieldErr("blockchainSendMethod", "send method %s: it is PERMIT or TRANSFER", in.SendMethod)
	}
	return nil
}

func (in Intent) validateAmount() error {
	if in.Pay.Kind == ToBrCode {
		p, err := brcode.Parse(in.Pay.BrCode)
		if err != nil {
			return fieldErr("outputBrCode", "not a BR Code that can be paid: %v", err)
		}
		if p.Amount.IsPositive() {
			if in.Fixed != FixOutput || (!in.Amount.IsZero() && !in.Amount.Equal(p.Amount)) {
				return fieldErr("outputAmount", "the BR Code asks for %s BRL: that is what they receive", money.Format(p.Amount, "BRL"))
			}
			return nil
		}
	}
	field := "inputAmount"
	if in.Fixed == FixOutput {
		field = "outputAmount"
	}
	cur := in.AmountCurrency()
	switch {
	case !in.Amount.IsPositive():
		return fieldErr(field, "the amount must be greater than zero")
	case in.Amount.Exponent() < -money.Precision(cur) && !in.Amount.Equal(in.Amount.Truncate(money.Precision(cur))):
		return fieldErr(field, "%s takes at most %d decimals: %s has more", money.Canonical(cur), money.Precision(cur), in.Amount.String())
	}
	return nil
}

func (in Intent) validateMarkup() error {
	m := in.Markup
	if !m.Any() {
		return nil
	}
	if m.Percent.Valid {
		p := m.Percent.Decimal
		switch {
		case !p.IsPositive() || p.GreaterThanOrEqual(decimal.NewFromInt(100)):
			return fieldErr("markupFloatingFee", "a markup percentage is more than 0 and under 100: e.g. 0.5 for half a percent")
		case p.Exponent() < -4 && !p.Equal(p.Truncate(4)):
			return fieldErr("markupFloatingFee", "a percentage takes at most 4 decimals, e.g. 0.125")
		}
	}
	for _, f := range []struct {
		field, cur string
		v          decimal.NullDecimal
	}{{"markupInputFixedFee", in.InCurrency, m.InputFixed}, {"markupOutputFixedFee", in.OutCurrency, m.OutputFixed}} {
		if f.v.Valid && (!f.v.Decimal.IsPositive() || !f.v.Decimal.Equal(f.v.Decimal.Truncate(money.Precision(f.cur)))) {
			return fieldErr(f.field, "a fixed markup is a positive amount in %s with at most %d decimals", f.cur, money.Precision(f.cur))
		}
	}
	if c := money.Canonical(m.Currency); c != "" && c != money.Canonical(in.InCurrency) && c != money.Canonical(in.OutCurrency) {
		return fieldErr("markupCurrency", "the markup is collected in the input or the output currency (%s or %s), not %s", in.InCurrency, in.OutCurrency, m.Currency)
	}
	return nil
}

func (in Intent) validatePayee() error {
	rail, known := in.Rail()
	if !known {
		if in.Pay.Kind != ToBalance {
			return fieldErr("outputPaymentMethod", "output method %s: no payee can be named for it", in.OutMethod)
		}
		return nil
	}
	if !rail.Takes(in.Pay.Kind) {
		return fieldErr("beneficiary", "%s", missingPayee(rail, in))
	}
	p := in.Pay
	switch p.Kind {
	case ToBeneficiary:
		if p.ID == uuid.Nil {
			return fieldErr("beneficiary", "%s", missingPayee(rail, in))
		}
	case ToAccount:
		switch {
		case p.ID == uuid.Nil:
			return fieldErr("beneficiary", "moving funds needs the account they go to")
		case p.ID == in.Account:
			return fieldErr("beneficiary", "the funds would move to the account they come from: choose another account")
		}
	case ToPixKey:
		if _, _, err := validate.PixKey(p.PixKey); err != nil {
			return fieldErr("pixKey", "%v", err)
		}
	case ToBrCode:
		// Read with the amount above.
	case ToBankAccount:
		b := p.Bank
		for _, f := range []struct{ field, v string }{{"taxId", b.TaxID}, {"userName", b.UserName}, {"bankCode", b.BankCode}, {"branchCode", b.BranchCode}, {"accountNumber", b.AccountNumber}, {"accountType", b.AccountType}} {
			if strings.TrimSpace(f.v) == "" {
				return fieldErr(f.field, "%s is required to pay a bank account", f.field)
			}
		}
	case ToAddress:
		if _, _, err := validate.ChainAddress(in.OutMethod, p.Address); err != nil {
			return fieldErr("walletAddress", "%v", err)
		}
	}
	if money.IsChain(in.InMethod) {
		if _, _, err := validate.EVMAddress(in.From.Wallet); err != nil {
			return fieldErr("ticketBlockchainInput.walletAddress", "the sending wallet: %v", err)
		}
	}
	return nil
}

// missingPayee says what an output on rail needs named.
func missingPayee(rail Rail, in Intent) string {
	switch rail.Payee {
	case KindNone:
		return fmt.Sprintf("the output stays in the account (%s %s): it names no beneficiary", in.OutCurrency, in.OutMethod)
	case KindBRL:
		return "the output is BRL via PIX: name a BRL beneficiary, a PIX key, a BR Code or a bank account"
	case KindWallet:
		return fmt.Sprintf("the output is %s on %s: name a wallet, an address, or the account's own wallet", in.OutCurrency, strings.ToUpper(in.OutMethod))
	}
	return fmt.Sprintf("the output is %s via %s: name a registered %s beneficiary (its id)", in.OutCurrency, rail.Name, strings.ToUpper(string(rail.Payee)))
}
