package compliance

import (
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

type harness struct{ *fakeservice.Harness }

// newHarness drives the screen for the main account on 2026-11-21.
func newHarness(t *testing.T, svc Service, perms api.Permissions) harness {
	t.Helper()
	s := fakeservice.Session(t, "operator@example.com", perms)
	s.Time = screentest.NewClock(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
	return harness{fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, svc) }, 100, 30)}
}

func (h harness) screen() *Screen { return h.Screen.(*Screen) }
