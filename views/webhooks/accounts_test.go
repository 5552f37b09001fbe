package webhooks

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// TestWebhooksDropAnotherAccountsAnswers: the screen of account A asks for
// its attempts, its webhooks and an attempt's detail, and acknowledges one;
// the root rebuilds the screen for account B, which asks for its own
// detail. A's late answers, delivered straight to B's screen, change
// nothing there; B's own answer is still taken.
func TestWebhooksDropAnotherAccountsAnswers(t *testing.T) {
	svcA := &fakeService{attempts: makeAttempts(4), hooks: []api.Webhook{{ID: "wh-a", URL: "https://a.example/hook"}}}
	for i := range svcA.attempts {
		svcA.attempts[i].WebhookURL = "https://a.example/hook"
	}
	a := session(t, svcA, false)
	ma := New(a, svcA).(*Model)
	ma.SetSize(100, 30)
	fromA := []tea.Cmd{ma.Init(), ma.openDetail(svcA.attempts[0].ID), ma.acknowledge([]string{svcA.attempts[1].ID})}

	svcB := &fakeService{attempts: makeAttempts(2), hooks: []api.Webhook{{ID: "wh-b", URL: "https://erp.example/hooks/b"}}}
	b := staletest.OtherAccount(a)
	mb := start(t, svcB, b, 100, 30)
	_, detailB := mb.Update(fakeservice.KeyPress("enter"))
	staletest.AnotherAccount{FromA: fromA, B: driver(t, mb), Own: detailB,
		Held: func() string { return fmt.Sprintf("%d rows", mb.list.Len()) },
		Then: func(t *testing.T, d *screentest.Driver) {
			if mb.detail.loading || mb.detail.attempt == nil || mb.detail.attempt.ID != svcB.attempts[0].ID {
				t.Fatalf("B's own detail was not taken: %+v", mb.detail)
			}
			d.Key("esc")
			if v := d.PlainView(); strings.Contains(v, "a.example") || !strings.Contains(v, "erp.example/hooks/b") {
				t.Fatalf("B's list:\n%s", v)
			}
		}}.Check(t)
}

// TestWebhooksDropAnOlderDetail: a detail opened, left and opened on
// another attempt: the first answer, late, must not fill the second pane.
func TestWebhooksDropAnOlderDetail(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(3)}
	m := start(t, svc, session(t, svc, false), 100, 30)
	_, first := m.Update(fakeservice.KeyPress("enter"))
	late := first()
	press(t, m, "esc", "j", "enter")
	d := driver(t, m)
	d.Send(late)
	if m.detail.attempt == nil || m.detail.attempt.ID != svc.attempts[1].ID {
		t.Fatalf("the first detail's answer filled the second pane: %+v", m.detail.attempt)
	}
}
