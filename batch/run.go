package batch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
)

// Status is what became of a row.
type Status string

// Row outcomes.
const (
	Created       Status = "created"        // a ticket was created now
	Existing      Status = "existing"       // an earlier run created it: found by external id, nothing sent
	Parked        Status = "parked"         // waits for multi-signature approval
	ParkedEarlier Status = "parked-earlier" // an earlier run parked it (ledger)
	Failed        Status = "failed"         // certainly not created
	Unknown       Status = "unknown"        // may have been created: run again to find out
	NotSent       Status = "not-sent"       // the batch stopped before this row
	Invalid       Status = "invalid"        // not paid as written (results file only)
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
	// JournalErr: the journal could not record the row's creation.
	JournalErr error
}

// Progress counts the rows of a run: what this run created, what earlier
// runs had (existing, parked earlier), what failed, and what the run never
// reached.
type Progress struct {
	Total, Created, Existing, Parked, Failed, NotSent, Remaining int
}

func (p *Progress) add(s Status) {
	p.Remaining--
	switch s {
	case Created:
		p.Created++
	case Existing:
		p.Existing++
	case Parked, ParkedEarlier:
		p.Parked++
	case NotSent:
		p.NotSent++
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

// RowTimeout bounds one row's requests (its quote, the lookup and the
// creation with its reconciliation). A row in flight when the run is
// stopped goes on to its end under this bound: a creation cut short could
// not say whether money moved.
const RowTimeout = 2 * time.Minute

// Run executes the plan's rows. It refuses a plan that is not ready unless
// the invalid rows were dropped (Plan.OnlyValid). A row an earlier run
// settled is reported as it stands; any other is quoted again if its quote
// would not outlive the creation, then sent through the payment core
// (payment.Send: looked up by external id first, compared with the row,
// created once, journaled to opts.Journal). sink gets every outcome, one at
// a time, as it happens.
//
// When ctx ends (Ctrl-C, "x", an account switch) no new row starts; the
// rows in flight go on to their end, and every row not reached is reported
// NotSent. The error is a *StopError, the context's error, or nil; the
// progress counts every row.
func Run(ctx context.Context, svc Service, plan *Plan, opts Options, sink func(Outcome, Progress)) (Progress, error) {
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
		if o.Ledger != nil {
			if err := o.Ledger.Record(out); err != nil && out.Err == "" {
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
		// The row's own requests outlive a stop: it is finished, not
		// abandoned.
		rowCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RowTimeout)
		defer cancel()
		out, err := runRow(rowCtx, svc, plan, plan.Rows[i], o)
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
			why := "the batch was stopped before this row: it was not sent"
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
func runRow(ctx context.Context, svc Service, plan *Plan, p *Planned, o Options) (Outcome, error) {
	out := Outcome{Row: p}
	fail := func(st Status, err error) (Outcome, error) {
		out.Status, out.Err = st, err.Error()
		return out, err
	}
	switch p.State() {
	case StateDone:
		out.Status, out.TicketID = Existing, p.TicketID
		return out, nil
	case StateParked:
		out.Status, out.OperationID = ParkedEarlier, p.OperationID
		return out, nil
	case StateUnknown:
		// Sending it again could park a second operation, and a requester
		// cannot list operations to find the first.
		out.Status = Unknown
		out.Err = "an earlier run lost the answer to this row's creation, which waits for approval if it arrived: nothing sent again. Check the approvers' inbox; if the operation is not there, pay this row in a new batch"
		return out, nil
	}
	in := p.Intent(o.SubAccountID, plan.File.Name)
	// A quote that expires while the creation is on its way is refused
	// before anything is created: quote again then, once.
	for attempt := 0; ; attempt++ {
		requoted, err := fresh(ctx, svc, p, o)
		out.Requoted = out.Requoted || requoted
		if err != nil {
			return fail(Failed, err)
		}
		res, err := payment.Send(ctx, svc, o.Journal, in, p.Quote)
		out.JournalErr = res.JournalErr
		var ae *api.Error
		switch {
		case err == nil && res.Status == payment.Parked:
			out.Status = Parked
			if res.Operation != nil {
				out.OperationID = res.Operation.ID.String()
			}
			return out, nil
		case err == nil && res.Status == payment.Existing:
			out.Status, out.TicketID = Existing, res.Ticket.ID.String()
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
