package compliance

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
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
	b := staletest.OtherAccount(a)
	h := harness{fakeservice.Drive(t, b, func(s *ui.Session) ui.Screen { return New(s, svcB) }, 100, 30)}
	h.Key("right", "n")
	_, submitB := h.Screen.Update(fakeservice.KeyPress("ctrl+s"))
	staletest.AnotherAccount{FromA: []tea.Cmd{loadA, submitA}, B: h.Driver, Own: submitB,
		Held: func() string {
			return fmt.Sprintf("%d UBOs, form open %v, submitted %v", h.screen().sections[0].Table().Len(), h.screen().Form() != nil, h.screen().submitted)
		},
		Then: func(t *testing.T, d *screentest.Driver) {
			if h.screen().Form() != nil || h.screen().submitted == nil {
				t.Fatal("B's own submission was not taken")
			}
			d.Key("left")
			if v := d.PlainView(); !strings.Contains(v, "Bia of B") || strings.Contains(v, "Ana of A") {
				t.Fatalf("B's UBOs:\n%s", v)
			}
		}}.Check(t)
}

// TestComplianceDropsAnOlderLoad: a refresh's late answer must not replace
// the list a later refresh brought.
func TestComplianceDropsAnOlderLoad(t *testing.T) {
	svc := &fakeservice.Service{UBOs: []api.UBO{{ID: uuid.New(), FullName: "First Owner"}}}
	h := newHarness(t, svc, api.Permissions{})
	staletest.Refresh(h.Driver, func() { svc.UBOs = []api.UBO{{ID: uuid.New(), FullName: "Second Owner"}} }, "Second Owner", "First Owner").Check(t)
}
