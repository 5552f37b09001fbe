package tickets

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/livetest"
)

// operator is the api client of the demo operator of a sandbox served over
// real HTTP.
func operator(t *testing.T) *api.Client {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return livetest.Client(t, livetest.Serve(t, sb), "operator", 10*time.Second)
}

// firstWith is the newest ticket of the main account in status st.
func firstWith(t *testing.T, c *api.Client, st api.TicketStatus) api.Ticket {
	t.Helper()
	p, err := c.ListTickets(t.Context(), api.TicketFilter{Status: string(st)})
	if err != nil || len(p.Items) == 0 {
		t.Fatalf("no %s ticket in the demo data: %v", st, err)
	}
	return p.Items[0]
}

// startLive starts the browser on the sandbox's main account, filtered on
// st, with the detail of its first ticket open.
func startLive(t *testing.T, c *api.Client, id uuid.UUID) *Model {
	t.Helper()
	s := newSession(t, c)
	m := New(s, c).(*Model)
	m.SetSize(120, 60)
	run(t, m, m.Init())
	_, cmd := m.Update(ui.NavigateMsg{Screen: "tickets", ID: id.String()})
	run(t, m, cmd)
	return m
}

// c on an UNPAID ticket asks first, then cancels it at the service: the
// detail shows CANCELED, the timeline gains the service's TICKET-CANCELED
// event, and the other screens are told tickets and balances changed.
func TestCancelUnpaidTicketAgainstTheSandbox(t *testing.T) {
	c := operator(t)
	tk := firstWith(t, c, api.TicketUnpaid)
	m := startLive(t, c, tk.ID)
	mustContain(t, screen(m), "UNPAID (live)", "Webhook events", "TICKET-CREATED")
	if strings.Contains(screen(m), "TICKET-CANCELED") {
		t.Fatalf("an unpaid ticket shows a cancel event:\n%s", screen(m))
	}
	out := press(t, m, "c")
	var ask *ui.ConfirmMsg
	for _, msg := range out {
		if a, ok := msg.(ui.ConfirmMsg); ok {
			ask = &a
		}
	}
	if ask == nil || !strings.Contains(ask.Body, tk.ID.String()) {
		t.Fatalf("no confirmation naming the ticket: %v", out)
	}
	if got, _ := c.GetTicket(t.Context(), uuid.Nil, tk.ID); got.Status != api.TicketUnpaid {
		t.Fatalf("canceled before the confirmation: %s", got.Status)
	}
	out = run(t, m, ask.OnYes)
	if ts := toasts(out); len(ts) != 1 || ts[0] != "Ticket "+tk.ID.String()[:8]+" CANCELED" {
		t.Fatalf("toasts %v", ts)
	}
	mustContain(t, screen(m), "CANCELED", "canceled by the caller", "TICKET-CANCELED")
	if got, _ := c.GetTicket(t.Context(), uuid.Nil, tk.ID); got.Status != api.TicketCanceled {
		t.Fatalf("the service has it %s", got.Status)
	}
	var changed bool
	for _, msg := range out {
		if ch, ok := msg.(ui.ChangedMsg); ok && ch.What.Has(ui.ChangedTickets) {
			changed = true
		}
	}
	if !changed {
		t.Fatal("the other screens were not told the tickets changed")
	}
	if bindsEnabled(m, "c") {
		t.Fatal("c is still offered on a CANCELED ticket")
	}
}

// A ticket that left UNPAID (paid meanwhile, in another session) is
// refused by the service; its reason is shown and the detail shows the
// ticket as it is now.
func TestCancelRefusedShowsTheServiceReason(t *testing.T) {
	c := operator(t)
	tk := firstWith(t, c, api.TicketUnpaid)
	m := startLive(t, c, tk.ID)
	press(t, m, "c")
	d := driver(t, m)
	ask := d.Asks[len(d.Asks)-1]
	// Another session cancels it first.
	if _, err := c.CancelTicket(t.Context(), uuid.Nil, tk.ID); err != nil {
		t.Fatal(err)
	}
	out := run(t, m, ask.OnYes)
	ts := toasts(out)
	if len(ts) != 1 || !strings.Contains(ts[0], "only UNPAID tickets can be canceled") || !strings.Contains(ts[0], "NOT_CANCELABLE") {
		t.Fatalf("toasts %v", ts)
	}
	mustContain(t, screen(m), "✗ not canceled: ", "NOT_CANCELABLE", "CANCELED")
}

// A paid ticket offers no cancel, and its timeline lists every event the
// service recorded for it, oldest first.
func TestPaidTicketTimelineAndNoCancel(t *testing.T) {
	c := operator(t)
	tk := firstWith(t, c, api.TicketPaid)
	m := startLive(t, c, tk.ID)
	// A paid ticket's sheet runs past 60 lines when it has a PIX payer and
	// a rebate: the whole timeline is read on a screen tall enough for it.
	m.SetSize(120, 120)
	v := screen(m)
	if strings.Contains(v, " lines") {
		t.Fatalf("the sheet does not fit 120 lines:\n%s", v)
	}
	mustContain(t, v, "✓ PAID", "Webhook events", "TICKET-COMPLETE")
	if i, j := strings.Index(v, "TICKET-CREATED"), strings.Index(v, "TICKET-COMPLETE"); i < 0 || j < i {
		t.Fatalf("events not oldest first:\n%s", v)
	}
	if bindsEnabled(m, "c") {
		t.Fatal("c is offered on a PAID ticket")
	}
}
