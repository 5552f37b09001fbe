package accesses

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

type fake struct {
	api.Service
	list []api.Access
	err  error
}

func (f *fake) ListAccesses(ctx context.Context, flt api.AccessFilter) ([]api.Access, error) {
	return f.list, f.err
}

func start(t *testing.T, f *fake) ui.Screen {
	t.Helper()
	s := &ui.Session{Client: f, Env: ui.EnvSandbox, Access: &api.AccessInfo{
		Email: "operator@demo.test", MFAActivated: true,
		AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true},
	}}
	sc := New(s)
	sc.SetSize(110, 20)
	msg := sc.Init()()
	sc, _ = sc.Update(msg)
	return sc
}

func TestMatrixShowsEachAccessPermissions(t *testing.T) {
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	f := &fake{list: []api.Access{
		{ID: "a1", Email: "viewer@demo.test", AccessPermission: api.Permissions{ViewOnly: true}},
		{ID: "a2", Email: "approver1@demo.test", AccessPermission: api.Permissions{OperationApprover: true}, FrozenUntil: future},
	}}
	v := ansi.Strip(start(t, f).View())
	for _, want := range []string{"operator@demo.test", "MFA on", "payIn, payOut, convert", "2 accesses", "viewer@demo.test", "FROZEN"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	// The viewer row has exactly one ✓ (View) plus nothing else.
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "viewer@demo.test") {
			if n := strings.Count(l, "✓"); n != 1 {
				t.Errorf("viewer row shows %d ✓: %q", n, l)
			}
		}
	}
}

func TestForbiddenListingIsExplained(t *testing.T) {
	f := &fake{err: fmt.Errorf("list accesses: %w", api.ErrForbidden)}
	v := ansi.Strip(start(t, f).View())
	if !strings.Contains(v, "may not list sub-accesses") || !strings.Contains(v, "operator@demo.test") {
		t.Errorf("forbidden listing not explained, or own access lost:\n%s", v)
	}
}
