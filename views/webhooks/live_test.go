package webhooks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

func TestEventsTabPagesToTheEndAndNarrowsByKind(t *testing.T) {
	svc := &fakeService{events: makeEvents(60)} // 60 TICKET + 20 KYC
	s := session(t, svc, false)
	m := start(t, svc, s, 120, 30)
	if len(svc.eventQs) != 0 {
		t.Fatal("events were asked for before their tab was shown")
	}
	press(t, m, "right")
	v := view(m)
	if !strings.Contains(v, "[Events]") || !strings.Contains(v, "50 loaded · more available") || !strings.Contains(v, "ev-000") {
		t.Fatalf("the events tab:\n%s", v)
	}
	if q := svc.eventQs[0]; q.SubAccountID != s.Account.ID || q.Cursor != "" || q.Subscription != "" {
		t.Fatalf("first query %+v", q)
	}
	press(t, m, "G") // the next page comes as the cursor nears the end
	if v := view(m); !strings.Contains(v, "all 80 loaded") {
		t.Fatalf("paging:\n%s", v)
	}
	press(t, m, "G")
	if v := view(m); !strings.Contains(v, "kyc-019") {
		t.Fatalf("paging to the end:\n%s", v)
	}
	if len(svc.eventQs) != 2 || svc.eventQs[1].Cursor != "50" {
		t.Fatalf("queries %+v", svc.eventQs)
	}
	press(t, m, "s", "s") // TICKET, then KYC
	if q := svc.eventQs[len(svc.eventQs)-1]; q.Subscription != "KYC" {
		t.Fatalf("s did not narrow to KYC: %+v", q)
	}
	v = view(m)
	if !strings.Contains(v, "all 20 loaded") || !strings.Contains(v, "kind: KYC") || strings.Contains(v, "ev-000") {
		t.Fatalf("KYC only:\n%s", v)
	}
	press(t, m, "enter")
	if v := view(m); !strings.Contains(v, "Webhook event kyc-000") || !strings.Contains(v, "data.attemptId") || !strings.Contains(v, "att-0") {
		t.Fatalf("event detail:\n%s", v)
	}
	press(t, m, "esc", "left")
	if v := view(m); !strings.Contains(v, "[Delivery attempts]") {
		t.Fatalf("← did not go back to the attempts:\n%s", v)
	}
}

func TestEventsDropAnOlderLoad(t *testing.T) {
	svc := &fakeService{events: makeEvents(3)}
	m := start(t, svc, session(t, svc, false), 100, 30)
	press(t, m, "right")
	d := driver(t, m)
	staletest.Refresh(d, func() {
		svc.events = []api.WebhookEvent{{ID: "ev-new", Subscription: "KYC", CreatedAt: api.NewTime(now)}}
	}, "ev-new", "ev-000").Check(t)
}

var hook = api.Webhook{ID: "0b6d6c1e-1111-4c8e-9a51-0d5e6f7a8b9c", URL: "https://erp.example/hooks/tesouro", Subscriptions: []string{"TICKET"}}

func TestEditWebhookIsConfirmedThenSentAndJournaled(t *testing.T) {
	svc := &fakeService{hooks: []api.Webhook{hook}}
	s := session(t, svc, false)
	m := start(t, svc, s, 100, 30)
	press(t, m, "e")
	if m.edit == nil {
		t.Fatal("e did not open the edit form")
	}
	f := m.edit.form
	if f.Value(fURL) != hook.URL || f.Value("TICKET") != "yes" || f.Value("KYC") != "no" || f.Value(fAll) != "no" {
		t.Fatalf("not prefilled: url %q TICKET %q KYC %q", f.Value(fURL), f.Value("TICKET"), f.Value("KYC"))
	}
	if v := view(m); !strings.Contains(v, "Edit webhook") || !strings.Contains(v, hook.URL) {
		t.Fatalf("the form:\n%s", v)
	}
	// Nothing changed: said, nothing asked.
	if msgs := press(t, m, "ctrl+s"); len(msgs) != 0 || !strings.Contains(f.FormError(), "nothing changed") {
		t.Fatalf("unchanged: %v %q", msgs, f.FormError())
	}
	// A plain http URL elsewhere than this machine is refused on its field.
	f.SetValue(fURL, "http://erp.example/hooks/v2")
	press(t, m, "ctrl+s")
	if f.FocusedKey() != fURL || !strings.Contains(f.Error(fURL), "use https") {
		t.Fatalf("http: focus %q error %q", f.FocusedKey(), f.Error(fURL))
	}
	f.SetValue(fURL, "https://erp.example/hooks/v2")
	f.SetValue("KYC", "yes")
	msgs := press(t, m, "ctrl+s")
	if len(msgs) != 1 {
		t.Fatalf("want one confirmation, got %v", msgs)
	}
	c := msgs[0].(ui.ConfirmMsg)
	for _, want := range []string{hook.ID, hook.URL, "https://erp.example/hooks/v2", "TICKET → TICKET, KYC", "Main"} {
		if !strings.Contains(c.Title+c.Body, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, c.Body)
		}
	}
	if len(svc.updates) != 0 {
		t.Fatal("sent before the confirmation")
	}
	msgs = run(t, m, c.OnYes)
	want := api.UpdateWebhookRequest{WebhookID: hook.ID, WebhookURL: "https://erp.example/hooks/v2", Subscriptions: []string{"TICKET", "KYC"}}
	if len(svc.updates) != 1 || fmt.Sprint(svc.updates[0]) != fmt.Sprint(want) {
		t.Fatalf("sent %+v", svc.updates)
	}
	if m.edit != nil || len(msgs) == 0 || !strings.Contains(msgs[0].(ui.ToastMsg).Text, "now sends TICKET, KYC to https://erp.example/hooks/v2") {
		t.Fatalf("after the change: form open %v, msgs %v", m.edit != nil, msgs)
	}
	if v := view(m); !strings.Contains(v, "https://erp.example/hooks/v2") || !strings.Contains(v, "[TICKET, KYC]") {
		t.Fatalf("the webhooks were not loaded again:\n%s", v)
	}
	entries, err := journal.ReadFile(filepath.Join(filepath.Dir(s.Journal.Path()), journal.FileName))
	if err != nil || len(entries) != 1 || entries[0].Action != "update-webhook" || entries[0].Outcome != "updated" || entries[0].IDs["webhook"] != hook.ID {
		t.Fatalf("journal: %+v %v", entries, err)
	}
}

func TestEditWebhookRefusalLandsOnTheURL(t *testing.T) {
	svc := &fakeService{hooks: []api.Webhook{hook}, updateErr: &api.Error{Status: 400, Code: "INVALID_FIELD",
		Message: "webhookUrl: the receiver answered 404 to the verification", Method: "PATCH", Path: "/v2/notifications/webhooks"}}
	m := start(t, svc, session(t, svc, false), 100, 30)
	press(t, m, "e")
	f := m.edit.form
	f.SetValue(fURL, "https://erp.example/missing")
	msgs := press(t, m, "ctrl+s")
	run(t, m, msgs[0].(ui.ConfirmMsg).OnYes)
	if m.edit == nil || f.Sending() || f.FocusedKey() != fURL || !strings.Contains(f.Error(fURL), "answered 404") {
		t.Fatalf("refusal: open %v focus %q error %q", m.edit != nil, f.FocusedKey(), f.Error(fURL))
	}
	if v := view(m); !strings.Contains(v, "answered 404") {
		t.Fatalf("not on screen:\n%s", v)
	}
}

func TestEditChoosesAmongSeveralWebhooks(t *testing.T) {
	second := api.Webhook{ID: "wh-2", URL: "https://b.example/h", Subscriptions: []string{"*"}}
	svc := &fakeService{hooks: []api.Webhook{hook, second}}
	m := start(t, svc, session(t, svc, false), 100, 30)
	press(t, m, "e")
	f := m.edit.form
	if f.FocusedKey() != fWebhook || f.Value(fURL) != hook.URL {
		t.Fatalf("focus %q url %q", f.FocusedKey(), f.Value(fURL))
	}
	press(t, m, "right")
	if f.Value(fURL) != second.URL || f.Value(fAll) != "yes" || f.Visible("TICKET") {
		t.Fatalf("the second webhook was not filled in: url %q all %q", f.Value(fURL), f.Value(fAll))
	}
	press(t, m, "tab", "tab", "left") // all events: no
	f.SetValue("LIMIT-UPDATE", "yes")
	msgs := press(t, m, "ctrl+s")
	run(t, m, msgs[0].(ui.ConfirmMsg).OnYes)
	if len(svc.updates) != 1 || svc.updates[0].WebhookID != "wh-2" || fmt.Sprint(svc.updates[0].Subscriptions) != "[LIMIT-UPDATE]" {
		t.Fatalf("sent %+v", svc.updates)
	}
}

// TestEditYesToAnEarlierChangeIsDropped: the operator answered no and
// changed the URL again; the first question's yes, late, sends nothing,
// and ctrl+s asks about the change the form holds.
func TestEditYesToAnEarlierChangeIsDropped(t *testing.T) {
	svc := &fakeService{hooks: []api.Webhook{hook}}
	m := start(t, svc, session(t, svc, false), 100, 30)
	press(t, m, "e")
	m.edit.form.SetValue(fURL, "https://a.example/first")
	msgs := press(t, m, "ctrl+s")
	yes := msgs[0].(ui.ConfirmMsg).OnYes
	press(t, m, "x")
	run(t, m, yes)
	if len(svc.updates) != 0 || m.edit.form.Sending() {
		t.Fatalf("the yes to an earlier change sent %+v", svc.updates)
	}
	msgs = press(t, m, "ctrl+s")
	run(t, m, msgs[0].(ui.ConfirmMsg).OnYes)
	if len(svc.updates) != 1 || svc.updates[0].WebhookURL != "https://a.example/firstx" {
		t.Fatalf("sent %+v, want the change the form holds", svc.updates)
	}
}

func TestEditHiddenWhenReadOnly(t *testing.T) {
	svc := &fakeService{hooks: []api.Webhook{hook}}
	m := start(t, svc, session(t, svc, true), 100, 30)
	for _, b := range m.KeyMap() {
		if b.Help().Desc == "edit webhook" && b.Enabled() {
			t.Fatal("edit offered to a read-only session")
		}
	}
	press(t, m, "e")
	if m.edit != nil {
		t.Fatal("e opened the form in a read-only session")
	}
}

// TestWebhooksDropAnotherAccountsEventsAndEdit: account A's events page and
// its confirmed edit, delivered to the screen rebuilt for B (its events
// tab open, its own page on its way), change nothing there.
func TestWebhooksDropAnotherAccountsEventsAndEdit(t *testing.T) {
	svcA := &fakeService{events: []api.WebhookEvent{{ID: "a-event", Subscription: "TICKET", CreatedAt: api.NewTime(now)}}, hooks: []api.Webhook{hook}}
	a := session(t, svcA, false)
	ma := start(t, svcA, a, 100, 30)
	_, eventsA := ma.Update(fakeservice.KeyPress("right"))
	press(t, ma, "e")
	ma.edit.form.SetValue(fURL, "https://a.example/changed")
	msgs := press(t, ma, "ctrl+s")
	yesA := msgs[0].(ui.ConfirmMsg).OnYes

	svcB := &fakeService{events: []api.WebhookEvent{{ID: "b-event", Subscription: "KYC", CreatedAt: api.NewTime(now)}},
		hooks: []api.Webhook{{ID: "wh-b", URL: "https://b.example/h", Subscriptions: []string{"KYC"}}}}
	b := staletest.OtherAccount(a)
	mb := start(t, svcB, b, 100, 30)
	_, own := mb.Update(fakeservice.KeyPress("right"))
	staletest.AnotherAccount{FromA: []tea.Cmd{eventsA, yesA}, B: driver(t, mb), Own: own,
		Held: func() string { return fmt.Sprintf("%d events, %d updates", mb.events.Len(), len(svcB.updates)) },
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); !strings.Contains(v, "b-event") || strings.Contains(v, "a-event") {
				t.Fatalf("B's events:\n%s", v)
			}
			if len(svcB.updates) != 0 {
				t.Fatalf("A's yes sent a change for B: %+v", svcB.updates)
			}
		}}.Check(t)
}

// Editing a webhook needs the manageWebhooks permission: an access that
// may write but lacks it is told why and gets no form.
func TestEditWebhookNeedsManageWebhooks(t *testing.T) {
	svc := &fakeService{hooks: []api.Webhook{hook}}
	s := session(t, svc, false)
	s.Access.AccountPermissions.ManageWebhooks = false
	m := start(t, svc, s, 100, 30)
	m.syncKeys()
	if m.keys.Edit.Enabled() {
		t.Error("the edit key is offered to an access without manageWebhooks")
	}
	cmd := m.openEdit()
	if m.edit != nil {
		t.Fatal("the edit form opened without manageWebhooks")
	}
	if msgs := run(t, m, cmd); len(msgs) == 0 || !strings.Contains(fmt.Sprint(msgs), "manageWebhooks") {
		t.Errorf("no toast naming the permission: %v", msgs)
	}
}
