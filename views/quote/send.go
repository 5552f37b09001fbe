package quote

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// sent is what became of a creation (its error is the Result's): the
// payment core's outcome, or nothing sent because the guard stopped the
// request before it left. It says so itself (ui.Reporter) when it arrives
// after its session ended: the root tells it against its account.
type sent struct {
	out payment.Outcome
	// externalID names the payment sent.
	externalID string
	// notSent is true when the guard stopped the request before it left.
	notSent bool
}

// Report implements ui.Reporter: the outcome in one line, or the error.
func (r sent) Report(err error) string {
	switch {
	case r.notSent:
		return "the quote expired before the ticket was sent: nothing was created"
	case err != nil:
		return "ticket with external id " + r.externalID + " not created: " + ui.ErrorText(err)
	case r.out.Status == payment.Parked && r.out.Operation != nil:
		return "sent for approval: operation " + r.out.Operation.ID.String()
	case r.out.Status == payment.Existing && r.out.Ticket != nil:
		return "found ticket " + r.out.Ticket.ID.String() + " already created under external id " + r.externalID
	case r.out.Ticket != nil:
		return "ticket " + r.out.Ticket.ID.String() + " created"
	}
	return "the service answered without a ticket or an operation: look for external id " + r.externalID + " in Tickets"
}

// submit sends the confirmed intent with its quote. Everything the command
// needs is captured now; the guard runs again inside the command, right
// before anything leaves, with the session clock. The creation settles: an
// account switch meanwhile does not abandon it, and its outcome is told
// against its account.
func (m *Screen) submit() tea.Cmd {
	m.stage = stageSending
	m.confirm.err = ""
	s, svc := m.s, m.svc
	in := m.confirm.in
	cd := m.countdown
	q := *m.quote
	return ui.Settle(s, &m.creating, createTimeout, func(ctx context.Context) (sent, error) {
		if err := CheckLive(cd, s.Now()); err != nil {
			return sent{externalID: in.ExternalID, notSent: true}, err
		}
		out, err := payment.Send(ctx, svc, s.Journal, in, &q)
		return sent{out: out, externalID: in.ExternalID}, err
	})
}

// onSent shows what became of the creation. The slot already made sure it
// answers the creation this screen sent.
func (m *Screen) onSent(msg ui.Result[sent]) tea.Cmd {
	out := msg.Value.out
	c := m.confirm
	var cmds []tea.Cmd
	if jerr := out.JournalErr; jerr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal: "+jerr.Error()))
	}
	switch {
	case msg.Value.notSent || errors.Is(msg.Err, api.ErrQuoteExpired) || errors.Is(msg.Err, errExpired):
		// Nothing was created. Auto re-quote renews it (same intent);
		// otherwise the confirmation says so and offers r.
		m.stage = stageConfirm
		if m.auto {
			cmds = append(cmds, m.requoteForConfirm())
		} else {
			c.err = "The quote expired before the ticket was sent: nothing was created. Press r for a new quote."
		}
	case errConflict(msg.Err):
		m.stage = stageConfirm
		c.conflict = true
		c.err = ui.ErrorText(msg.Err) + ". Press any key but y to go back: ctrl+e edits the external id."
	case msg.Err != nil:
		m.stage = stageConfirm
		c.err = "The ticket was not created: " + ui.ErrorText(msg.Err) +
			". Press y to try again with the same external id (a ticket created in the meantime is found, not duplicated), or any other key to go back."
	case out.Ticket == nil && out.Operation == nil:
		m.stage = stageConfirm
		c.err = msg.Value.Report(nil) + " before trying again."
	default:
		m.stage = stageResult
		m.learnApprovals(out.Operation)
		m.res = newResult(m.s, m.svc, *m.quote, c.in, out, c.beneficiary)
		m.res.SetSize(m.w, m.h)
		// The intent is fulfilled: a new payment gets a new external id.
		m.externalID, m.intentKey = "", ""
		m.details, m.confirm = nil, nil
		cmds = append(cmds, m.res.start())
		switch out.Status {
		case payment.Parked:
			cmds = append(cmds, ui.Toast(ui.ToastSuccess, "sent for approval"), m.res.changed(ui.ChangedOperations))
		case payment.Existing:
			cmds = append(cmds, ui.Toast(ui.ToastInfo, msg.Value.Report(nil)))
		default:
			cmds = append(cmds, ui.Toast(ui.ToastSuccess, "ticket created"), m.res.changed(ui.ChangedTickets|ui.ChangedBalances))
		}
	}
	return tea.Batch(cmds...)
}

// ticketCountdown is the countdown of a ticket's own expiry: 5 minutes for
// a conversion, 24 hours otherwise, read from expiresAt.
func ticketCountdown(t *api.Ticket) widget.Countdown {
	total := t.ExpiresAt.Sub(t.CreatedAt.Time)
	if t.CreatedAt.IsZero() || total <= 0 {
		total = 24 * time.Hour
		if t.Quote.InputCurrency != t.Quote.OutputCurrency {
			total = 5 * time.Minute
		}
	}
	return widget.Countdown{ID: "ticket-" + t.ID.String(), Deadline: t.ExpiresAt.Time, Total: total}
}
