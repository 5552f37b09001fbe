package engine

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Every account keeps small collections of records (beneficiaries of each
// kind, webhook attempts, trades, compliance records), in memory and as
// one stored document per kind. Records reads one of them alike for all;
// Beneficiaries adds what every beneficiary kind does alike.

// kind is one kind of an account's records: where an account keeps it,
// how messages name one, and, for a beneficiary kind, its alias.
type kind[T any] struct {
	of    func(*Account) *series[T]
	what  string // in messages: "BRL beneficiary <id> not found"
	alias func(*T) string
}

// Records is one kind of an account's records, read through the engine.
type Records[T any] struct {
	e *Engine
	k *kind[T]
}

// Page is a page of the operated account's records, newest first, from
// the cursor, created inside w and accepted by match (nil: all), as
// copies.
func (r Records[T]) Page(c Caller, w Window, cursor string, match func(*T) bool) ([]T, string, error) {
	r.e.mu.RLock()
	defer r.e.mu.RUnlock()
	acct, err := r.e.scope(c)
	if err != nil {
		return nil, "", err
	}
	items, next, err := r.k.of(acct).page(cursor, PageSize, w, match)
	if err != nil {
		return nil, "", err
	}
	out := make([]T, len(items))
	for i, v := range items {
		out[i] = *v
	}
	return out, next, nil
}

// Get is a copy of the operated account's record id.
func (r Records[T]) Get(c Caller, id uuid.UUID) (T, error) {
	r.e.mu.RLock()
	defer r.e.mu.RUnlock()
	_, v, err := r.find(c, id)
	if err != nil {
		var zero T
		return zero, err
	}
	return *v, nil
}

// Put adds a record made outside a request (the demo data, a tool) to
// acct, created at at. The caller holds the lock for writing (Edit).
func (r Records[T]) Put(acct *Account, at time.Time, id uuid.UUID, v *T) {
	r.k.of(acct).add(at, id, v)
	r.e.changed(acct)
}

// All is every record of acct, oldest first. The caller holds the lock
// (Edit, or a History).
func (r Records[T]) All(acct *Account) []*T { return r.k.of(acct).all() }

// find is the operated account and its record id. The caller holds e.mu.
func (r Records[T]) find(c Caller, id uuid.UUID) (*Account, *T, error) {
	acct, err := r.e.scope(c)
	if err != nil {
		return nil, nil, err
	}
	v, ok := r.k.of(acct).get(id)
	if !ok {
		return nil, nil, notFound(r.k.what, id)
	}
	return acct, v, nil
}

// Beneficiaries is one kind of beneficiary.
type Beneficiaries[T any] struct {
	Records[T]
}

// Alias is a beneficiary's alias.
func (b Beneficiaries[T]) Alias(v *T) string { return b.k.alias(v) }

// Add stores a beneficiary, validated by the caller, in the operated
// account, unless its alias is taken there. build makes the record for
// its account and id under the write lock.
func (b Beneficiaries[T]) Add(c Caller, alias string, build func(acct *Account, id uuid.UUID) *T) (uuid.UUID, error) {
	if err := c.Access.MayManageBeneficiaries(c.Now); err != nil {
		return uuid.Nil, err
	}
	e := b.e
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	ser := b.k.of(acct)
	for _, en := range ser.es {
		if strings.EqualFold(b.k.alias(en.v), alias) {
			return uuid.Nil, conflict(CodeAliasTaken, "alias: %q is already used by another beneficiary of this kind; choose another", alias)
		}
	}
	id := uuid.New()
	ser.add(c.Now, id, build(acct, id))
	e.changed(acct)
	return id, nil
}

// Remove deletes a beneficiary of the operated account, unless a pending
// multi-signature operation would pay it.
func (b Beneficiaries[T]) Remove(c Caller, id uuid.UUID) error {
	if err := c.Access.MayManageBeneficiaries(c.Now); err != nil {
		return err
	}
	e := b.e
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, _, err := b.find(c, id)
	if err != nil {
		return err
	}
	if op := e.pendingOperationNaming(acct, id); op != nil {
		return conflict(CodeBeneficiaryInUse, "%s %s is the output of pending operation %s; reject it or wait for its decision before deleting", b.k.what, id, op.ID)
	}
	b.k.of(acct).remove(id)
	e.changed(acct)
	return nil
}

// MayManageBeneficiaries refuses an access without the beneficiary
// permission (and a read-only or frozen one).
func (a *Access) MayManageBeneficiaries(now time.Time) error {
	if err := a.MayWrite(now); err != nil {
		return err
	}
	if !a.Perms.Beneficiary {
		return forbidden("missing permission beneficiary: this access may not create or delete beneficiaries")
	}
	return nil
}

// missing is what a payout finds gone: the kind's name when the account no
// longer keeps the beneficiary id, else "". The caller holds e.mu.
func (k *kind[T]) missing(acct *Account, id uuid.UUID) string {
	if _, ok := k.of(acct).get(id); ok {
		return ""
	}
	return k.what
}

// The kinds of an account's records.
var (
	walletKind = &kind[records.Wallet]{of: func(a *Account) *series[records.Wallet] { return a.wallets }, what: "beneficiary wallet", alias: func(v *records.Wallet) string { return v.Alias }}
	brlKind    = &kind[records.BRLAccount]{of: func(a *Account) *series[records.BRLAccount] { return a.brl }, what: "BRL beneficiary", alias: func(v *records.BRLAccount) string { return v.Alias }}
	usdKind    = &kind[records.USDAccount]{of: func(a *Account) *series[records.USDAccount] { return a.usd }, what: "USD beneficiary", alias: func(v *records.USDAccount) string { return v.Alias }}
	copKind    = &kind[records.COPAccount]{of: func(a *Account) *series[records.COPAccount] { return a.cop }, what: "COP beneficiary", alias: func(v *records.COPAccount) string { return v.Alias }}
	eurKind    = &kind[records.EURAccount]{of: func(a *Account) *series[records.EURAccount] { return a.eur }, what: "EUR beneficiary", alias: func(v *records.EURAccount) string { return v.Alias }}
	arsKind    = &kind[records.ARSAccount]{of: func(a *Account) *series[records.ARSAccount] { return a.ars }, what: "ARS beneficiary", alias: func(v *records.ARSAccount) string { return v.Alias }}

	attemptKind  = &kind[records.WebhookAttempt]{of: func(a *Account) *series[records.WebhookAttempt] { return a.attempts }, what: "webhook attempt"}
	tradeKind    = &kind[records.Trade]{of: func(a *Account) *series[records.Trade] { return a.trades }}
	uboKind      = &kind[records.UBO]{of: func(a *Account) *series[records.UBO] { return a.ubos }}
	w8benKind    = &kind[records.W8BEN]{of: func(a *Account) *series[records.W8BEN] { return a.w8bens }, what: "W-8BEN"}
	poaKind      = &kind[records.ProofOfAddressAttempt]{of: func(a *Account) *series[records.ProofOfAddressAttempt] { return a.poa }}
	documentKind = &kind[records.Document]{of: func(a *Account) *series[records.Document] { return a.documents }, what: "document"}
	kycKind      = &kind[records.KYCAttempt]{of: func(a *Account) *series[records.KYCAttempt] { return a.kyc }, what: "KYC attempt"}
)

// Wallets are the beneficiary wallets.
func (e *Engine) Wallets() Beneficiaries[records.Wallet] {
	return Beneficiaries[records.Wallet]{Records[records.Wallet]{e, walletKind}}
}

// BRLAccounts are the BRL beneficiaries.
func (e *Engine) BRLAccounts() Beneficiaries[records.BRLAccount] {
	return Beneficiaries[records.BRLAccount]{Records[records.BRLAccount]{e, brlKind}}
}

// USDAccounts are the USD beneficiaries.
func (e *Engine) USDAccounts() Beneficiaries[records.USDAccount] {
	return Beneficiaries[records.USDAccount]{Records[records.USDAccount]{e, usdKind}}
}

// COPAccounts are the COP beneficiaries.
func (e *Engine) COPAccounts() Beneficiaries[records.COPAccount] {
	return Beneficiaries[records.COPAccount]{Records[records.COPAccount]{e, copKind}}
}

// EURAccounts are the EUR beneficiaries.
func (e *Engine) EURAccounts() Beneficiaries[records.EURAccount] {
	return Beneficiaries[records.EURAccount]{Records[records.EURAccount]{e, eurKind}}
}

// ARSAccounts are the ARS beneficiaries.
func (e *Engine) ARSAccounts() Beneficiaries[records.ARSAccount] {
	return Beneficiaries[records.ARSAccount]{Records[records.ARSAccount]{e, arsKind}}
}

// Attempts are the webhook delivery attempts.
func (e *Engine) Attempts() Records[records.WebhookAttempt] {
	return Records[records.WebhookAttempt]{e, attemptKind}
}

// Trades are the end-of-day trades (TradePage settles the due ones first).
func (e *Engine) Trades() Records[records.Trade] { return Records[records.Trade]{e, tradeKind} }

// UBOs are the ultimate beneficial owners.
func (e *Engine) UBOs() Records[records.UBO] { return Records[records.UBO]{e, uboKind} }

// W8BENs are the submitted W-8BEN forms.
func (e *Engine) W8BENs() Records[records.W8BEN] { return Records[records.W8BEN]{e, w8benKind} }

// ProofsOfAddress are the proof-of-address attempts.
func (e *Engine) ProofsOfAddress() Records[records.ProofOfAddressAttempt] {
	return Records[records.ProofOfAddressAttempt]{e, poaKind}
}

// Documents are the identity documents.
func (e *Engine) Documents() Records[records.Document] {
	return Records[records.Document]{e, documentKind}
}

// KYCAttempts are the KYC attempts.
func (e *Engine) KYCAttempts() Records[records.KYCAttempt] {
	return Records[records.KYCAttempt]{e, kycKind}
}
