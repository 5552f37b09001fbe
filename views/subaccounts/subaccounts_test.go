package subaccounts

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/staletest"
)

// fake is the service as the screen sees it: the sub-accounts it lists and
// the creations it was sent.
type fake struct {
	mu      sync.Mutex
	subs    []api.SubAccount
	created []api.CreateSubAccountRequest
}

var _ Service = (*fake)(nil)

func (f *fake) ListSubAccounts(context.Context, api.SubAccountFilter) (api.Page[api.SubAccount], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Page[api.SubAccount]{Items: append([]api.SubAccount(nil), f.subs...)}, nil
}

func (f *fake) CreateSubAccount(_ context.Context, req api.CreateSubAccountRequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = append(f.created, req)
	id := uuid.New()
	f.subs = append(f.subs, sub(id, req.Name))
	return id, nil
}

// The fake prices nothing: moving funds is tested against the sandbox
// (move_test.go).
var errNoMoves = errors.New("the fake service does not move funds")

func (f *fake) Quote(context.Context, api.QuoteRequest) (*api.Quote, error) { return nil, errNoMoves }
func (f *fake) Balances(context.Context, uuid.UUID) (api.Balances, error)   { return nil, errNoMoves }
func (f *fake) CreateTicket(context.Context, uuid.UUID, api.CreateTicketRequest) (*api.CreateTicketResult, error) {
	return nil, errNoMoves
}
func (f *fake) FindTicketByExternalID(context.Context, uuid.UUID, string) (*api.Ticket, bool, error) {
	return nil, false, errNoMoves
}

// rename renames the first sub-account, as another session would.
func (f *fake) rename(name string) {
	f.mu.Lock()
	f.subs[0].AccountInfo.Name = name
	f.mu.Unlock()
}

var (
	mainID = uuid.MustParse("00000000-0000-4000-8000-000000000001")
	acmeID = uuid.MustParse("00000000-0000-4000-8000-0000000000a1")
	banID  = uuid.MustParse("00000000-0000-4000-8000-0000000000c3")
)

func sub(id uuid.UUID, name string) api.SubAccount {
	return api.SubAccount{SubAccountID: id, MainAccountID: mainID, AccountInfo: api.AccountInfo{ID: id, Name: name, AccountType: "COMPANY"}}
}

func newFake() *fake {
	return &fake{subs: []api.SubAccount{sub(acmeID, "Acme Pagamentos"), sub(banID, "Banned Branch")}}
}

func newSession(readOnly bool, j *journal.Journal) *ui.Session {
	return &ui.Session{
		Env:      ui.EnvSandbox,
		ReadOnly: readOnly,
		Journal:  j,
		Time:     screentest.NewClock(screentest.Epoch),
		Access: &api.AccessInfo{
			Email:                 "operator@demo.test",
			AccountPermissions:    api.Permissions{Convert: true, PayIn: true, PayOut: true},
			BlacklistedAccountIDs: []uuid.UUID{banID},
		},
		Accounts: []api.Account{{ID: mainID, Name: "Tesouro Demo Ltda"}},
	}
}

func started(t *testing.T, f *fake, s *ui.Session) *screentest.Driver {
	t.Helper()
	return screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, f) }, 100, 20)
}

func TestListsMainAndSubAccountsWithBlacklistedDisabled(t *testing.T) {
	d := started(t, newFake(), newSession(false, nil))
	v := d.PlainView()
	for _, want := range []string{"Tesouro Demo Ltda", "● operating", "Acme Pagamentos", acmeID.String(), "Banned Branch", "blacklisted"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	// Move to Acme and switch.
	d.Key("down", "enter")
	if len(d.Switches) != 1 || d.Switches[0].Account.ID != acmeID || d.Switches[0].Account.Name != "Acme Pagamentos" {
		t.Fatalf("enter on Acme asked the root for %+v", d.Switches)
	}
	// Banned: enter refuses with the reason.
	d.Key("down", "enter")
	if len(d.Toasts) != 1 || !strings.Contains(d.Toasts[0].Text, "blacklisted") {
		t.Errorf("no reason given for the disabled account: %+v", d.Toasts)
	}
}

func TestFilterNarrowsTheList(t *testing.T) {
	d := started(t, newFake(), newSession(false, nil))
	d.Send(ui.FilterMsg{Query: "acpag"}) // fuzzy: AC-me PAG-amentos
	v := d.PlainView()
	if !strings.Contains(v, "Acme Pagamentos") || strings.Contains(v, "Banned Branch") || d.Screen.(*Screen).table.Visible() != 1 {
		t.Errorf("filter did not narrow:\n%s", v)
	}
	d.Send(ui.FilterMsg{Query: ""})
	if v := d.PlainView(); !strings.Contains(v, "Banned Branch") {
		t.Errorf("clearing the filter did not bring the rows back:\n%s", v)
	}
}

func TestCreateAsksNameTypeAndConfirmationThenJournals(t *testing.T) {
	dir := t.TempDir()
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := newFake()
	d := started(t, f, newSession(false, j))
	d.Key("c")
	p1 := d.Prompts[0]
	if err := p1.Validate(""); err == nil {
		t.Error("an empty name was accepted")
	}
	d.Run(p1.OnSubmit("Nova Filial"))
	p2 := d.Prompts[1]
	if err := p2.Validate("PARTNERSHIP"); err == nil {
		t.Error("an unknown account type was accepted")
	}
	d.Run(p2.OnSubmit("c"))
	if len(d.Asks) != 1 || !strings.Contains(d.Asks[0].Body, "Nova Filial") || !strings.Contains(d.Asks[0].Body, "COMPANY") {
		t.Fatalf("confirmation does not repeat what is created: %+v", d.Asks)
	}
	if len(f.created) != 0 {
		t.Fatal("created before the confirmation")
	}
	// Busy is looked at before the creation's request runs.
	_, cmd := d.Screen.Update(d.Asks[0].OnYes())
	if !d.Screen.Busy() {
		t.Error("not busy while the creation is under way")
	}
	d.Run(cmd)
	if len(d.Reloads) != 1 {
		t.Errorf("the root was asked to reload the accounts %d times, want once", len(d.Reloads))
	}
	if len(f.created) != 1 || f.created[0].Name != "Nova Filial" || f.created[0].AccountType != "COMPANY" {
		t.Fatalf("created %+v", f.created)
	}
	if v := d.PlainView(); !strings.Contains(v, "Nova Filial") {
		t.Errorf("the new sub-account is not listed:\n%s", v)
	}
	if d.Screen.Busy() {
		t.Error("still busy after the creation's answer")
	}
	entries, err := journal.ReadFile(filepath.Join(dir, journal.FileName))
	if err != nil || len(entries) != 1 {
		t.Fatalf("journal: %v, %d entries", err, len(entries))
	}
	if e := entries[0]; e.Action != "create-sub-account" || e.Outcome != "created" || e.IDs["subAccountId"] == "" {
		t.Errorf("journal entry %+v", e)
	}
}

func TestCreateIsHiddenWhenReadOnly(t *testing.T) {
	f := newFake()
	d := started(t, f, newSession(true, nil))
	for _, b := range d.Screen.KeyMap() {
		if b.Help().Desc == "create sub-account" && b.Enabled() {
			t.Error("create is offered to a read-only session")
		}
	}
	d.Key("c")
	if len(d.Prompts) != 0 || len(d.Toasts) != 1 {
		t.Fatalf("a read-only session was asked for a name (prompts %d, toasts %+v)", len(d.Prompts), d.Toasts)
	}
	if len(f.created) != 0 {
		t.Fatal("created in a read-only session")
	}
}

func TestNamesStayVisibleOnANarrowWindow(t *testing.T) {
	d := started(t, newFake(), newSession(false, nil))
	for _, w := range []int{40, 70, 100} {
		d.Screen.SetSize(w, 8)
		v := d.PlainView()
		if !strings.Contains(v, "Acme Pagamentos") {
			t.Errorf("width %d: the account name is not readable:\n%s", w, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if n := len([]rune(l)); n > w {
				t.Errorf("width %d: line of %d: %q", w, n, l)
			}
		}
	}
}

// TestLateAnswerForAnotherAccountIsDropped delivers the listing, a
// creation confirmed and the creation asked by the screen of account A into
// the screen rebuilt for account B, before and after B's own answer: B
// shows only its own, and neither announces, counts nor sends A's creation.
func TestLateAnswerForAnotherAccountIsDropped(t *testing.T) {
	fa := newFake()
	fa.rename("Only In A")
	sa := newSession(false, nil)
	a := New(sa, fa)
	_, start := ui.Answer(sa, startCreate{name: "Made By A", kind: "COMPANY"})
	_, createByA := a.Update(start())
	sb := sa.WithAccount(ui.Account{ID: acmeID, Name: "Acme Pagamentos"})
	d := screentest.New(t, sb, New(sb, newFake()))
	d.Screen.SetSize(100, 20)
	staletest.AnotherAccount{FromA: []tea.Cmd{a.Init(), start, createByA}, B: d, Own: d.Screen.Init(),
		Then: func(t *testing.T, d *screentest.Driver) {
			if v := d.PlainView(); strings.Contains(v, "Only In A") || !strings.Contains(v, "Acme Pagamentos") {
				t.Fatalf("B shows A's listing, or not its own:\n%s", v)
			}
			if n := d.Screen.(*Screen).creates; n != 0 {
				t.Fatalf("B counts A's creation: %d under way", n)
			}
		}}.Check(t)
}

// TestOlderLoadNeverOverwritesTheLatest presses r twice and answers the
// second load first: the first, arriving last, is dropped.
func TestOlderLoadNeverOverwritesTheLatest(t *testing.T) {
	f := newFake()
	f.rename("Stale Name")
	d := started(t, f, newSession(false, nil))
	staletest.Refresh(d, func() { f.rename("Renamed Later") }, "Renamed Later", "Stale Name").Check(t)
}
