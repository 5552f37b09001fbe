package webhooks

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tesouro/api"
	"tesouro/ui"
)

func (m *Model) countText() string {
	n := len(m.attempts)
	var s string
	switch {
	case !m.started || (m.loading && n == 0):
		s = "loading attempts…"
	case m.loading:
		s = fmt.Sprintf("%d loaded · loading more…", n)
	case m.more:
		s = fmt.Sprintf("%d loaded · more available", n)
	default:
		s = fmt.Sprintf("all %d loaded", n)
	}
	if len(m.marked) > 0 {
		s += fmt.Sprintf(" · %d selected", len(m.marked))
	}
	if q := m.table.Filter(); q != "" {
		s += fmt.Sprintf(" · %d match /%s", m.table.Visible(), q)
	}
	return s
}

func (m *Model) filterText() string {
	var parts []string
	if m.applied.UnackedOnly {
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

// header is what sits above the attempts: the count and filters, the
// registered webhooks (in full when there is room, else in one line), and
// the last error.
func (m *Model) header() []string {
	w, h := m.width, m.height
	if h <= 0 {
		return nil
	}
	th := m.s.Styles()
	count := m.countText()
	lines := []string{ui.Spread(th.Value.Render(count), th.Muted.Render(ui.Truncate(m.filterText(), max(w-lipgloss.Width(count)-2, 0))), w)}
	switch {
	case h >= 14:
		lines = append(lines, m.hookLines()...)
	case h >= 6:
		lines = append(lines, th.Muted.Render(ui.Truncate(m.hookSummary(), w)))
	}
	if m.err != nil && h >= 6 {
		lines = append(lines, th.Error.Render(ui.Truncate("✗ "+m.err.Error()+" — press r to retry", w)))
	}
	return lines[:min(len(lines), max(h-1, 1))]
}

func (m *Model) hookSummary() string {
	switch {
	case m.hooksErr != nil:
		return "registered webhooks: " + m.hooksErr.Error()
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
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	th := m.s.Styles()
	var b strings.Builder
	switch {
	case m.bar.Active():
		b.WriteString(ui.Spread(th.Title.Render("Filter delivery attempts (sent to the service)"), th.Muted.Render(m.countText()), w))
		b.WriteString("\n")
		b.WriteString(m.bar.View(h - 1))
	case m.detail != nil:
		b.WriteString(m.detailView())
	default:
		hd := m.header()
		b.WriteString(strings.Join(hd, "\n"))
		if h > len(hd) {
			b.WriteString("\n" + m.table.View())
		}
	}
	return ui.Fit(b.String(), w, h)
}

func (m *Model) detailView() string {
	th := m.s.Styles()
	d := m.detail
	lines := []string{th.Title.Render("Delivery attempt " + d.id)}
	if d.err != nil {
		lines = append(lines, th.Error.Render("✗ "+d.err.Error()))
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
	room := max(m.height-len(lines), 0)
	d.offset = max(min(d.offset, len(body)-room), 0)
	lines = append(lines, body[d.offset:min(d.offset+room, len(body))]...)
	return strings.Join(lines, "\n")
}

// attemptLines renders every field of an attempt.
func attemptLines(a *api.WebhookAttempt, m *Model) []string {
	th := m.s.Styles()
	lw := min(18, max(m.width/3, 8))
	var lines []string
	kv := func(label, value string) {
		l := ui.Truncate(label, lw)
		pad := strings.Repeat(" ", lw-lipgloss.Width(l))
		for i, part := range strings.Split(ansi.Hardwrap(value, max(m.width-lw-3, 8), true), "\n") {
			if i == 0 {
				lines = append(lines, "  "+th.Label.Render(l)+pad+" "+part)
			} else {
				lines = append(lines, "  "+strings.Repeat(" ", lw)+" "+part)
			}
		}
	}
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
	return lines
}
