package batch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// Status is what became of a row.
type Status string

// Row outcomes.
const (
	Created       Status = "created"        // a ticket was created now
	Existing      Status = "existing"       // an earlier run created it: found by external id
	Parked        Status = "parked"         // waits for multi-signature approval
	ParkedEarlier Status = "parked-earlier" // an earlier run parked it (ledger)
	Failed        Status = "failed"         // certainly not created
	Unknown       Status = "unknown"        // may have been created: run again to find out
	NotSent       Status = "not-sent"       // the batch stopped before this row
)

// Outcome is what became of one row.
type Outcome struct {
	Row         *Planned
	Status      Status
	TicketID    string
	OperationID string
	// Reconciled: the creation's answer was lost and the ticket was found
	// by its external id (nothing was sent twice).
	Reconciled bool
	Requoted   bool
	Err        string
}

// Progress counts the rows of a run.
type Progress struct {
	Total, Created, Parked, Failed, Remaining int
}

func (p *Progress) add(s Status) {
	p.Remaining--
	switch s {
	case Created, Existing:
		p.Created++
	case Parked, ParkedEarlier:
		p.Parked++
	default:
		p.Failed++
	}
}

// Ledger remembers what earlier runs could not leave for a lookup to find:
// the rows they parked for approval, and the rows whose parked creation's
// answer was lost. Record is called once per row outcome.
type Ledger interface {
	// Earlier is what an earlier run recorded for the row: Parked (with
	// the operation id when it was read) or Unknown.
	Earlier(externalID string) (st Status, operationID string, ok bool)
	Record(o Outcome) error
}

// ErrStopped is wrapped by Run's error when the service refused something
// for the whole batch (see StopError).
var ErrStopped = errors.New("batch stopped")

// errDrift marks a re-quote that costs more than the review allows.
var errDrift = errors.New("price moved")

// StopError is a refusal that applies to every row (a frozen access, a
// missing permission, not enough balance): the batch stops at the first.
type StopError struct {
	Row   int
	Cause error
}

func (e *StopError) Error() string {
	return fmt.Sprintf("batch stopped at row %d: %v", e.Row, e.Cause)
}
func (e *StopError) Unwrap() []error { return []error{ErrStopped, e.Cause} }

// stopsBatch reports whether err is a refusal that every later row would
// meet too.
func stopsBatch(err error) bool {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return false
	}
	switch {
	case ae.Status == http.StatusUnauthorized, ae.Status == http.StatusForbidden:
		return true
	case ae.Code == "INSUFFICIENT_BALANCE", ae.Code == "LIMIT_REACHED":
		return true
	}
	return false
}

// Run executes the plan's rows. It refuses a plan that is not ready unless
// the invalid rows were dropped (Plan.OnlyValid). Each row is first looked
// up by external id (resume), then quoted again if its quote would not
// outlive the creation, then created through the client's reconciliation.
// sink gets every outcome, one at a time, as it happens. The error is a
// *StopError, the context's error, or nil; the progress counts every row.
func Run(ctx context.Context, svc Service, plan *Plan, opts Options, ledger Ledger, sink func(Outcome, Progress)) (Progress, error) {
	o := opts.withDefaults()
	prog := Progress{Total: len(plan.Rows), Remaining: len(plan.Rows)}
	if len(plan.Problems) > 0 {
		return prog, fmt.Errorf("the batch cannot run: %s", plan.Problems[0])
	}
	if plan.Valid() != len(plan.Rows) {
		return prog, fmt.Errorf("%d row(s) are invalid: fix them, or choose to run only the valid rows", len(plan.Rows)-plan.Valid())
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var mu sync.Mutex
	var stopErr error
	done := make([]bool, len(plan.Rows))
	report := func(i int, out Outcome) {
		if ledger != nil {
			if err := ledger.Record(out); err != nil && out.Err == "" {
				out.Err = "not recorded in the batch ledger: " + err.Error()
			}
		}
		mu.Lock()
		defer mu.Unlock()
		done[i] = true
		prog.add(out.Status)
		if sink != nil {
			sink(out, prog)
		}
	}
	each(runCtx, len(plan.Rows), o.Concurrency, func(i int) {
		if runCtx.Err() != nil {
			return
		}
		out, err := runRow(ctx, svc, plan.Rows[i], o, ledger, plan.Parks)
		if err != nil && stopsBatch(err) {
			mu.Lock()
			if stopErr == nil {
				stopErr = &StopError{Row: plan.Rows[i].N, Cause: err}
			}
			mu.Unlock()
			stop()
		}
		report(i, out)
	})
	for i, p := range plan.Rows {
		if !done[i] {
			why := "the batch was interrupted before this row"
			if stopErr != nil {
				why = "the batch stopped before this row: " + stopErr.Error()
			}
			report(i, Outcome{Row: p, Status: NotSent, Err: why})
		}
	}
	if stopErr != nil {
		return prog, stopErr
	}
	return prog, ctx.Err()
}

// runRow pays one row. The error is returned besides the outcome so that
// Run can tell a refusal of the whole batch.
func runRow(ctx context.Context, svc Service, p *Planned, o Options, ledger Ledger, parks bool) (Outcome, error) {
	out := Outcome{Row: p}
	fail := func(st Status, err error) (Outcome, error) {
		out.Status, out.Err = st, err.Error()
		return out, err
	}
	if ledger != nil {
		switch st, op, ok := ledger.Earlier(p.ExternalID); {
		case ok && st == Parked:
			out.Status, out.OperationID = ParkedEarlier, op
			return out, nil
		case ok && st == Unknown && parks:
			// Sending it again could park a second operation, and a
			// requester cannot list operations to find the first.
			out.Status = Unknown
			out.Err = "an earlier run lost the answer to this row's creation, which waits for approval if it arrived: nothing sent again. Check the approvers' inbox; if the operation is not there, pay this row in a new file"
			return out, nil
		}
	}
	if t, found, err := svc.FindTicketByExternalID(ctx, o.SubAccountID, p.ExternalID); err != nil {
		return fail(Failed, fmt.Errorf("could not check for a ticket of an earlier run, nothing sent: %w", err))
	} else if found {
		out.Status, out.TicketID = Existing, t.ID.String()
		return out, nil
	}
	// A quote that expires while the creation is on its way is refused
	// before anything is created: quote again then, once.
	for attempt := 0; ; attempt++ {
		requoted, err := fresh(ctx, svc, p, o)
		out.Requoted = out.Requoted || requoted
		if err != nil {
			return fail(Failed, err)
		}
		res, err := svc.CreateTicket(ctx, o.SubAccountID, body(p))
		var ae *api.Error
		switch {
		case err == nil && res.Parked:
			out.Status = Parked
			if res.Operation != nil {
				out.OperationID = res.Operation.ID.String()
			}
			return out, nil
		case err == nil:
			out.Status, out.TicketID, out.Reconciled = Created, res.Ticket.ID.String(), res.Reconciled
			return out, nil
		case errors.Is(err, api.ErrOutcomeUnknown):
			return fail(Unknown, err)
		case errors.As(err, &ae) && ae.Code == "QUOTE_EXPIRED" && attempt == 0:
			p.Quote = nil
			continue
		}
		return fail(Failed, err)
	}
}

// body is the creation request of a row: the output block its rail asks
// for (service.md §7.1), the row's reference in that rail's own field.
func body(p *Planned) api.CreateTicketRequest {
	req := api.CreateTicketRequest{QuoteToken: p.Quote.QuoteToken, ExternalID: p.ExternalID}
	id := p.Payee.ID
	switch {
	case p.Payee.Inline && p.Payee.Kind == KindBRL:
		req.TicketBrlPixOutput = &api.TicketBrlPixOutput{PixKey: p.Payee.Key, PixMessage: p.Reference}
	case p.Payee.Inline:
		req.TicketBlockchainOutput = &api.TicketBlockchainOutput{WalletChain: p.Payee.Chain, WalletAddress: p.Payee.Key}
	case p.Payee.Kind == KindBRL:
		req.TicketBrlPixOutput = &api.TicketBrlPixOutput{BeneficiaryBrlBankAccountID: &id, PixMessage: p.Reference}
	case p.Payee.Kind == KindWallet:
		req.TicketBlockchainOutput = &api.TicketBlockchainOutput{BeneficiaryWalletID: &id}
	case p.Payee.Kind == KindUSD:
		// ACH carries achReference, WIRE a block of its own with wireMessage.
		req.SetUSDOutput(p.Method, id, p.Reference)
	case p.Payee.Kind == KindEUR:
		req.TicketEurSepaOutput = &api.TicketEurSepaOutput{BeneficiaryEurBankAccountID: id, SepaReference: p.Reference}
	case p.Payee.Kind == KindARS:
		req.TicketArsOutput = &api.TicketArsOutput{BeneficiaryArsBankAccountID: id}
	case p.Payee.Kind == KindCOP:
		req.TicketCopOutput = &api.TicketCopOutput{BeneficiaryCopBankAccountID: id}
	}
	return req
}

// Destination is where a row's money goes, for reviews: the rail and the
// PIX key, address or masked USD account, or the masked IBAN, CVU or COP
// account alone, whose label already says how it is paid.
func (p *Planned) Destination() string {
	switch {
	case p.Method == "":
		return p.Payee.Key
	case p.Payee.Kind == KindEUR, p.Payee.Kind == KindARS, p.Payee.Kind == KindCOP:
		return p.Payee.Key
	}
	return p.Method + " " + p.Payee.Key
}

// Describe is a one-line account of a row for logs and reviews.
func (p *Planned) Describe() string {
	who := p.Payee.Alias
	if p.Payee.Name != "" && p.Payee.Name != who {
		who += " (" + p.Payee.Name + ")"
	}
	return fmt.Sprintf("row %d: %s %s to %s via %s", p.N, money.Wire(p.Amount, p.Currency), p.Currency, who, p.Method)
}
