package ui

import (
	"context"
	"errors"
	"fmt"
	"github.com/tesouro-treasury/tesouro/ui/clocktest"
	"slices"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// fakeClient is the shell's Client as a test wants it: the access and the
// accounts, with failures of the access load on demand.
type fakeClient struct {
	access   *api.AccessInfo
	accounts []api.Account
	// hideBarred leaves out of the sub-accounts list those the access is
	// blacklisted from, as the service does.
	hideBarred bool
	// accessFails is how many access-info loads fail before one succeeds.
	accessFails int
	accessAsks  int
	// down makes every access info ask go unanswered, as when the
	// service is stopped.
	down bool
	// accountsErr, when set, is the answer to every accounts load.
	accountsErr error
}

func (f *fakeClient) AccessInfo(ctx context.Context) (*api.AccessInfo, error) {
	f.accessAsks++
	if f.down {
		return nil, fmt.Errorf("GET /v2/account/access-info: %w: connection refused", api.ErrNoAnswer)
	}
	if f.accessAsks <= f.accessFails {
		return nil, errors.New("connection reset by peer")
	}
	return f.access, nil
}

// ListAccounts lists, as the service does, only the accounts the access
// may operate: those it is blacklisted from are left out.
func (f *fakeClient) ListAccounts(ctx context.Context) ([]api.Account, error) {
	if f.accountsErr != nil {
		return nil, f.accountsErr
	}
	var out []api.Account
	for _, a := range f.accounts {
		if !slices.Contains(f.access.BlacklistedAccountIDs, a.ID) {
			out = append(out, a)
		}
	}
	return out, nil
}

// ListSubAccounts names every sub-account on one page, blacklisted or not
// (or not, with hideBarred, as the service now does).
func (f *fakeClient) ListSubAccounts(ctx context.Context, _ api.SubAccountFilter) (api.Page[api.SubAccount], error) {
	var p api.Page[api.SubAccount]
	for _, a := range f.accounts {
		if f.hideBarred && slices.Contains(f.access.BlacklistedAccountIDs, a.ID) {
			continue
		}
		if a.MainAccountID != "" {
			p.Items = append(p.Items, api.SubAccount{SubAccountID: a.ID, MainAccountID: uuid.MustParse(a.MainAccountID), AccountInfo: api.AccountInfo{ID: a.ID, Name: a.Name, AccountType: a.AccountType}})
		}
	}
	return p, nil
}

var (
	mainID = uuid.MustParse("00000000-0000-4000-8000-000000000001")
	acmeID = uuid.MustParse("00000000-0000-4000-8000-0000000000a1")
	betaID = uuid.MustParse("00000000-0000-4000-8000-0000000000b2")
	banID  = uuid.MustParse("00000000-0000-4000-8000-0000000000c3")
)

func newFake() *fakeClient {
	return &fakeClient{
		access: &api.AccessInfo{
			Email: "operator@demo.test",
			AccountPermissions: api.Permissions{
				PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true, Beneficiary: true,
			},
			BlacklistedAccountIDs: []uuid.UUID{banID},
		},
		accounts: []api.Account{
			{ID: mainID, Name: "Tesouro Demo Ltda", AccountType: "COMPANY"},
			{ID: acmeID, Name: "Acme Pagamentos", AccountType: "COMPANY", MainAccountID: mainID.String()},
			{ID: betaID, Name: "Beta Individual", AccountType: "INDIVIDUAL", MainAccountID: mainID.String()},
			{ID: banID, Name: "Banned Branch", AccountType: "COMPANY", MainAccountID: mainID.String()},
		},
	}
}

// stubScreen records what it receives.
type stubScreen struct {
	id, title string
	s         *Session
	keys      []string
	msgs      []tea.Msg
	capturing bool
	busy      bool
	filter    string
	bindings  []key.Binding
	w, h      int
	inits     int
	// holding is what End stops and says (an export under way); ends
	// counts the calls.
	holding string
	ends    int
	// stopping is what the screen says a switch does to its flow ("":
	// nothing said, the root's default).
	stopping string
}

func (s *stubScreen) Stopping() string { return s.stopping }

func (s *stubScreen) ID() string    { return s.id }
func (s *stubScreen) Title() string { return s.title }
func (s *stubScreen) Init() tea.Cmd { s.inits++; return nil }
func (s *stubScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		s.keys = append(s.keys, m.String())
	case FilterMsg:
		s.filter = m.Query
	default:
		s.msgs = append(s.msgs, msg)
	}
	return s, nil
}
func (s *stubScreen) View() string          { return "content of " + s.id }
func (s *stubScreen) SetSize(w, h int)      { s.w, s.h = w, h }
func (s *stubScreen) KeyMap() []key.Binding { return s.bindings }
func (s *stubScreen) Capturing() bool       { return s.capturing }
func (s *stubScreen) Busy() bool            { return s.busy }
func (s *stubScreen) Filterable() bool      { return true }
func (s *stubScreen) End() string {
	s.ends++
	said := s.holding
	s.holding, s.busy = "", false
	return said
}
func (s *stubScreen) sawMsg(want tea.Msg) bool {
	for _, m := range s.msgs {
		if m == want {
			return true
		}
	}
	return false
}

// harness builds a root over stub screens and records every screen built.
type harness struct {
	clock  *clocktest.Clock
	timers clocktest.Queue
	t      *testing.T
	root   *Root
	fake   *fakeClient
	mu     sync.Mutex
	built  []*stubScreen
	quit   bool
}

func newHarness(t *testing.T, mutate func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, fake: newFake()}
	factory := func(id, title string) Factory {
		return Factory{ID: id, Title: title, New: func(s *Session) Screen {
			sc := &stubScreen{id: id, title: title, s: s}
			h.mu.Lock()
			h.built = append(h.built, sc)
			h.mu.Unlock()
			return sc
		}}
	}
	screens := []Factory{factory("overview", "Overview"), factory("quote", "Quote"), factory("tickets", "Tickets")}
	h.clock = clocktest.New(clocktest.Epoch)
	opts := Options{
		Clock:    h.clock,
		Env:      EnvSandbox,
		Embedded: true,
		Connect: func(ctx context.Context) (*Connection, error) {
			return &Connection{Client: h.fake, Email: "operator@demo.test", Screens: screens}, nil
		},
	}
	if mutate != nil {
		mutate(&opts)
	}
	h.newRoot(opts)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 32})
	h.run(h.root.Init())
	return h
}

// newRoot is New on the harness's fake clock.
func (h *harness) newRoot(opts Options) *Root {
	if h.clock == nil {
		h.clock = clocktest.New(clocktest.Epoch)
	}
	opts.Clock = h.clock
	h.root = New(opts)
	return h.root
}

// send delivers a message and runs what it returns.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.root.Update(msg)
	h.run(cmd)
}

// run executes commands until none is left; timers wait on the fake clock
// until advance.
func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 1000; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case clocktest.Timer:
			h.timers.Park(m)
		case tea.BatchMsg:
			queue = append(queue, m...)
		case tea.QuitMsg:
			h.quit = true
		default:
			_, next := h.root.Update(m)
			queue = append(queue, next)
		}
	}
}

// advance moves the fake clock, running the timers that fall due.
func (h *harness) advance(d time.Duration) {
	h.t.Helper()
	h.timers.Advance(h.clock, d, func(msg tea.Msg) { h.send(msg) })
}

// key sends one key press by its name ("q", "enter", "esc", "tab", "ctrl+c").
func (h *harness) key(names ...string) {
	h.t.Helper()
	for _, n := range names {
		h.send(keyPress(n))
	}
}

// typeText sends each rune as a key press.
func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyPress(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// screen returns the live screen with that id.
func (h *harness) screen(id string) *stubScreen {
	for _, s := range h.root.Screens() {
		if s != nil && s.ID() == id {
			return s.(*stubScreen)
		}
	}
	h.t.Fatalf("no screen %q", id)
	return nil
}

func (h *harness) view() string { return h.root.render() }

func apiPermissionsViewOnly() api.Permissions { return api.Permissions{ViewOnly: true} }

func newHarnessWithAccess(t *testing.T, p api.Permissions) *harness {
	t.Helper()
	h := &harness{t: t, fake: newFake()}
	h.fake.access.AccountPermissions = p
	opts := Options{
		Env: EnvSandbox,
		Connect: func(ctx context.Context) (*Connection, error) {
			return &Connection{Client: h.fake, Screens: overviewOnly()}, nil
		},
	}
	h.newRoot(opts)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 32})
	h.run(h.root.Init())
	return h
}

// overviewOnly is a dashboard of one stub screen.
func overviewOnly() []Factory {
	return []Factory{{ID: "overview", Title: "Overview", New: func(s *Session) Screen {
		return &stubScreen{id: "overview", title: "Overview", s: s}
	}}}
}
