package approvals

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// A requester who is no approver opens Approvals on My requests: the
// operations its journal says it parked, each followed on the service,
// with who rejected it and why, or its ticket and the ticket's status. A
// session started later over the same journal finds them again.
func TestMyRequestsFromTheJournalAndTheService(t *testing.T) {
	svc := &fakeservice.Service{}
	rejected := newOp("requester@example.com", "1000", 0)
	rejected.Status, rejected.RejectedBy, rejected.Reason = api.OperationRejected, "approver1@example.com", "amount above the monthly limit"
	executed := newOp("requester@example.com", "250", 0)
	ticket := uuid.New()
	executed.Status, executed.ExecutedID, executed.Approvals = api.OperationExecuted, ticket.String(), 2
	svc.AddOp(rejected)
	svc.AddOp(executed)
	svc.Tickets = map[uuid.UUID]*api.Ticket{ticket: {ID: ticket, Status: api.TicketPaid}}
	requester := api.Permissions{OperationRequester: true, PayOut: true}

	s := fakeservice.Session(t, "requester@example.com", requester)
	s.Time = screentest.NewClock(now)
	for _, op := range []*api.Operation{rejected, executed} {
		e := s.JournalEntry(uuid.Nil, "create-ticket", "POST /v2/account/tickets/")
		e.Email, e.Outcome = "requester@example.com", "parked"
		e.IDs = map[string]string{"operationId": op.ID.String()}
		e.Amounts = map[string]string{"input": "1000.00 BRL PIX", "output": "181.234500 USDC POLYGON"}
		if err := s.Journal.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	// Another access's request in the same journal is not this one's.
	e := s.JournalEntry(uuid.Nil, "create-ticket", "POST /v2/account/tickets/")
	e.Email, e.Outcome, e.IDs = "someone@example.com", "parked", map[string]string{"operationId": uuid.NewString()}
	if err := s.Journal.Record(e); err != nil {
		t.Fatal(err)
	}

	for _, run := range []string{"first", "after a restart"} {
		s2 := &ui.Session{Env: s.Env, Profile: s.Profile, Journal: reopen(t, s.Journal), Time: s.Time, Access: s.Access}
		d := fakeservice.Drive(t, s2, func(s *ui.Session) ui.Screen { return New(s, svc) }, 140, 20)
		d.Key("down") // the rejected one: its whole reason under the table
		v := d.PlainView()
		for _, want := range []string{"My requests", "2 requested", "REJECTED", "REJECTED by approver1@example.com: amount above the monthly limit",
			"EXECUTED", "ticket " + ticket.String() + " PAID", "2/2"} {
			if !strings.Contains(v, want) {
				t.Errorf("%s: My requests lacks %q:\n%s", run, want, v)
			}
		}
		d.Key("m")
		if v := d.PlainView(); strings.Contains(v, "My requests") {
			t.Errorf("%s: m did not go to the inbox:\n%s", run, v)
		}
	}
}

// reopen opens the journal of j anew, as a program started later does.
func reopen(t *testing.T, j *journal.Journal) *journal.Journal {
	t.Helper()
	dir := j.Path()[:len(j.Path())-len(journal.FileName)-1]
	n, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
