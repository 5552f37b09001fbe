package webhooks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

var now = time.Date(2026, 8, 20, 15, 0, 0, 0, time.UTC)

func makeAttempts(n int) []api.WebhookAttempt {
	out := make([]api.WebhookAttempt, n)
	for i := range out {
		st := 200
		if i%4 == 1 {
			st = 500
		}
		out[i] = api.WebhookAttempt{
			AccountID: "acct-1", Acknowledged: i%3 == 2, ID: uuid.NewString(), ResponseStatus: st,
			CreatedAt:      now.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339Nano),
			UpdatedAt:      now.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339Nano),
			WebhookEventID: fmt.Sprintf("evt-%03d", i/2), WebhookURL: "https://erp.example/hooks/tesouro",
		}
	}
	return out
}

func session(t *testing.T, _ Service, readOnly bool) *ui.Session {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &ui.Session{
		Time: screentest.NewClock(now), Account: ui.Account{ID: uuid.New(), Name: "Main"}, ReadOnly: readOnly, Journal: j, Profile: "demo", Env: ui.EnvSandbox,
		Access: &api.AccessInfo{Email: "op@example.com", AccountPermissions: api.Permissions{PayIn: true, ManageWebhooks: true}},
	}
}

// drivers drive each model under test like the root does.
var drivers = map[*Model]*screentest.Driver{}

func driver(t *testing.T, m *Model) *screentest.Driver {
	d, ok := drivers[m]
	if !ok {
		d = screentest.New(t, m.s, m)
		drivers[m] = d
		t.Cleanup(func() { delete(drivers, m) })
	}
	return d
}

// run executes a command and everything it leads to; it returns the
// messages meant for the root (toasts, navigation, confirmations) in the
// order they came.
func run(t *testing.T, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	d := driver(t, m)
	n := len(d.Out)
	d.Run(cmd)
	return d.Out[n:]
}

// press sends keys one by one, running what each one starts.
func press(t *testing.T, m *Model, keys ...string) []tea.Msg {
	t.Helper()
	d := driver(t, m)
	n := len(d.Out)
	d.Key(keys...)
	return d.Out[n:]
}

func start(t *testing.T, svc *fakeService, s *ui.Session, w, h int) *Model {
	m := New(s, svc).(*Model)
	m.SetSize(w, h)
	run(t, m, m.Init())
	return m
}

func view(m *Model) string { return ansi.Strip(m.View()) }

func TestAttemptsListFiltersAndPaging(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(60), hooks: []api.Webhook{{ID: "wh-1", URL: "https://erp.example/hooks/tesouro", Subscriptions: []string{"TICKET", "KYC"}}}}
	m := start(t, svc, session(t, svc, false), 100, 30)
	v := view(m)
	for _, want := range []string{"50 loaded · more available", "Registered webhooks (1 of at most 3)", "https://erp.example/hooks/tesouro", "[TICKET, KYC]"} {
		if !strings.Contains(v, want) {
			t.Fatalf("screen lacks %q:\n%s", want, v)
		}
	}
	press(t, m, "G")
	if !strings.Contains(view(m), "all 60 loaded") {
		t.Fatalf("not all loaded:\n%s", view(m))
	}
	// u: unacknowledged only, sent to the service.
	first := len(svc.queries)
	press(t, m, "u")
	if q := svc.queries[len(svc.queries)-1]; !q.UnackedOnly || q.Cursor != "" {
		t.Fatalf("u sent %+v", q)
	}
	if len(m.list.Items()) != 40 || len(svc.queries) != first+1 {
		t.Fatalf("%d unacknowledged attempts listed, want 40", len(m.list.Items()))
	}
	// the form: event id and dates
	press(t, m, "f")
	for _, r := range "evt-004" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	press(t, m, "tab")
	for _, r := range "2026-08-01" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	press(t, m, "enter")
	q := svc.queries[len(svc.queries)-1]
	want := api.AttemptFilter{WebhookEventID: "evt-004", UnackedOnly: true, CreatedAfter: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	if q != want {
		t.Fatalf("query\n got %+v\nwant %+v", q, want)
	}
	if len(m.list.Items()) != 1 {
		t.Fatalf("%d unacknowledged attempts of evt-004, want 1", len(m.list.Items()))
	}
}

func TestStaleAttemptsDropped(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(30)}
	m := New(session(t, svc, false), svc).(*Model)
	m.SetSize(100, 30)
	first := m.Init()
	press(t, m, "u")
	run(t, m, first)
	if m.list.Len() == 0 {
		t.Fatal("the filtered list did not load")
	}
	for _, a := range m.list.Items() {
		if a.Acknowledged {
			t.Fatal("an acknowledged attempt from the request before the filter is listed")
		}
	}
}

func TestAttemptDetailByID(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(5)}
	m := start(t, svc, session(t, svc, false), 100, 30)
	press(t, m, "j", "enter")
	a := svc.attempts[1]
	if len(svc.gets) != 1 || svc.gets[0] != a.ID {
		t.Fatalf("detail fetched %v, want %s by id", svc.gets, a.ID)
	}
	v := view(m)
	for _, want := range []string{"Delivery attempt " + a.ID, a.WebhookEventID, "500 refused by the receiver", "Acknowledged", "no", "acct-1", "2026-08-20 14:59:00"} {
		if !strings.Contains(v, want) {
			t.Fatalf("detail lacks %q:\n%s", want, v)
		}
	}
}

func TestAcknowledgeSelectedAfterConfirmation(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(6)}
	s := session(t, svc, false)
	m := start(t, svc, s, 100, 30)
	press(t, m, "space", "j", "space") // attempts 0 and 1
	if !strings.Contains(view(m), "2 selected") || !strings.Contains(view(m), "[x]") {
		t.Fatalf("selection not shown:\n%s", view(m))
	}
	msgs := press(t, m, "a")
	if len(msgs) != 1 {
		t.Fatalf("a gave %v, want one confirmation", msgs)
	}
	c, ok := msgs[0].(ui.ConfirmMsg)
	if !ok {
		t.Fatalf("a gave %T, want ui.ConfirmMsg", msgs[0])
	}
	if !strings.Contains(c.Body, svc.attempts[0].ID) || !strings.Contains(c.Body, svc.attempts[1].ID) || !strings.Contains(c.Title, "2 attempts") {
		t.Fatalf("confirmation does not say what is acknowledged: %q / %q", c.Title, c.Body)
	}
	if len(svc.acks) != 0 {
		t.Fatal("acknowledged before the confirmation")
	}
	msgs = run(t, m, c.OnYes)
	if len(svc.acks) != 1 || len(svc.acks[0]) != 2 || svc.acks[0][0] != svc.attempts[0].ID {
		t.Fatalf("acknowledged %v", svc.acks)
	}
	if ts := msgs[0].(ui.ToastMsg); !strings.Contains(ts.Text, "Acknowledged 2") {
		t.Fatalf("toast %q", ts.Text)
	}
	if m.list.Items()[0].Acknowledged != true || strings.Contains(view(m), "[x]") {
		t.Fatalf("rows not updated after acknowledging:\n%s", view(m))
	}
	entries, err := journal.ReadFile(filepath.Join(filepath.Dir(s.Journal.Path()), journal.FileName))
	if err != nil || len(entries) != 1 || entries[0].Action != "acknowledge-webhook-attempts" || entries[0].Outcome != "acknowledged" {
		t.Fatalf("journal: %+v %v", entries, err)
	}

	// A failure says so and changes nothing.
	svc.ackErr = api.ErrForbidden
	press(t, m, "j", "j", "j") // attempt 4 (not acknowledged)
	msgs = press(t, m, "a")
	msgs = run(t, m, msgs[0].(ui.ConfirmMsg).OnYes)
	if ts := msgs[0].(ui.ToastMsg); ts.Level != ui.ToastError || !strings.Contains(ts.Text, "nothing was changed") {
		t.Fatalf("failure toast %+v", ts)
	}
}

func TestAcknowledgeHiddenWhenReadOnly(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(3)}
	m := start(t, svc, session(t, svc, true), 100, 30)
	for _, b := range m.KeyMap() {
		if (b.Help().Desc == "acknowledge" || b.Help().Desc == "select") && b.Enabled() {
			t.Fatalf("%q offered to a read-only session", b.Help().Desc)
		}
	}
	if msgs := press(t, m, "a"); len(msgs) != 0 {
		t.Fatalf("a in a read-only session gave %v", msgs)
	}
	press(t, m, "space")
	if strings.Contains(m.View(), "[x]") {
		t.Fatal("space marked an attempt in a read-only session, where nothing can be done with it")
	}
}

func TestWebhooksSmallSizes(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(20), hooks: []api.Webhook{{ID: "1", URL: "https://x.example/h"}}}
	m := start(t, svc, session(t, svc, false), 40, 12)
	for _, sz := range [][2]int{{40, 12}, {6, 3}, {0, 0}, {130, 50}} {
		m.SetSize(sz[0], sz[1])
		for _, keys := range [][]string{nil, {"enter"}, {"esc", "f"}, {"esc"}} {
			press(t, m, keys...)
			screentest.CheckSize(t, m.View(), sz[0], sz[1])
		}
	}
}
