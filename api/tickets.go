package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ListTickets returns one page of tickets, newest first. Time filters are
// sent as RFC 3339 (the only list where the service wants them so).
func (c *Client) ListTickets(ctx context.Context, f TicketFilter) (Page[Ticket], error) {
	return page[Ticket](ctx, c, ticketsCall(f), keyTickets)
}

// ticketsCall is the request of the page of tickets f selects.
func ticketsCall(f TicketFilter) call {
	q := newQuery().sub(f.SubAccountID).
		rfc3339("createdAfter", f.CreatedAfter).
		rfc3339("createdBefore", f.CreatedBefore).
		cursor(f.Cursor).
		str("status", f.Status).
		str("inputCurrency", f.InputCurrency).
		str("inputPaymentMethod", f.InputPaymentMethod).
		str("outputCurrency", f.OutputCurrency).
		str("outputPaymentMethod", f.OutputPaymentMethod).
		str("endToEndId", f.EndToEndID).
		str("externalId", f.ExternalID)
	return call{method: http.MethodGet, path: pathTickets, query: q.values()}
}

// GetTicket reads one ticket. A ticket of another account scope is a 404.
func (c *Client) GetTicket(ctx context.Context, subAccountID, id uuid.UUID) (*Ticket, error) {
	cl := call{method: http.MethodGet, path: itemUUID(pathTickets, id), query: newQuery().sub(subAccountID).values()}
	return object[Ticket](ctx, c, cl, keyTicket)
}

// FindTicketByExternalID looks a ticket up by the externalId its creation
// carried. found is false when the service has none in that account scope.
// Only exact matches count, in case a service ignores the filter.
func (c *Client) FindTicketByExternalID(ctx context.Context, subAccountID uuid.UUID, externalID string) (t *Ticket, found bool, err error) {
	if externalID == "" {
		return nil, false, errors.New("find ticket: empty externalId")
	}
	p, err := c.ListTickets(ctx, TicketFilter{SubAccountID: subAccountID, ExternalID: externalID})
	if err != nil {
		return nil, false, err
	}
	// The list is newest first; the oldest match is the original creation.
	for i := len(p.Items) - 1; i >= 0; i-- {
		if p.Items[i].ExternalID == externalID {
			t := p.Items[i]
			return &t, true, nil
		}
	}
	return nil, false, nil
}

// TicketReceipt downloads the PDF receipt of a PAID ticket (409 otherwise).
func (c *Client) TicketReceipt(ctx context.Context, subAccountID, id uuid.UUID) ([]byte, error) {
	cl := call{method: http.MethodGet, path: itemUUID(pathTickets, id) + "/receipt", query: newQuery().sub(subAccountID).values(), pdf: true}
	resp, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	if err := c.decode(cl, resp, nil); err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(resp.body, []byte("%PDF-")) && !strings.Contains(resp.header.Get("Content-Type"), "pdf") {
		return nil, malformedError(cl.method, cl.path, resp.status, resp.body, errors.New("the receipt is not a PDF document"))
	}
	return resp.body, nil
}

// CreatePaymentSessionTicket creates a ticket inside a payment session (a
// public endpoint: no credentials are sent). It sets an externalId when none
// is given. Its outcome cannot be looked up without credentials, so a lost
// answer is reported as *OutcomeUnknownError and never re-sent.
func (c *Client) CreatePaymentSessionTicket(ctx context.Context, sessionID string, req CreateTicketRequest) (*Ticket, error) {
	if sessionID == "" {
		return nil, errors.New("payment session ticket: empty payment session id")
	}
	if req.ExternalID == "" {
		req.ExternalID = uuid.NewString()
	}
	cl := call{method: http.MethodPost, path: item(pathPaymentSession, sessionID) + "/create-ticket", body: req, public: true}
	unknown := func(err error) error {
		return &OutcomeUnknownError{ExternalID: req.ExternalID, Cause: err, LookupErr: errors.New("a payment-session ticket cannot be looked up without credentials")}
	}
	resp, err := c.do(ctx, cl)
	if err != nil {
		var te *transportError
		if errors.As(err, &te) && te.sent {
			return nil, unknown(err)
		}
		return nil, err
	}
	var t Ticket
	if err := c.decodeEnvelope(cl, resp, keyTicket, &t); err != nil {
		var e *Error
		if errors.As(err, &e) && (e.Status >= 500 || (e.malformed && e.Status < 300)) {
			return nil, unknown(err)
		}
		return nil, err
	}
	return &t, nil
}

// SandboxFundTicket simulates the payer funding a ticket (sandbox only).
func (c *Client) SandboxFundTicket(ctx context.Context, subAccountID, id uuid.UUID) (*Ticket, error) {
	cl := call{method: http.MethodPost, path: itemUUID(pathSandboxFundTicket, id) + "/fund", query: newQuery().sub(subAccountID).values()}
	return object[Ticket](ctx, c, cl, keyTicket)
}

// CancelTicket cancels an UNPAID ticket (PATCH .../cancel); the service
// answers 409 for any other state. The ticket comes back CANCELED.
func (c *Client) CancelTicket(ctx context.Context, subAccountID, id uuid.UUID) (*Ticket, error) {
	cl := call{method: http.MethodPatch, path: itemUUID(pathTickets, id) + "/cancel", query: newQuery().sub(subAccountID).values()}
	return object[Ticket](ctx, c, cl, keyTicket)
}

// SandboxReleaseTicket passes the review of an ON-HOLD ticket (sandbox
// only): it moves on to delivery.
func (c *Client) SandboxReleaseTicket(ctx context.Context, subAccountID, id uuid.UUID) (*Ticket, error) {
	cl := call{method: http.MethodPost, path: itemUUID(pathSandboxFundTicket, id) + "/release", query: newQuery().sub(subAccountID).values()}
	return object[Ticket](ctx, c, cl, keyTicket)
}

// CreateTicket turns a quote into a ticket. The quote must have been asked
// for with the same subAccountID.
//
// Safety, because the service does not deduplicate:
//   - an externalId (a UUID) is set when req has none; give your own, made
//     once per user intent, to be able to look the ticket up later;
//   - a request that provably never left the machine (no connection, or
//     its headers never written) is sent again, up to three times;
//   - a request that may have reached the service but whose answer was lost
//     (a timeout, a dropped connection, a 5xx, an unreadable body) is never
//     re-sent blindly: the ticket is looked up by externalId in the same
//     account scope. Found, it is returned with Reconciled set. Certainly
//     absent — every lookup answered "none" and the access's creations are
//     not parked for approval — the same request (same externalId) is sent
//     again, at most twice. Otherwise the result is an *OutcomeUnknownError
//     (errors.Is ErrOutcomeUnknown): a parked creation leaves no ticket to
//     find and requesters cannot list operations, so absence cannot be
//     proven. The error says how to check; the quote token expires in
//     seconds, so trying again means a new quote, confirmed again.
//
// A 201 returns the ticket; a 202 (multi-signature approval required)
// returns the parked operation with Parked set.
func (c *Client) CreateTicket(ctx context.Context, subAccountID uuid.UUID, req CreateTicketRequest) (*CreateTicketResult, error) {
	if req.QuoteToken == "" {
		return nil, errors.New("create ticket: no quote token; ask for a quote first")
	}
	if req.ExternalID == "" {
		req.ExternalID = uuid.NewString()
	}
	// One call number for the creation and every lookup it leads to.
	ctx, _ = withCallID(ctx)
	cl := call{method: http.MethodPost, path: pathTickets, query: newQuery().sub(subAccountID).values(), body: req}
	const maxUnsent, maxResends = 3, 2
	unsent, resends := 0, 0
	for {
		res, err := c.createOnce(ctx, cl, subAccountID, req.ExternalID)
		var te *transportError
		switch {
		case err == nil:
			return res, nil
		case errors.As(err, &te) && !te.sent:
			unsent++
			if unsent < maxUnsent && ctx.Err() == nil && c.sleep(ctx, c.retry.backoff(unsent-1)) == nil {
				continue
			}
			return nil, fmt.Errorf("create ticket (not sent, nothing was created): %w", err)
		case errors.Is(err, errCertainlyAbsent):
			resends++
			if resends <= maxResends && ctx.Err() == nil {
				c.traceStep(ctx, "externalId %s certainly absent: sending the same request again (%d of %d)", req.ExternalID, resends, maxResends)
				continue
			}
			return nil, fmt.Errorf("create ticket: the service lost %d answers in a row and holds no ticket with externalId %s; nothing was created: %w", resends, req.ExternalID, errors.Unwrap(err))
		}
		return nil, err
	}
}

// errCertainlyAbsent wraps the cause of a lost answer when the lookup by
// externalId proved that no ticket was created, so the request may be sent
// again with the same externalId.
var errCertainlyAbsent = errors.New("no ticket was created")

type absentError struct{ cause error }

func (e *absentError) Error() string        { return "no ticket was created: " + e.cause.Error() }
func (e *absentError) Unwrap() error        { return e.cause }
func (e *absentError) Is(target error) bool { return target == errCertainlyAbsent }

// createOnce sends the creation once and settles what became of it.
func (c *Client) createOnce(ctx context.Context, cl call, sub uuid.UUID, externalID string) (*CreateTicketResult, error) {
	resp, err := c.do(ctx, cl)
	if err != nil {
		var te *transportError
		var e *Error
		switch {
		case errors.As(err, &te) && !te.sent:
			return nil, err
		case errors.As(err, &te):
			return c.reconcileTicket(ctx, sub, externalID, err)
		case errors.As(err, &e) && e.malformed && e.Status == http.StatusAccepted:
			return nil, &OutcomeUnknownError{ExternalID: externalID, SubAccountID: sub, Parked: true, Cause: err}
		case errors.As(err, &e) && e.malformed:
			return c.reconcileTicket(ctx, sub, externalID, err)
		}
		return nil, err
	}
	return c.createdTicket(ctx, cl, resp, sub, externalID)
}

// createdTicket reads the answer of a ticket creation that arrived whole.
func (c *Client) createdTicket(ctx context.Context, cl call, resp *response, sub uuid.UUID, externalID string) (*CreateTicketResult, error) {
	switch {
	case resp.status == http.StatusAccepted:
		var op Operation
		if err := c.decodeEnvelope(cl, resp, keyOperation, &op); err != nil {
			return nil, &OutcomeUnknownError{ExternalID: externalID, SubAccountID: sub, Parked: true, Cause: err}
		}
		return &CreateTicketResult{Operation: &op, Parked: true}, nil
	case resp.status == http.StatusCreated || resp.status == http.StatusOK:
		var t Ticket
		err := c.decodeEnvelope(cl, resp, keyTicket, &t)
		if err == nil {
			return &CreateTicketResult{Ticket: &t}, nil
		}
		// The flat {id, brCode, expiration} shape of the service's guidance:
		// read the full ticket by id.
		var flat flatTicket
		if c.decode(cl, resp, &flat) == nil && flat.ID != uuid.Nil {
			if full, gerr := c.GetTicket(ctx, sub, flat.ID); gerr == nil {
				return &CreateTicketResult{Ticket: full}, nil
			}
		}
		// Created, but the answer is unreadable: find it.
		return c.reconcileTicket(ctx, sub, externalID, err)
	case resp.status >= 500 || (resp.status >= 200 && resp.status < 300):
		return c.reconcileTicket(ctx, sub, externalID, newStatusError(cl.method, cl.path, resp.status, resp.header, resp.body))
	}
	return nil, newStatusError(cl.method, cl.path, resp.status, resp.header, resp.body)
}

// reconcileTicket looks the ticket up after its creation's answer was lost.
// It runs even if ctx was cancelled meanwhile (bounded by the policy's own
// timeout): knowing whether money is about to move matters more than
// honouring a cancel that came too late to stop the request.
func (c *Client) reconcileTicket(ctx context.Context, sub uuid.UUID, externalID string, cause error) (*CreateTicketResult, error) {
	p := c.reconcile
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.Timeout)
	defer cancel()
	c.traceStep(ctx, "answer lost (%v): looking externalId %s up", cause, externalID)
	var lookupErr error
	for i, d := range p.Delays {
		if err := c.sleep(rctx, d); err != nil {
			lookupErr = err
			break
		}
		t, found, err := c.FindTicketByExternalID(rctx, sub, externalID)
		if err != nil {
			c.traceStep(ctx, "lookup %d failed: %v", i+1, err)
			lookupErr = err
			continue
		}
		lookupErr = nil
		if found {
			c.traceStep(ctx, "lookup %d found ticket %s: reconciled, nothing re-sent", i+1, t.ID)
			return &CreateTicketResult{Ticket: t, Reconciled: true}, nil
		}
		c.traceStep(ctx, "lookup %d: no ticket yet", i+1)
	}
	if lookupErr == nil && !c.createsParked(rctx) {
		return nil, &absentError{cause: cause}
	}
	c.traceStep(ctx, "outcome unknown: absence cannot be proven")
	return nil, &OutcomeUnknownError{ExternalID: externalID, SubAccountID: sub, Cause: cause, LookupErr: lookupErr}
}

// createsParked reports whether this access's ticket creations may be parked
// for multi-signature approval (or whether that cannot be known): then a
// missing ticket proves nothing, since a parked request leaves none.
func (c *Client) createsParked(ctx context.Context) bool {
	info, err := c.AccessInfo(ctx)
	return err != nil || info.AccountPermissions.OperationRequester
}

// ReconcilePolicy says how CreateTicket looks a ticket up by externalId
// after the answer to its creation was lost.
type ReconcilePolicy struct {
	// Delays are the waits before each lookup; a ticket committed while the
	// answer was being lost may take a moment to be listed.
	Delays []time.Duration
	// Timeout bounds the whole reconciliation.
	Timeout time.Duration
}

// DefaultReconcilePolicy looks up at once, then after 0.5 s and 1.5 s more.
var DefaultReconcilePolicy = ReconcilePolicy{Delays: []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond}, Timeout: 20 * time.Second}
