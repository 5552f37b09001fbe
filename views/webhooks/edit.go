package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Editing a registered webhook (PATCH /v2/notifications/webhooks): its URL
// and the kinds of events it receives, in a form prefilled from the
// webhook, sent only after a confirmation that repeats what changes.

type (
	// editOKMsg is the operator's yes to the change shown.
	editOKMsg = ui.Result[api.UpdateWebhookRequest]
	// editedMsg is the service's answer to the change.
	editedMsg = ui.Result[edited]
)

type edited struct {
	req  api.UpdateWebhookRequest
	jerr error
}

const (
	fWebhook = "webhook"
	fURL     = "webhookUrl"
	fAll     = "all"
)

// editor is the open edit form and the webhook it edits.
type editor struct {
	form  *form.Form
	hooks []api.Webhook
	// shown is the webhook the fields were filled from.
	shown string
	// slot awaits the operator's yes to the change shown, then the
	// service's answer to it; a change of the form drops the yes.
	slot ui.Slot
}

// checkURL accepts an absolute https URL (http only on the loopback, for
// a receiver on this machine), as the service does.
var checkURL form.Check = func(v string, _ func(string) string) (string, string, error) {
	u, err := url.Parse(v)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return "", "", errors.New("type an absolute URL: https://host/path")
	case u.Scheme == "http" && !loopback(u.Hostname()):
		return "", "", errors.New("plain http is accepted for this machine only (localhost): use https")
	}
	return u.String(), "", nil
}

func loopback(host string) bool {
	return host == "localhost" || host == "::1" || strings.HasPrefix(host, "127.")
}

// hookLabel names a webhook in the form's choice.
func hookLabel(i int, h api.Webhook) string { return fmt.Sprintf("%d %s", i+1, h.URL) }

func (m *Model) newEditor() *editor {
	e := &editor{hooks: slices.Clone(m.hooks)}
	var fields []form.Field
	if len(e.hooks) > 1 {
		labels := make([]string, len(e.hooks))
		for i, h := range e.hooks {
			labels[i] = hookLabel(i, h)
		}
		fields = append(fields, form.Field{Key: fWebhook, Label: "Webhook", Choices: labels})
	}
	notAll := func(v func(string) string) bool { return v(fAll) != "yes" }
	fields = append(fields,
		form.Field{Key: fURL, Label: "URL", Required: true, Check: checkURL, Placeholder: "https://erp.example/hooks/tesouro", CharLimit: 500},
		form.Field{Key: fAll, Label: "All events (*)", Choices: []string{"no", "yes"}})
	for _, s := range subscriptions {
		fields = append(fields, form.Field{Key: s, Label: s, Choices: []string{"no", "yes"}, Visible: notAll})
	}
	e.form = form.New("Edit webhook", fields...)
	e.form.AddRule(func(v func(string) string) (string, string) {
		if v(fAll) == "yes" {
			return "", ""
		}
		for _, s := range subscriptions {
			if v(s) == "yes" {
				return "", ""
			}
		}
		return subscriptions[0], "choose at least one kind of event (or all)"
	})
	e.fill()
	return e
}

// target is the webhook the form edits now.
func (e *editor) target() api.Webhook {
	if len(e.hooks) == 1 {
		return e.hooks[0]
	}
	for i, h := range e.hooks {
		if hookLabel(i, h) == e.form.Value(fWebhook) {
			return h
		}
	}
	return e.hooks[0]
}

// fill puts the chosen webhook's URL and subscriptions in the fields, once
// each time another webhook is chosen.
func (e *editor) fill() {
	h := e.target()
	if e.shown == h.ID {
		return
	}
	e.shown = h.ID
	e.form.SetValue(fURL, h.URL)
	all := slices.Contains(h.Subscriptions, "*")
	e.form.SetValue(fAll, yesNo(all))
	for _, s := range subscriptions {
		e.form.SetValue(s, yesNo(!all && slices.Contains(h.Subscriptions, s)))
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// request is the change the form holds.
func (e *editor) request() api.UpdateWebhookRequest {
	req := api.UpdateWebhookRequest{WebhookID: e.target().ID, WebhookURL: e.form.Normalized(fURL)}
	if e.form.Value(fAll) == "yes" {
		req.Subscriptions = []string{"*"}
		return req
	}
	for _, s := range subscriptions {
		if e.form.Value(s) == "yes" {
			req.Subscriptions = append(req.Subscriptions, s)
		}
	}
	return req
}

// openEdit opens the form on the registered webhooks.
func (m *Model) openEdit() tea.Cmd {
	if err := m.s.Can(ui.ActManageWebhooks); err != nil {
		return ui.Toast(ui.ToastError, "Cannot edit a webhook: "+ui.ErrorText(err))
	}
	if len(m.hooks) == 0 {
		return ui.Toast(ui.ToastInfo, "No webhook is registered in "+m.s.AccountName()+": there is nothing to edit")
	}
	m.edit = m.newEditor()
	m.edit.form.SetStyles(formStyles(m.s))
	m.edit.form.SetSize(m.width, m.height)
	return m.edit.form.Focus()
}

// editKey gives a key to the open form: esc leaves it, a checked form asks
// for a confirmation.
func (m *Model) editKey(msg tea.Msg) tea.Cmd {
	e := m.edit
	before := e.request()
	res, cmd := e.form.Update(msg)
	switch res {
	case form.Cancelled:
		m.edit = nil
		return nil
	case form.Submitted:
		return m.confirmEdit()
	}
	e.fill()
	if !e.form.Sending() && !sameRequest(before, e.request()) {
		e.slot.Cancel() // changed since the question: ctrl+s asks again
	}
	return cmd
}

func sameRequest(a, b api.UpdateWebhookRequest) bool {
	return a.WebhookID == b.WebhookID && a.WebhookURL == b.WebhookURL && slices.Equal(a.Subscriptions, b.Subscriptions)
}

// confirmEdit repeats what changes and where, and sends it on yes.
func (m *Model) confirmEdit() tea.Cmd {
	e := m.edit
	req, old := e.request(), e.target()
	if req.WebhookURL == old.URL && slices.Equal(req.Subscriptions, old.Subscriptions) {
		e.form.SetFormError("nothing changed: edit the URL or the events, or esc to leave")
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Webhook %s of %s\n", old.ID, m.s.AccountName())
	if req.WebhookURL != old.URL {
		fmt.Fprintf(&b, "URL:    %s\n     →  %s\n", old.URL, req.WebhookURL)
	} else {
		fmt.Fprintf(&b, "URL:    %s (unchanged)\n", old.URL)
	}
	fmt.Fprintf(&b, "Events: %s → %s", strings.Join(old.Subscriptions, ", "), strings.Join(req.Subscriptions, ", "))
	if req.WebhookURL != old.URL {
		b.WriteString("\nDeliveries from now on go to the new URL: check that it answers.")
	}
	yes, onYes := ui.Answer(m.s, req)
	e.slot.Await(yes)
	return ui.Confirm("Change this webhook?", b.String(), onYes)
}

// sendEdit sends the confirmed change, if the form still awaits the yes
// to it (it was neither changed nor closed since), and journals the
// outcome.
func (m *Model) sendEdit(msg editOKMsg) tea.Cmd {
	e := m.edit
	if e == nil || !e.slot.Take(msg) {
		return nil
	}
	req := msg.Value
	e.form.SetSending(true)
	s, svc, account := m.s, m.svc, m.s.Account.ID
	return ui.Fetch(s, &e.slot, 0, func(ctx context.Context) (edited, error) {
		err := svc.UpdateWebhook(ctx, req)
		outcome := "updated"
		if err != nil {
			outcome = "error: " + err.Error()
		}
		j := s.JournalEntry(account, "update-webhook", "PATCH /v2/notifications/webhooks")
		j.IDs, j.Outcome = map[string]string{"webhook": req.WebhookID, "url": req.WebhookURL}, outcome
		return edited{req: req, jerr: s.Journal.Record(j)}, err
	})
}

// onEdited closes the form on success (and loads the webhooks again), or
// puts the refusal on the field it names.
func (m *Model) onEdited(msg editedMsg) tea.Cmd {
	e := m.edit
	if e == nil || !e.slot.Take(msg) {
		return nil
	}
	if msg.Err != nil {
		e.form.SetSending(false)
		e.form.ApplyError(msg.Err)
		return nil
	}
	m.edit = nil
	req := msg.Value.req
	text := fmt.Sprintf("Webhook %s now sends %s to %s", req.WebhookID, strings.Join(req.Subscriptions, ", "), req.WebhookURL)
	cmds := []tea.Cmd{ui.Toast(ui.ToastSuccess, text), m.fetchHooks()}
	if msg.Value.jerr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal not written: "+ui.ErrorText(msg.Value.jerr)))
	}
	return tea.Batch(cmds...)
}

// formStyles are the theme's styles for the edit form.
func formStyles(s *ui.Session) form.Styles {
	t := s.Styles()
	return form.Styles{Title: t.Title, Label: t.Label, Focus: t.Value.Bold(true), Error: t.Error, Hint: t.Good, Choice: t.Selected, Footer: t.Muted}
}
