package sandbox

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// Webhooks as the service scopes them (issue 27, item 2), over HTTP. The
// demo `restricted` access is barred from Acme Sul; it is given
// manageWebhooks here (the demo gives it only to the operator's kind), so
// that what a webhook of a barred access hears can be seen.

// hookSink is an endpoint that records the deliveries it receives.
type hookSink struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []*api.WebhookEvent
	at  chan struct{}
}

func newHookSink(t *testing.T) *hookSink {
	h := &hookSink{at: make(chan struct{}, 100)}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ev, err := api.ReadDelivery(b)
		if err != nil {
			t.Errorf("delivery %s: %v", b, err)
			return
		}
		h.mu.Lock()
		h.got = append(h.got, ev)
		h.mu.Unlock()
		select {
		case h.at <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// waitFor waits until a delivery about subject has come, and returns all
// received so far.
func (h *hookSink) waitFor(t *testing.T, subject string) []*api.WebhookEvent {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		h.mu.Lock()
		got := append([]*api.WebhookEvent(nil), h.got...)
		h.mu.Unlock()
		for _, ev := range got {
			if ev.Subject() == subject {
				return got
			}
		}
		select {
		case <-h.at:
		case <-deadline:
			t.Fatalf("no delivery about %s within 10 s (got %d)", subject, len(got))
		}
	}
}

func subNamed(t *testing.T, r *Running, name string) string {
	t.Helper()
	for _, a := range r.Server.eng.SubAccounts() {
		if a.Name == name {
			return a.ID.String()
		}
	}
	t.Fatalf("no sub-account %q", name)
	return ""
}

// pixTicket has c create a PIX pay-in ticket in the sub-account and
// returns its id.
func pixTicket(c *rawClient, sub string) string {
	var q struct{ QuoteToken string }
	c.json(http.MethodGet, "/v2/account/quote/fixed-rate?inputThirdParty=false&outputThirdParty=false&inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=BRLA&outputPaymentMethod=INTERNAL&inputAmount=20&subAccountId="+sub, nil, 200, &q)
	var tk struct{ ID string }
	c.json(http.MethodPost, "/v2/account/tickets/?subAccountId="+sub, map[string]string{"quoteToken": q.QuoteToken}, 201, &tk)
	return tk.ID
}

func grantWebhooks(r *Running, name string) {
	a := r.Server.access(name)
	r.Server.eng.Edit(func() { a.Perms.ManageWebhooks = true })
}

// A `*` webhook of an access barred from Acme Sul never carries Acme
// Sul's events, and the events that access lists and reads leave them
// out; the operator's carry and list both.
func TestWebhookOfABarredAccessHearsOnlyWhatItMaySee(t *testing.T) {
	r := startTest(t, Config{Seed: 27})
	grantWebhooks(r, "restricted")
	op, rs := r.client(t, "operator"), r.client(t, "restricted")
	sul, pay := subNamed(t, r, "Acme Sul"), subNamed(t, r, "Acme Payments")
	mine, theirs := newHookSink(t), newHookSink(t)
	rs.json(http.MethodPost, "/v2/notifications/webhooks/", map[string]any{"webhookUrl": mine.srv.URL + "/restricted", "subscriptions": []string{"*"}}, 200, nil)
	op.json(http.MethodPost, "/v2/notifications/webhooks/", map[string]any{"webhookUrl": theirs.srv.URL + "/operator", "subscriptions": []string{"*"}}, 200, nil)

	barred := pixTicket(op, sul)
	visible := pixTicket(op, pay)
	// The operator's webhook hears both; the restricted one the visible
	// ticket — and, once that has come, it has had nothing of Acme Sul
	// (each endpoint's deliveries go out in order, the barred ticket's
	// first).
	theirs.waitFor(t, barred)
	for _, ev := range mine.waitFor(t, visible) {
		if ev.Subject() == barred || ev.SubAccountID == sul {
			t.Errorf("the restricted access's webhook received Acme Sul's event %s %s", ev.Type(), ev.ID)
		}
	}

	// The events list: the operator's (no subAccountId) holds both
	// sub-accounts' events; subAccountId filters to one.
	events := func(c *rawClient, query string) []api.WebhookEvent {
		var p struct{ Events []api.WebhookEvent }
		c.json(http.MethodGet, "/v2/notifications/webhooks/events?subscription=TICKET&"+query, nil, 200, &p)
		return p.Events
	}
	subjects := func(evs []api.WebhookEvent) map[string]string {
		out := map[string]string{}
		for _, e := range evs {
			out[e.Subject()] = e.ID
		}
		return out
	}
	all := subjects(events(op, ""))
	if all[barred] == "" || all[visible] == "" {
		t.Fatalf("the operator's event list lacks a sub-account's ticket: %v", all)
	}
	if only := subjects(events(op, "subAccountId="+pay)); only[barred] != "" || only[visible] == "" {
		t.Errorf("subAccountId=%s does not filter: %v", pay, only)
	}
	if got := subjects(events(rs, "")); got[barred] != "" || got[visible] == "" {
		t.Errorf("the restricted access lists %v; want Acme Payments' ticket and not Acme Sul's", got)
	}
	if msg := rs.wantError(http.MethodGet, "/v2/notifications/webhooks/events?subAccountId="+sul, nil, 403, engine.CodeBlacklisted); strings.Contains(msg, "Acme Sul") {
		t.Errorf("the refusal names the barred sub-account: %q", msg)
	}
	rs.wantError(http.MethodGet, "/v2/notifications/webhooks/events/"+all[barred], nil, 404, engine.CodeNotFound)
	var one struct{ Event api.WebhookEvent }
	rs.json(http.MethodGet, "/v2/notifications/webhooks/events/"+all[visible], nil, 200, &one)
	op.json(http.MethodGet, "/v2/notifications/webhooks/events/"+all[barred], nil, 200, &one)
	if one.Event.SubAccountID != sul || one.Event.Subject() != barred || one.Event.Type() != "TICKET-CREATED" {
		t.Errorf("event by id %+v", one.Event)
	}

	// The delivery attempts of Acme Sul's event (the operator's webhook's)
	// are the operator's to see, not the restricted access's.
	attempts := func(c *rawClient, event string) []api.WebhookAttempt {
		var p struct{ Attempts []api.WebhookAttempt }
		c.json(http.MethodGet, "/v2/notifications/webhooks/attempts?webhookEventId="+event, nil, 200, &p)
		return p.Attempts
	}
	seen := attempts(op, all[barred])
	if len(seen) == 0 {
		t.Fatalf("no attempt of Acme Sul's event %s for the operator", all[barred])
	}
	if got := attempts(rs, all[barred]); len(got) != 0 {
		t.Errorf("the restricted access lists %d attempts of Acme Sul's event", len(got))
	}
	if got := attempts(rs, all[visible]); len(got) == 0 {
		t.Error("the restricted access lists no attempt of Acme Payments' event")
	}
	rs.wantError(http.MethodGet, "/v2/notifications/webhooks/attempts/"+seen[0].ID, nil, 404, engine.CodeNotFound)
	rs.wantError(http.MethodPatch, "/v2/notifications/webhooks/attempts", map[string]any{"ids": []string{seen[0].ID}}, 404, engine.CodeNotFound)
	op.json(http.MethodGet, "/v2/notifications/webhooks/attempts/"+seen[0].ID, nil, 200, nil)
}

// A webhook is changed or deleted only by the access that registered it;
// the demo's own webhook (no owner, hearing every account) only by an
// access barred from none.
func TestWebhookIsChangedOnlyByItsOwner(t *testing.T) {
	r := startTest(t, Config{Seed: 27})
	grantWebhooks(r, "restricted")
	op, rs := r.client(t, "operator"), r.client(t, "restricted")
	var reg struct{ WebhookID string }
	op.json(http.MethodPost, "/v2/notifications/webhooks/", map[string]any{"webhookUrl": "https://erp.example/hooks", "subscriptions": []string{"TICKET"}}, 200, &reg)
	var list struct{ Webhooks []api.Webhook }
	op.json(http.MethodGet, "/v2/notifications/webhooks/", nil, 200, &list)
	var demo string
	for _, w := range list.Webhooks {
		if strings.HasSuffix(w.URL, engine.ReceiverPath) {
			demo = w.ID
		}
	}
	if demo == "" {
		t.Fatalf("no demo webhook in %+v", list.Webhooks)
	}
	repoint := func(id string) map[string]any {
		return map[string]any{"webhookId": id, "webhookUrl": "https://attacker.example/x", "subscriptions": []string{"*"}}
	}
	for _, id := range []string{reg.WebhookID, demo} {
		msg := rs.wantError(http.MethodPatch, "/v2/notifications/webhooks", repoint(id), 403, engine.CodeNotWebhookOwner)
		if !strings.Contains(msg, "another access") {
			t.Errorf("refusal %q does not say why", msg)
		}
		rs.wantError(http.MethodDelete, "/v2/notifications/webhooks/"+url.PathEscape(id), nil, 403, engine.CodeNotWebhookOwner)
	}
	op.json(http.MethodGet, "/v2/notifications/webhooks/", nil, 200, &list)
	for _, w := range list.Webhooks {
		if w.URL == "https://attacker.example/x" {
			t.Errorf("webhook %s was repointed", w.ID)
		}
	}
	if len(list.Webhooks) != 2 {
		t.Errorf("%d webhooks after refused deletes, want 2", len(list.Webhooks))
	}
	// Its owner may; the operator (barred from nothing) may change the demo's.
	op.json(http.MethodPatch, "/v2/notifications/webhooks", map[string]any{"webhookId": reg.WebhookID, "webhookUrl": "https://erp.example/v2", "subscriptions": []string{"TICKET"}}, 200, nil)
	op.json(http.MethodPatch, "/v2/notifications/webhooks", map[string]any{"webhookId": demo, "webhookUrl": r.BaseURL + engine.ReceiverPath, "subscriptions": []string{"TICKET", "KYC"}}, 200, nil)
	var own struct{ WebhookID string }
	rs.json(http.MethodPost, "/v2/notifications/webhooks/", map[string]any{"webhookUrl": "https://restricted.example/hooks", "subscriptions": []string{"TICKET"}}, 200, &own)
	op.wantError(http.MethodDelete, "/v2/notifications/webhooks/"+own.WebhookID, nil, 403, engine.CodeNotWebhookOwner)
	rs.json(http.MethodDelete, "/v2/notifications/webhooks/"+own.WebhookID, nil, 200, nil)
}

// Managing webhooks needs manageWebhooks: the demo `restricted` access
// (convert only) and the view-only one are refused, naming it or the
// view-only rule.
func TestManagingWebhooksNeedsThePermission(t *testing.T) {
	r := startTest(t, Config{Seed: 27})
	body := map[string]any{"webhookUrl": "https://erp.example/hooks", "subscriptions": []string{"*"}}
	msg := r.client(t, "restricted").wantError(http.MethodPost, "/v2/notifications/webhooks/", body, 403, engine.CodeForbidden)
	if !strings.Contains(msg, "manageWebhooks") {
		t.Errorf("refusal %q does not name the permission", msg)
	}
	r.client(t, "viewer").wantError(http.MethodPost, "/v2/notifications/webhooks/", body, 403, engine.CodeForbidden)
	var info api.AccessInfo
	r.client(t, "operator").json(http.MethodGet, "/v2/account/access-info", nil, 200, &info)
	if !info.AccountPermissions.ManageWebhooks {
		t.Error("the operator's access-info lacks manageWebhooks")
	}
	r.client(t, "operator").json(http.MethodPost, "/v2/notifications/webhooks/", body, 200, nil)
}

// GET /v2/account/sub-accounts hides a sub-account the access is barred
// from, as /v2/accounts does.
func TestSubAccountListHidesBarredSubAccounts(t *testing.T) {
	r := startTest(t, Config{Seed: 27})
	names := func(who string) map[string]bool {
		var p struct {
			SubAccount []struct{ AccountInfo struct{ Name string } }
		}
		r.client(t, who).json(http.MethodGet, "/v2/account/sub-accounts", nil, 200, &p)
		out := map[string]bool{}
		for _, s := range p.SubAccount {
			out[s.AccountInfo.Name] = true
		}
		var accts struct{ Accounts []struct{ Name string } }
		r.client(t, who).json(http.MethodGet, "/v2/accounts", nil, 200, &accts)
		for _, a := range accts.Accounts {
			if a.Name != "Acme Treasury Ltda" && !out[a.Name] {
				t.Errorf("%s: /v2/accounts lists %s, /v2/account/sub-accounts does not", who, a.Name)
			}
		}
		return out
	}
	if op := names("operator"); !op["Acme Sul"] || !op["Acme Payments"] {
		t.Fatalf("operator's sub-accounts %v", op)
	}
	if rs := names("restricted"); rs["Acme Sul"] || !rs["Acme Payments"] {
		t.Errorf("restricted's sub-accounts %v: Acme Sul must be hidden", rs)
	}
}

// An attempt read back from the state file still knows its event's
// account: the restricted access does not see Acme Sul's after a restart.
func TestBarredAttemptsStayHiddenAfterARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	r := startTest(t, Config{Seed: 27, StatePath: path})
	op := r.client(t, "operator")
	tk := pixTicket(op, subNamed(t, r, "Acme Sul"))
	var evs struct{ Events []api.WebhookEvent }
	op.json(http.MethodGet, "/v2/notifications/webhooks/events?dataId="+tk, nil, 200, &evs)
	if len(evs.Events) == 0 {
		t.Fatal("no event of the new ticket")
	}
	count := func(c *rawClient) int {
		var p struct{ Attempts []api.WebhookAttempt }
		c.json(http.MethodGet, "/v2/notifications/webhooks/attempts?webhookEventId="+evs.Events[0].ID, nil, 200, &p)
		return len(p.Attempts)
	}
	if count(op) == 0 {
		t.Fatal("the demo webhook made no attempt of Acme Sul's event")
	}
	r.Close()
	r = startTest(t, Config{Seed: 27, StatePath: path})
	if n := count(r.client(t, "operator")); n == 0 {
		t.Fatal("the attempt is gone after the restart")
	}
	if n := count(r.client(t, "restricted")); n != 0 {
		t.Errorf("after a restart the restricted access lists %d attempts of Acme Sul's event", n)
	}
}
