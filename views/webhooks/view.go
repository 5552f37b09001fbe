package webhooks

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

func (m *Model) notes() []string {
	if len(m.marked) > 0 {
		return []string{fmt.Sprintf("%d selected", len(m.marked))}
	}
	return nil
}

func (m *Model) countText() string { return m.list.Count(m.notes()...) }

func (m *Model) filterText() string {
	var parts []string
	if m.unacked {
		parts = append(parts, "unacknowledged only")
	}
	if s := m.bar.Summary(); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "all attempts (u: unacknowledged only, f: filters)"
	}
	return "filters: " + strings.Join(parts, " ")
}

// hookHeader is what sits between the count line and the last error: the
// registered webhooks, in full when there is room, else in one line.
func (m *Model) hookHeader(w, h int) []string {
	switch {
	case h >= 14:
		return m.hookLines()
	case h >= 6:
		return []string{m.s.Styles().Muted.Render(ui.Truncate(m.hookSummary(), w))}
	}
	return nil
}

func (m *Model) hookSummary() string {
	switch {
	case m.hooksErr != nil:
		return "registered webhooks: " + ui.ErrorText(m.hooksErr)
	case !m.hooksLoaded:
		return "registered webhooks: loading…"
	case len(m.hooks) == 0:
		return "no webhooks registered for " + m.s.AccountName()
	}
	urls := make([]string, len(m.hooks))
	for i, h := range m.hooks {
		urls[i] = h.URL
	}
	return fmt.Sprintf("%d webhook(s) registered: %s", len(m.hooks), strings.Join(urls, ", "))
}

func (m *Model) hookLines() []string {
	th := m.s.Styles()
	if m.hooksErr != nil || !m.hooksLoaded || len(m.hooks) == 0 {
		return []string{th.Muted.Render(ui.Truncate(m.hookSummary(), m.width))}
	}
	lines := []string{th.Title.Render(fmt.Sprintf("Registered webhooks (%d of at most 3)", len(m.hooks)))}
	for _, h := range m.hooks {
		subs := strings.Join(h.Subscriptions, ", ")
		lines = append(lines, ui.Truncate("  ● "+h.URL+"  "+th.Muted.Render("["+subs+"]  "+h.ID), m.width))
	}
	return lines
}

// View implements ui.Screen.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.edit != nil {
		return ui.Fit(m.edit.form.View(), m.width, m.height)
	}
	var body string
	if m.tab == 1 {
		body = m.events.Frame(m.width, m.bodyHeight(), "", m.events.Count(), m.eventsView)
	} else {
		body = m.list.Frame(m.width, m.bodyHeight(), "Filter delivery attempts (sent to the service)", m.countText(), func() string {
			if m.detail != nil {
				return m.detailView()
			}
			return m.list.View(m.filterText(), m.notes()...)
		})
	}
	return ui.Fit(m.tabsLine()+"\n"+body, m.width, m.height)
}

func (m *Model) detailView() string {
	th := m.s.Styles()
	d := m.detail
	lines := []string{th.Title.Render("Delivery attempt " + d.id)}
	if d.err != nil {
		lines = append(lines, th.Error.Render("✗ "+ui.ErrorText(d.err)))
	}
	if d.attempt == nil {
		if d.loading {
			lines = append(lines, th.Muted.Render("loading attempt…"))
		}
		return strings.Join(lines, "\n")
	}
	body := attemptLines(d.attempt, m)
	if d.loading {
		body = append(body, "", th.Muted.Render("refreshing from the service…"))
	}
	lines = append(lines, d.Window(body, m.bodyHeight()-len(lines))...)
	return strings.Join(lines, "\n")
}

// attemptLines renders every field of an attempt.
func attemptLines(a *api.WebhookAttempt, m *Model) []string {
	th := m.s.Styles()
	s := listing.NewSheet(th, m.width)
	s.LabelWidth = 18
	// Every field is shown, empty or not, as it came.
	kv := func(label, value string) { s.Styled(label, value, lipgloss.NewStyle()) }
	kv("Attempt ID", a.ID)
	kv("Webhook event", a.WebhookEventID)
	kv("Webhook URL", a.WebhookURL)
	status := fmt.Sprintf("%d", a.ResponseStatus)
	switch {
	case a.ResponseStatus == 0:
		status = th.Bad.Render("no response")
	case a.ResponseStatus >= 200 && a.ResponseStatus < 300:
		status = th.Good.Render(status + " delivered")
	default:
		status = th.Bad.Render(status + " refused by the receiver")
	}
	kv("Response", status)
	if a.Acknowledged {
		kv("Acknowledged", th.Good.Render("yes"))
	} else {
		hint := ""
		if m.s.Can(ui.ActWrite) == nil {
			hint = th.Muted.Render("  (a acknowledges it)")
		}
		kv("Acknowledged", th.Warn.Render("no")+hint)
	}
	loc := m.loc()
	kv("Created", stamp(a.CreatedAt, loc, "2006-01-02 15:04:05"))
	kv("Updated", stamp(a.UpdatedAt, loc, "2006-01-02 15:04:05"))
	kv("Account", a.AccountID)
	return s.Lines
}
