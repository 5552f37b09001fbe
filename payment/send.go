package payment

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
)

// Service is what sending a payment needs of the client; *api.Client has
// both methods. CreateTicket reconciles a lost answer by external id
// itself, and never sends a creation twice blindly.
type Service interface {
	CreateTicket(ctx context.Context, subAccountID uuid.UUID, req api.CreateTicketRequest) (*api.CreateTicketResult, error)
	FindTicketByExternalID(ctx context.Context, subAccountID uuid.UUID, externalID string) (*api.Ticket, bool, error)
}

// Status is what became of a payment sent.
type Status string

// Outcomes of Send.
const (
	// Created: a ticket was created now.
	Created Status = "created"
	// Existing: a ticket of this very intent already had the external id
	// (an earlier run or retry made it); nothing was sent.
	Existing Status = "existing"
	// Parked: the creation waits for multi-signature approval.
	Parked Status = "parked"
)

// Outcome is what Send did.
type Outcome struct {
	Status    Status
	Ticket    *api.Ticket    // Created, Existing
	Operation *api.Operation // Parked
	// Reconciled: the creation's answer was lost and the ticket was found
	// by its external id (and matched the intent); nothing was sent twice.
	Reconciled bool
	// Request is the creation request built (sent, unless Existing).
	Request api.CreateTicketRequest
	// JournalErr is set when the journal could not record the outcome.
	JournalErr error
}

// ErrConflict is wrapped by a *ConflictError.
var ErrConflict = errors.New("external id already used for another payment")

// ConflictError is a ticket held under the external id that is not the
// intent's: the id was used for another payment. Nothing is created.
type ConflictError struct {
	ExternalID string
	Ticket     uuid.UUID
	Held       string // the ticket found, in one line
	Asked      string // the intent, in one line
	Diff       string // what differs
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("external id %s already names ticket %s (%s), not this payment (%s): %s; nothing was created. Give this payment an external id of its own",
		e.ExternalID, e.Ticket, e.Held, e.Asked, e.Diff)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Send creates the intent's ticket from quote q, once:
//
//  1. the request is built (TicketRequest): an intent that does not
//     validate, or a quote of another intent, sends nothing;
//  2. a ticket already held under the external id in the intent's account
//     is compared with the intent (Match): the same payment is Existing and
//     nothing is sent; another payment is a *ConflictError;
//  3. the ticket is created; an answer lost on the way is reconciled by the
//     client, and the ticket it finds is compared with the intent too.
//
// Every outcome of a request sent, and every refusal of a reused id, is
// journaled to rec (nil: not journaled). The caller checks that q is still
// alive before calling.
func Send(ctx context.Context, svc Service, rec Recorder, in Intent, q *api.Quote) (Outcome, error) {
	req, err := in.TicketRequest(q)
	out := Outcome{Request: req}
	if err != nil {
		return out, err
	}
	record := func(out Outcome, err error) (Outcome, error) {
		if rec != nil {
			out.JournalErr = rec.Record(Entry(in, q, out, err))
		}
		return out, err
	}
	held, err := Held(ctx, svc, in)
	var conflict *ConflictError
	switch {
	case errors.As(err, &conflict):
		return record(out, err)
	case err != nil:
		return out, err
	case held != nil:
		out.Status, out.Ticket = Existing, held
		return record(out, nil)
	}
	res, err := svc.CreateTicket(ctx, in.Account, req)
	switch {
	case err != nil:
		return record(out, err)
	case res.Parked:
		out.Status, out.Operation = Parked, res.Operation
		return record(out, nil)
	case res.Ticket == nil:
		return record(out, fmt.Errorf("the service answered without a ticket or an operation: look for external id %s in Tickets before trying again", in.ExternalID))
	}
	out.Status, out.Ticket, out.Reconciled = Created, res.Ticket, res.Reconciled
	if res.Reconciled {
		if err := Match(res.Ticket, in); err != nil {
			return record(Outcome{Request: req}, err)
		}
	}
	return record(out, nil)
}

// Held is the ticket the service already holds under the intent's
// external id in its account: nil when there is none, a *ConflictError
// when it is another payment's. A caller that asks a person to confirm
// looks first, so that nobody confirms what exists.
func Held(ctx context.Context, svc Service, in Intent) (*api.Ticket, error) {
	t, found, err := svc.FindTicketByExternalID(ctx, in.Account, in.ExternalID)
	switch {
	case err != nil:
		return nil, fmt.Errorf("could not check for a ticket with external id %s, nothing was sent: %w", in.ExternalID, err)
	case !found:
		return nil, nil
	}
	if err := Match(t, in); err != nil {
		return nil, err
	}
	return t, nil
}

// Match reports whether ticket t is a ticket of the intent: the same
// currencies and methods, the fixed amount, and the payee wherever the
// ticket names one (a PIX key, a wallet address). The account is the
// lookup's. A registered beneficiary's id is not on a ticket, so it cannot
// be compared. The error is a *ConflictError.
func Match(t *api.Ticket, in Intent) error {
	tq := t.Quote
	want := in.QuoteRequest()
	var diff []string
	if !sameCode(tq.InputCurrency, want.InputCurrency) || !sameCode(tq.InputPaymentMethod, want.InputPaymentMethod) {
		diff = append(diff, fmt.Sprintf("it sends %s %s, this payment %s %s", tq.InputCurrency, tq.InputPaymentMethod, want.InputCurrency, want.InputPaymentMethod))
	}
	if !sameCode(tq.OutputCurrency, want.OutputCurrency) || !sameCode(tq.OutputPaymentMethod, want.OutputPaymentMethod) {
		diff = append(diff, fmt.Sprintf("it pays %s %s, this payment %s %s", tq.OutputCurrency, tq.OutputPaymentMethod, want.OutputCurrency, want.OutputPaymentMethod))
	}
	if len(diff) == 0 {
		amount, fixed, cur := in.Amount, tq.InputAmount, tq.InputCurrency
		if in.Fixed == FixOutput {
			fixed, cur = tq.OutputAmount, tq.OutputCurrency
		}
		if in.Pay.Kind == ToBrCode && amount.IsZero() {
			if p, err := brcode.Parse(in.Pay.BrCode); err == nil {
				amount = p.Amount
			}
		}
		if amount.IsPositive() && !fixed.Equal(amount) {
			diff = append(diff, fmt.Sprintf("it moves %s %s, this payment %s %s", money.Wire(fixed, cur), cur, money.Wire(amount, cur), cur))
		}
	}
	if d := payeeDiff(t, in); d != "" {
		diff = append(diff, d)
	}
	if len(diff) == 0 {
		return nil
	}
	return &ConflictError{ExternalID: in.ExternalID, Ticket: t.ID, Held: TicketSummary(t), Asked: in.Summary(), Diff: strings.Join(diff, "; ")}
}

// payeeDiff compares the payee where the ticket records it.
func payeeDiff(t *api.Ticket, in Intent) string {
	switch p := in.Pay; {
	case p.Kind == ToPixKey && t.BrazilianFiatReceiverInfo != nil && t.BrazilianFiatReceiverInfo.PixKey != "" && t.BrazilianFiatReceiverInfo.PixKey != p.PixKey:
		return fmt.Sprintf("it pays PIX key %s, this payment %s", t.BrazilianFiatReceiverInfo.PixKey, p.PixKey)
	case p.Kind == ToAddress && t.BlockchainReceiverInfo != nil && t.BlockchainReceiverInfo.WalletAddress != "" && !strings.EqualFold(t.BlockchainReceiverInfo.WalletAddress, p.Address):
		return fmt.Sprintf("it pays %s, this payment %s", t.BlockchainReceiverInfo.WalletAddress, p.Address)
	}
	return ""
}

// Summary is the intent in one line: "100.00 BRL PIX → BRLA INTERNAL" when
// it fixes what is sent, "BRL PIX → 100.000000 BRLA INTERNAL" when it fixes
// what they receive.
func (in Intent) Summary() string {
	inSide := strings.TrimSpace(money.Canonical(in.InCurrency) + " " + strings.ToUpper(in.InMethod))
	outSide := strings.TrimSpace(money.Canonical(in.OutCurrency) + " " + strings.ToUpper(in.OutMethod))
	if in.Amount.IsPositive() {
		if in.Fixed == FixOutput {
			outSide = money.Wire(in.Amount, in.OutCurrency) + " " + outSide
		} else {
			inSide = money.Wire(in.Amount, in.InCurrency) + " " + inSide
		}
	}
	return inSide + " → " + outSide
}

// TicketSummary is a ticket in one line: "100.00 BRL PIX → 99.500000 BRLA
// INTERNAL".
func TicketSummary(t *api.Ticket) string {
	q := t.Quote
	return fmt.Sprintf("%s %s %s → %s %s %s", money.Wire(q.InputAmount, q.InputCurrency), q.InputCurrency, q.InputPaymentMethod,
		money.Wire(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, q.OutputPaymentMethod)
}
