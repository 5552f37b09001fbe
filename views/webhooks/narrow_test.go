package webhooks

import (
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/ui"
)

func TestNarrowListKeepsAckStatusTimeAndURL(t *testing.T) {
	svc := &fakeService{attempts: makeAttempts(6)}
	m := start(t, svc, session(t, svc, false), 40, 12)
	v := view(m)
	for _, want := range []string{"Acked", "HTTP", "[ ]", "500", "08-20 15:00", "https://"} {
		if !strings.Contains(v, want) {
			t.Fatalf("40 columns lack %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "evt-000") {
		t.Fatalf("the event id takes room at 40 columns:\n%s", v)
	}
	m.Update(ui.FilterMsg{Query: "evt-001"})
	if m.list.Visible() != 2 {
		t.Fatalf("the filter by event matches %d rows at 40 columns, want 2", m.list.Visible())
	}
	m.Update(ui.FilterMsg{})
	m.SetSize(120, 12)
	if v := view(m); !strings.Contains(v, "evt-000") || !strings.Contains(v, "2026-08-20 15:00") {
		t.Fatalf("120 columns lack the event or the full time:\n%s", v)
	}
}
