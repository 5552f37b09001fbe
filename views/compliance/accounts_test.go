package compliance

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// TestComplianceDropsAnotherAccountsAnswers: the screen of account A asks
// for its lists and submits a W-8BEN; the root rebuilds the screen for
// account B, which submits its own. A's late answers, delivered straight to
// B's screen, change nothing there; B's own answer is still taken.
func TestComplianceDropsAnotherAccountsAnswers(t *testing.T) {
	svcA := &fakeservice.Service{UBOs: []api.UBO{{ID: uuid.New(), FullName: "Ana of A"}}}
	a := fakeservice.Session(t, "operator@example.com", api.Permissions{})
	sa := New(a, svcA).(*Screen)
	sa.SetSize(100, 30)
	loadA := sa.Init()
	sa.Update(fakeservice.KeyPress("right"))
	sa.Update(fakeservice.KeyPress("n"))
	_, submitA := sa.Update(fakeservice.KeyPress("ctrl+s"))

	svcB := &fakeservice.Service{UBOs: []api.UBO{{ID: uuid.New(), FullName: "Bia of B"}}}
	b := a.WithAccount(ui.Account{ID: uuid.New(), Name: "Other"})
	h := harness{fakeservice.Drive(t, b, func(s *ui.Session) ui.Screen { return New(s, svcB) }, 100, 30)}
	h.Key("right", "n")
	_, submitB := h.Screen.Update(fakeservice.KeyPress("ctrl+s"))
	before, rows := h.PlainView(), h.screen().sections[0].Table().Len()
	for _, msg := range append(fakeservice.Each(loadA), fakeservice.Each(submitA)...) {
		h.Send(msg)
	}
	if got := h.PlainView(); got != before || h.screen().Form() == nil || h.screen().submitted != nil {
		t.Fatalf("B's screen took A's answers:\n%s", got)
	}
	if got := h.screen().sections[0].Table().Len(); got != rows {
		t.Fatalf("B's UBO list took A's page: %d rows, had %d", got, rows)
	}
	h.Run(submitB)
	if h.screen().Form() != nil || h.screen().submitted == nil {
		t.Fatal("B's own submission was not taken")
	}
	h.Key("left")
	if v := h.PlainView(); !strings.Contains(v, "Bia of B") || strings.Contains(v, "Ana of A") {
		t.Fatalf("B's UBOs:\n%s", v)
	}
}

// TestComplianceDropsAnOlderLoad: a refresh's late answer must not replace
// the list a later refresh brought.
func TestComplianceDropsAnOlderLoad(t *testing.T) {
	svc := &fakeservice.Service{UBOs: []api.UBO{{ID: uuid.New(), FullName: "First Owner"}}}
	h := newHarness(t, svc, api.Permissions{})
	_, older := h.Screen.Update(fakeservice.KeyPress("r"))
	late := fakeservice.Each(older) // answered before the data changed, delivered last
	svc.UBOs = []api.UBO{{ID: uuid.New(), FullName: "Second Owner"}}
	_, newer := h.Screen.Update(fakeservice.KeyPress("r"))
	h.Run(newer)
	for _, msg := range late {
		h.Send(msg)
	}
	if v := h.PlainView(); !strings.Contains(v, "Second Owner") || strings.Contains(v, "First Owner") {
		t.Fatalf("the older answer landed:\n%s", v)
	}
}
