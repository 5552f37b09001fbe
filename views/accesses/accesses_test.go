package accesses

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// fake is the service as the screen sees it: the list it answers with, or
// the error.
type fake struct {
	mu   sync.Mutex
	list []api.Access
	err  error
}

var _ Service = (*fake)(nil)

func (f *fake) ListAccesses(context.Context, api.AccessFilter) ([]api.Access, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.list, f.err
}

func (f *fake) InviteAccess(context.Context, api.InviteAccessRequest) (string, error) {
	return "", errors.New("fake: no invitation expected")
}

func (f *fake) UpdateAccessPermissions(context.Context, string, string, api.Permissions) error {
	return errors.New("fake: no change expected")
}

func (f *fake) RevokeAccess(context.Context, string, string) error {
	return errors.New("fake: no revocation expected")
}

func (f *fake) ListAPIKeys(context.Context) ([]api.APIKeyInfo, error) {
	return nil, errors.New("fake: no API key expected")
}

func (f *fake) CreateAPIKey(context.Context, api.CreateAPIKeyRequest) (string, error) {
	return "", errors.New("fake: no API key expected")
}

func (f *fake) SetAPIKeyAllowedIPs(context.Context, string, string, []string) error {
	return errors.New("fake: no API key expected")
}

func (f *fake) DeleteAPIKey(context.Context, string, string) error {
	return errors.New("fake: no API key expected")
}

func (f *fake) set(list ...api.Access) {
	f.mu.Lock()
	f.list = list
	f.mu.Unlock()
}

func session() *ui.Session {
	return &ui.Session{Env: ui.EnvSandbox, Time: screentest.NewClock(screentest.Epoch), Access: &api.AccessInfo{
		Email: "operator@demo.test", MFAActivated: true,
		AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true},
	}}
}

func start(t *testing.T, f *fake) *screentest.Driver {
	t.Helper()
	return screentest.Drive(t, session(), func(s *ui.Session) ui.Screen { return New(s, f, nil) }, 110, 20)
}

func TestMatrixShowsEachAccessPermissions(t *testing.T) {
	future := screentest.Epoch.Add(48 * time.Hour).UTC().Format(time.RFC3339)
	f := &fake{list: []api.Access{
		{ID: "a1", Email: "viewer@demo.test", AccessPermission: api.Permissions{ViewOnly: true}},
		{ID: "a2", Email: "approver1@demo.test", AccessPermission: api.Permissions{OperationApprover: true}, FrozenUntil: future},
	}}
	v := start(t, f).PlainView()
	for _, want := range []string{"operator@demo.test", "MFA on", "payIn, payOut, convert", "all 2 loaded", "viewer@demo.test", "FROZEN"} {
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
	f := &fake{err: fmt.Errorf("list accesses: %w", &api.Error{Status: 403, Method: "GET", Path: "/v2/accesses", Message: "forbidden"})}
	v := start(t, f).PlainView()
	if !strings.Contains(v, "may not list sub-accesses") || !strings.Contains(v, "operator@demo.test") {
		t.Errorf("forbidden listing not explained, or own access lost:\n%s", v)
	}
	if strings.Contains(v, "/v2/") {
		t.Errorf("the error shows the request's path:\n%s", v)
	}
}

// TestLateAnswerForAnotherAccountIsDropped delivers the list asked by the
// screen of account A into the screen rebuilt for account B, before and
// after B's own answer: B shows only its own.
func TestLateAnswerForAnotherAccountIsDropped(t *testing.T) {
	fa := &fake{list: []api.Access{{ID: "a1", Email: "from-a@demo.test"}}}
	sa := session()
	fb := &fake{list: []api.Access{{ID: "b1", Email: "from-b@demo.test"}}}
	sb := staletest.OtherAccount(sa)
	d := screentest.New(t, sb, New(sb, fb, nil))
	d.Screen.SetSize(110, 20)
	staletest.AnotherAccount{FromA: []tea.Cmd{New(sa, fa, nil).Init()}, B: d, Own: d.Screen.Init(),
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "from-a") || !strings.Contains(v, "from-b@demo.test") {
				t.Fatalf("B shows another account's accesses, or not its own:\n%s", v)
			}
		}}.Check(t)
}

// TestOlderLoadNeverOverwritesTheLatest presses r twice and answers the
// second load first: the first, arriving last, is dropped.
func TestOlderLoadNeverOverwritesTheLatest(t *testing.T) {
	f := &fake{list: []api.Access{{ID: "a1", Email: "stale@demo.test"}}}
	d := start(t, f)
	staletest.Refresh(d, func() { f.set(api.Access{ID: "a2", Email: "second@demo.test"}) }, "second@demo.test", "stale@").Check(t)
}
