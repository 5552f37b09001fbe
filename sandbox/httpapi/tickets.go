package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Tickets (seed, §5, §7.1, §7.2): creation, the list and its filters, a
// ticket and its receipt, and the sandbox's own transitions (fund,
// release) beside the caller's cancel.

// POST /v2/account/tickets/[?subAccountId]: 201 {ticket}, or 202
// {operation} when the access's creations need approval.
func (s *Server) createTicket(c *call) error {
	var req engine.TicketRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	t, op, err := s.eng.CreateTicket(c.caller(), &req, c.body)
	if err != nil {
		return err
	}
	if op != nil {
		return c.reply(http.StatusAccepted, map[string]any{"operation": operationView(op)})
	}
	return c.replyCreated(t)
}

// GET /v2/account/tickets/ with the seed's filters.
func (s *Server) listTickets(c *call) error {
	q := c.query
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	status := q.Get("status")
	if status != "" && !slices.Contains(ticketStatuses(), status) {
		return badRequest(codeInvalidField, "status: unknown ticket status %q (known: %s)", truncate(status, 20), strings.Join(ticketStatuses(), ", "))
	}
	inCur, outCur := q.Get("inputCurrency"), q.Get("outputCurrency")
	for _, f := range []struct{ name, v string }{{"inputCurrency", inCur}, {"outputCurrency", outCur}} {
		if f.v != "" && !knownCurrency(f.v) {
			return badRequest(codeInvalidField, "%s: unknown currency %q", f.name, truncate(f.v, 12))
		}
	}
	inMethod, outMethod := q.Get("inputPaymentMethod"), q.Get("outputPaymentMethod")
	e2e, ext := q.Get("endToEndId"), q.Get("externalId")
	f := engine.TicketFilter{Status: status, InputCurrency: inCur, OutputCurrency: outCur, InputMethod: inMethod, OutputMethod: outMethod, ExternalID: ext, EndToEndID: e2e, Window: w}
	items, next, err := s.eng.TicketPage(c.caller(), f, q.Get("cursor"))
	if err != nil {
		return err
	}
	return c.replyRaw(http.StatusOK, "application/json", ticketList(items, next), nil)
}

// ticketList is the list's answer, {"tickets":[…],"cursor":"…"} ("" on the
// last page), made of the stored tickets' bytes as they are. Each is the
// compact JSON the sandbox encoded when it stored the ticket
// (engine.ticketRow), which encoding the page as a value would only check
// and compact again: that was half of what a page cost the sandbox, and G
// in the Tickets screen reads 20,000 pages of a million tickets.
func ticketList(items []json.RawMessage, cursor string) []byte {
	// The cursor is the sandbox's own (base64url), but is quoted as any
	// string would be.
	quoted, _ := json.Marshal(cursor) // a string always encodes
	size := len(`{"tickets":[],"cursor":}`) + len(quoted) + len(items)
	for _, it := range items {
		size += len(it)
	}
	b := make([]byte, 0, size)
	b = append(b, `{"tickets":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	b = append(b, `],"cursor":`...)
	b = append(b, quoted...)
	return append(b, '}')
}

// GET /v2/account/tickets/{id}
func (s *Server) getTicket(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	t, err := s.eng.FindTicket(c.caller(), id)
	if err != nil {
		return err
	}
	return c.replyTicket(http.StatusOK, t)
}

// POST /v2/sandbox/tickets/{id}/fund: the payer pays now (sandbox only).
func (s *Server) fundTicket(c *call) error {
	if err := c.writable(); err != nil {
		return err
	}
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	t, err := s.eng.FundTicket(c.caller(), id)
	if err != nil {
		return err
	}
	return c.replyTicket(http.StatusOK, t)
}

// GET /v2/account/tickets/{id}/receipt: a PDF, for PAID tickets only.
func (s *Server) ticketReceipt(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	view, acctName, err := s.eng.PaidTicket(c.caller(), id)
	if err != nil {
		return err
	}
	pdf := receiptPDF(&view, acctName)
	return c.replyRaw(http.StatusOK, "application/pdf", pdf, map[string]string{"Content-Disposition": "attachment; filename=ticket-receipt.pdf"})
}

// replyTicket answers {"ticket": t} from the ticket's stored JSON: the
// bytes just written (or read) are the answer, not encoded a second time.
// The caller has not changed t since it was saved or read.
func (c *call) replyTicket(status int, t *engine.StoredTicket) error {
	if t.JSON == nil {
		return c.reply(status, map[string]any{"ticket": t.Ticket})
	}
	body := make([]byte, 0, len(t.JSON)+len(`{"ticket":}`))
	body = append(body, `{"ticket":`...)
	body = append(append(body, t.JSON...), '}')
	return c.replyRaw(status, "application/json", body, nil)
}

// replyCreated answers a creation with the superset of §7.1: the live
// service's flat id, brCode and expiration beside {ticket}, the ticket
// being the JSON just stored (not encoded a second time).
func (c *call) replyCreated(t *engine.StoredTicket) error {
	if t.JSON == nil {
		return c.reply(http.StatusCreated, createdAnswer(&t.Ticket))
	}
	head, err := json.Marshal(headOf(&t.Ticket))
	if err != nil {
		return err
	}
	body := make([]byte, 0, len(head)+len(t.JSON)+len(`,"ticket":}`))
	body = append(body, head[:len(head)-1]...)
	body = append(body, `,"ticket":`...)
	body = append(append(body, t.JSON...), '}')
	return c.replyRaw(http.StatusCreated, "application/json", body, nil)
}

// PATCH /v2/account/tickets/{id}/cancel: an UNPAID ticket becomes CANCELED;
// anything else is 409.
func (s *Server) cancelTicket(c *call) error {
	return s.ticketTransition(c, s.eng.CancelTicket)
}

// POST /v2/sandbox/tickets/{id}/release: the review of an ON-HOLD ticket
// passes (sandbox only).
func (s *Server) releaseTicket(c *call) error {
	return s.ticketTransition(c, s.eng.ReleaseTicket)
}

// ticketTransition moves the ticket of the path on and replies with it.
func (s *Server) ticketTransition(c *call, move func(engine.Caller, uuid.UUID) (records.Ticket, error)) error {
	if err := c.writable(); err != nil {
		return err
	}
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	t, err := move(c.caller(), id)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"ticket": t})
}

// createdHead is the creation answer's flat part (§7.1): the live
// service's fields, beside the seed's {ticket} so that both kinds of client
// read it.
type createdHead struct {
	BrCode     string       `json:"brCode,omitempty"`
	Expiration records.Time `json:"expiration"`
	ID         uuid.UUID    `json:"id"`
}

func headOf(t *records.Ticket) createdHead {
	h := createdHead{Expiration: t.ExpiresAt, ID: t.ID}
	if t.BrlPixInputInfo != nil {
		h.BrCode = t.BrCode()
	}
	return h
}

// createdAnswer is the whole creation answer: its head, then {ticket}.
func createdAnswer(t *records.Ticket) any {
	return struct {
		createdHead
		Ticket *records.Ticket `json:"ticket"`
	}{headOf(t), t}
}

// ticketStatuses are the values the status filter accepts.
func ticketStatuses() []string {
	out := make([]string, len(records.TicketStatuses))
	for i, s := range records.TicketStatuses {
		out[i] = string(s)
	}
	return out
}

// queryTimeEither reads a ticket-list time filter: RFC 3339 as the tickets
// guide shows, or integer Unix seconds as live clients send (§7.2).
func (c *call) queryTimeEither(name string) (time.Time, error) {
	raw := c.query.Get(name)
	if raw == "" {
		return time.Time{}, nil
	}
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil && n >= 0 {
		return time.Unix(n, 0).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		return time.Time{}, badRequest(codeInvalidField, "%s %q must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z or integer Unix seconds", name, truncate(raw, 40))
	}
	return t.UTC(), nil
}
