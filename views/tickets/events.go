package tickets

import (
	"context"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// eventPages bounds the pages of a ticket's events fetched for its detail:
// a ticket has a handful of transitions, so more means something loops.
const eventPages = 4

// eventsMsg carries the webhook events of the open ticket.
type eventsMsg = ui.Result[ticketEvents]

type ticketEvents struct {
	id     uuid.UUID
	events []api.WebhookEvent
	more   bool
}

// loadEvents fetches the webhook events recorded for the open ticket
// (GET /v2/notifications/webhooks/events?dataId=…&subscription=TICKET): the
// service's own history of its transitions, which the ticket does not
// carry.
func (m *Model) loadEvents() tea.Cmd {
	d := m.detail
	if d == nil {
		return nil
	}
	svc, account, id := m.svc, m.s.Account.ID, d.id
	return ui.Fetch(m.s, &m.eventsSlot, 0, func(ctx context.Context) (ticketEvents, error) {
		evs, more, err := api.FirstPages(ctx, eventPages, func(ctx context.Context, cursor string) (api.Page[api.WebhookEvent], error) {
			return svc.ListWebhookEvents(ctx, api.WebhookEventFilter{SubAccountID: account, DataID: id.String(), Subscription: "TICKET", Cursor: cursor})
		})
		if err != nil {
			err = fmt.Errorf("list the events of ticket %s: %w", id, err)
		}
		return ticketEvents{id: id, events: evs, more: more}, err
	})
}

// onEvents files the events of the open ticket, oldest first.
func (m *Model) onEvents(msg eventsMsg) {
	d := m.detail
	if d == nil || d.id != msg.Value.id {
		return
	}
	d.eventsLoaded, d.eventsErr = true, msg.Err
	if msg.Err != nil {
		return
	}
	evs := slices.Clone(msg.Value.events)
	slices.SortStableFunc(evs, func(a, b api.WebhookEvent) int { return a.CreatedAt.Compare(b.CreatedAt.Time) })
	d.events, d.eventsMore = evs, msg.Value.more
}

// eventName is what happened: the event's type (TICKET-CREATED,
// DEPOSIT-SUCCESS, TICKET-CANCELED…).
func eventName(e api.WebhookEvent) string {
	if s := e.Type(); s != "" {
		return s
	}
	return e.Subscription
}

// eventTicketStatus is the ticket's status the event carries, when its
// data holds the ticket.
func eventTicketStatus(e api.WebhookEvent) string { return e.TicketStatus() }

// eventLines is the detail's block of webhook events: time, event, and
// the ticket's status when the event says it.
func eventLines(d *detailPane, th *ui.Theme, width int, loc *time.Location, now time.Time) []string {
	s := &sheet{Sheet: listing.NewSheet(th, width), loc: loc, now: now}
	s.Title("Webhook events")
	switch {
	case d.eventsErr != nil:
		s.Text(th.Error.Render("✗ " + ui.ErrorText(d.eventsErr)))
		s.Text(th.Muted.Render("r loads the ticket and its events again"))
	case !d.eventsLoaded:
		s.Text(th.Muted.Render("loading events…"))
	case len(d.events) == 0:
		s.Text(th.Muted.Render("no event recorded for this ticket yet"))
	}
	for _, e := range d.events {
		line := th.Muted.Render(s.when(e.CreatedAt.Time)) + "  " + th.Value.Render(eventName(e))
		if st := eventTicketStatus(e); st != "" {
			line += "  " + statusText(th, api.TicketStatus(st))
		}
		s.Text(line)
	}
	if d.eventsMore {
		s.Text(th.Muted.Render(fmt.Sprintf("only the first %d pages of events are shown", eventPages)))
	}
	return s.Lines
}
