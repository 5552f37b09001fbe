package tickets

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// canceledMsg answers a cancel. Cancels are not awaited one at a time:
// any answer of this screen's session is taken.
type canceledMsg = ui.Result[canceled]

type canceled struct {
	id         uuid.UUID
	ticket     *api.Ticket
	err        error
	journalErr error
}

// cancelTarget is the ticket c would cancel: the open detail's, else the
// selected row's, when it is UNPAID.
func (m *Model) cancelTarget() (uuid.UUID, string, bool) {
	if d := m.detail; d != nil {
		if d.ticket == nil || d.ticket.Status != api.TicketUnpaid {
			return uuid.Nil, "", false
		}
		q := d.ticket.Quote
		return d.id, amt(q.InputAmount, q.InputCurrency) + " → " + amt(q.OutputAmount, q.OutputCurrency), true
	}
	rec, ok := m.selected()
	if !ok || rec.Status() != api.TicketUnpaid {
		return uuid.Nil, "", false
	}
	return rec.ID, amount(rec.InAmount(), rec.InCur()) + " → " + amount(rec.OutAmount(), rec.OutCur()), true
}

// confirmCancel asks before an UNPAID ticket is cancelled, naming it, what
// it would have paid and the account. The service refuses any other state
// (409 NOT_CANCELABLE); its reason is shown as it gives it.
func (m *Model) confirmCancel() tea.Cmd {
	id, what, ok := m.cancelTarget()
	if !ok {
		return nil
	}
	if err := m.s.Can(ui.ActWrite); err != nil {
		return ui.Toast(ui.ToastError, "Cannot cancel: "+ui.ErrorText(err))
	}
	svc, s, account := m.svc, m.s, m.s.Account.ID
	endpoint := "PATCH /v2/account/tickets/" + id.String() + "/cancel"
	_, onYes := ui.Call(s, 0, func(ctx context.Context) (canceled, error) {
		t, err := svc.CancelTicket(ctx, account, id)
		e := s.JournalEntry(account, "cancel-ticket", endpoint)
		e.IDs, e.Outcome = map[string]string{"ticketId": id.String()}, "canceled"
		if err != nil {
			e.Outcome = "error: " + err.Error()
		}
		return canceled{id: id, ticket: t, err: err, journalErr: s.Journal.Record(e)}, nil
	})
	body := fmt.Sprintf("Ticket %s\n%s\nAccount: %s\nIt stops waiting for its payment. This cannot be undone.", id, what, m.s.AccountName())
	return ui.Confirm("Cancel this UNPAID ticket?", body, onYes)
}

// onCanceled shows the cancelled ticket, or why the service refused.
func (m *Model) onCanceled(msg canceled) tea.Cmd {
	var journal tea.Cmd
	if msg.journalErr != nil {
		journal = ui.Toast(ui.ToastError, "journal not written: "+ui.ErrorText(msg.journalErr))
	}
	short := msg.id.String()[:8]
	if msg.err != nil {
		if d := m.detail; d != nil && d.id == msg.id {
			d.refused = "not canceled: " + ui.ErrorText(msg.err)
		}
		// The ticket may have moved on (paid, expired): show what it is now.
		return tea.Batch(journal, ui.Toast(ui.ToastError, "Ticket "+short+" not canceled: "+ui.ErrorText(msg.err)), m.refreshOne(msg.id))
	}
	var events tea.Cmd
	if d := m.detail; d != nil && d.id == msg.id && msg.ticket != nil {
		d.ticket, d.err, d.refused = msg.ticket, nil, ""
		events = m.loadEvents()
	}
	m.update(msg.ticket)
	return tea.Batch(journal, ui.Toast(ui.ToastSuccess, "Ticket "+short+" "+string(api.TicketCanceled)),
		ui.ChangedIn(m.s.Account.ID, ui.ChangedTickets|ui.ChangedBalances, m.ID()), events)
}

// refreshOne fetches a ticket again after a refused write: the open detail
// or its row shows its state now.
func (m *Model) refreshOne(id uuid.UUID) tea.Cmd {
	if d := m.detail; d != nil && d.id == id {
		return m.openDetailKeepScroll()
	}
	return ui.Fetch(m.s, &m.refresh, 0, refreshTickets(m.svc, m.s.Account.ID, []uuid.UUID{id}))
}
