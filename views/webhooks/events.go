package webhooks

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// The events tab: every notification the service recorded for the operated
// account (a ticket's transitions, KYC steps), newest first, whether or not
// a webhook received it. Paged by the list base; s narrows it to one
// subscription, sent to the service.

// subscriptions are the kinds a webhook subscribes to and an event has.
var subscriptions = []string{"TICKET", "KYC", "LIMIT-UPDATE"}

func eventColumns(narrow bool) []widget.Column {
	if narrow {
		return []widget.Column{{Title: "Created", Width: 11}, {Title: "Kind", Width: 6}, {Title: "Status", Width: 10}, {Title: "Of"}}
	}
	return []widget.Column{{Title: "Created", Width: 16}, {Title: "Subscription", Width: 12}, {Title: "Status", Width: 16},
		{Title: "Of (ticket, attempt…)"}, {Title: "Event", Width: 13}}
}

// eventData is what an event is about: its type and the id of the record
// it concerns, in the wrapped shape or the older one.
func eventData(e api.WebhookEvent) (status, of string) { return e.Type(), e.Subject() }

func (m *Model) eventRow(e api.WebhookEvent) widget.Row {
	status, of := eventData(e)
	loc := m.loc()
	if m.narrow {
		kind := e.Subscription
		if kind == "LIMIT-UPDATE" {
			kind = "LIMIT"
		}
		// The event id stays after the shown cells, for the / filter.
		return widget.Row{Cells: []string{e.CreatedAt.In(loc).Format("01-02 15:04"), kind, status, of, e.ID}}
	}
	return widget.Row{Cells: []string{e.CreatedAt.In(loc).Format("2006-01-02 15:04"), e.Subscription, status, of, e.ID}}
}

// eventQuery is the request of the events page at cursor, fixed now.
func (m *Model) eventQuery(cursor string) (listing.PageCall[api.WebhookEvent], error) {
	q := api.WebhookEventFilter{SubAccountID: m.s.Account.ID, Cursor: cursor, Subscription: m.eventSub}
	svc := m.svc
	return func(ctx context.Context) (api.Page[api.WebhookEvent], error) {
		return svc.ListWebhookEvents(ctx, q)
	}, nil
}

// reloadEvents asks for the first page of events under the subscription
// chosen.
func (m *Model) reloadEvents() tea.Cmd {
	if m.eventSub != "" {
		m.events.SetEmpty(fmt.Sprintf("no %s events in %s (s shows other kinds)", m.eventSub, m.s.AccountName()))
	} else {
		m.events.SetEmpty("no webhook events recorded in " + m.s.AccountName())
	}
	m.eventDetail.Close()
	return m.events.Reload()
}

// nextSub is the subscription s moves to: all, then each kind.
func (m *Model) nextSub() string {
	i := slices.Index(subscriptions, m.eventSub)
	if i+1 >= len(subscriptions) {
		return ""
	}
	return subscriptions[i+1]
}

func (m *Model) eventsFilterText() string {
	if m.eventSub == "" {
		return "all kinds (s: one kind)"
	}
	return "kind: " + m.eventSub + " (s: next)"
}

// eventLines are every field of an event, its data key by key.
func (m *Model) eventLines(e *api.WebhookEvent) []string {
	th := m.s.Styles()
	s := listing.NewSheet(th, m.width)
	s.LabelWidth = 14
	kv := func(label, value string) { s.Styled(label, value, th.Value) }
	kv("Event", e.ID)
	kv("Subscription", e.Subscription)
	kv("Created", e.CreatedAt.In(m.loc()).Format("2006-01-02 15:04:05"))
	kv("Account", e.SubAccountID)
	for _, k := range slices.Sorted(maps.Keys(e.Data)) {
		kv("data."+k, fmt.Sprint(e.Data[k]))
	}
	return s.Lines
}

func (m *Model) eventsView() string {
	if e := m.eventDetail.Open; e != nil {
		th := m.s.Styles()
		lines := []string{th.Title.Render("Webhook event " + e.ID)}
		lines = append(lines, m.eventDetail.Window(m.eventLines(e), m.bodyHeight()-1)...)
		return strings.Join(lines, "\n")
	}
	return m.events.View(m.eventsFilterText())
}

// tabsLine names the two tabs, the one shown in brackets.
func (m *Model) tabsLine() string {
	th := m.s.Styles()
	names := []string{"Delivery attempts", "Events"}
	parts := make([]string, len(names))
	for i, n := range names {
		if i == m.tab {
			parts[i] = th.ActiveTab.Render("[" + n + "]")
		} else {
			parts[i] = th.Tab.Render(" " + n + " ")
		}
	}
	return ui.Truncate(strings.Join(parts, " ")+th.Muted.Render("  ←/→"), m.width)
}
