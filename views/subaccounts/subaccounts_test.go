package subaccounts

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

type fake struct {
	api.Service
	mu      sync.Mutex
	subs    []api.SubAccount
	created []api.CreateSubAccountRequest
}

func (f *fake) ListSubAccounts(ctx context.Context, flt api.SubAccountFilter) (api.Page[api.SubAccount], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Page[api.SubAccount]{Items: append([]api.SubAccount(nil), f.subs...)}, nil
}

func (f *fake) CreateSubAccount(ctx context.Context, req api.CreateSubAccountRequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = append(f.created, req)
	id := uuid.New()
	f.subs = append(f.subs, api.SubAccount{SubAccountID: id, AccountInfo: api.AccountInfo{ID: id, Name: req.Name, AccountType: req.AccountType}})
	return id, nil
}

var (
	mainID = uuid.MustParse("00000000-0000-4000-8000-000000000001")
	acmeID = uuid.MustParse("00000000-0000-4000-8000-0000000000a1")
	banID  = uuid.MustParse("00000000-0000-4000-8000-0000000000c3")
)

func newFake() *fake {
	return &fake{subs: []api.SubAccount{
		{SubAccountID: acmeID, MainAccountID: mainID, AccountInfo: api.AccountInfo{ID: acmeID, Name: "Acme Pagamentos", AccountType: "COMPANY"}},
		{SubAccountID: banID, MainAccountID: mainID, AccountInfo: api.AccountInfo{ID: banID, Name: "Banned Branch", AccountType: "COMPANY"}},
	}}
}

func newSession(f *fake, readOnly bool, j *journal.Journal) *ui.Session {
	return &ui.Session{
		Client:   f,
		Env:      ui.EnvSandbox,
		ReadOnly: readOnly,
		Journal:  j,
		Access: &api.AccessInfo{
			Email:                 "operator@demo.test",
			AccountPermissions:    api.Permissions{Convert: true, PayIn: true, PayOut: true},
			BlacklistedAccountIDs: []uuid.UUID{banID},
		},
		Accounts: []api.Account{{ID: mainID, Name: "Tesouro Demo Ltda"}},
	}
}

func press(sc ui.Screen, k tea.KeyPressMsg) tea.Cmd {
	return func() tea.Msg { return k }
}

var (
	enter = tea.KeyPressMsg{Code: tea.KeyEnter}
	down  = tea.KeyPressMsg{Code: tea.KeyDown}
	keyC  = tea.KeyPressMsg{Code: 'c', Text: "c"}
)

func started(t *testing.T, s *ui.Session) ui.Screen {
	sc := New(s)
	sc.SetSize(100, 20)
	sc, _ = screentest.Run(t, sc, sc.Init())
	return sc
}

func TestListsMainAndSubAccountsWithBlacklistedDisabled(t *testing.T) {
	sc := started(t, newSession(newFake(), false, nil))
	v := ansi.Strip(sc.View())
	for _, want := range []string{"Tesouro Demo Ltda", "● operating", "Acme Pagamentos", acmeID.String(), "Banned Branch", "blacklisted"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	// Move to Acme and switch.
	_, msgs := screentest.Run(t, sc, press(sc, down))
	_, msgs = screentest.Run(t, sc, press(sc, enter))
	var sw *ui.SwitchAccountMsg
	for _, m := range msgs {
		if s, ok := m.(ui.SwitchAccountMsg); ok {
			sw = &s
		}
	}
	if sw == nil || sw.Account.ID != acmeID || sw.Account.Name != "Acme Pagamentos" {
		t.Fatalf("enter on Acme gave %+v", sw)
	}
	// Banned: enter refuses with the reason.
	_, _ = screentest.Run(t, sc, press(sc, down))
	_, msgs = screentest.Run(t, sc, press(sc, enter))
	for _, m := range msgs {
		if _, ok := m.(ui.SwitchAccountMsg); ok {
			t.Fatal("switched to a blacklisted account")
		}
	}
	found := false
	for _, m := range msgs {
		if ts, ok := m.(ui.ToastMsg); ok && strings.Contains(ts.Text, "blacklisted") {
			found = true
		}
	}
	if !found {
		t.Error("no reason given for the disabled account")
	}
}

func TestFilterNarrowsTheList(t *testing.T) {
	sc := started(t, newSession(newFake(), false, nil))
	sc, _ = sc.Update(ui.FilterMsg{Query: "acpag"}) // fuzzy: AC-me PAG-amentos
	v := ansi.Strip(sc.View())
	if !strings.Contains(v, "Acme Pagamentos") || strings.Contains(v, "Banned Branch") || sc.(*Screen).table.Visible() != 1 {
		t.Errorf("filter did not narrow:\n%s", v)
	}
	sc, _ = sc.Update(ui.FilterMsg{Query: ""})
	if v := ansi.Strip(sc.View()); !strings.Contains(v, "Banned Branch") {
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
	sc := started(t, newSession(f, false, j))
	_, msgs := screentest.Run(t, sc, press(sc, keyC))
	p1 := findPrompt(t, msgs)
	if err := p1.Validate(""); err == nil {
		t.Error("an empty name was accepted")
	}
	_, msgs = screentest.Run(t, sc, p1.OnSubmit("Nova Filial"))
	p2 := findPrompt(t, msgs)
	if err := p2.Validate("PARTNERSHIP"); err == nil {
		t.Error("an unknown account type was accepted")
	}
	_, msgs = screentest.Run(t, sc, p2.OnSubmit("c"))
	var conf *ui.ConfirmMsg
	for _, m := range msgs {
		if c, ok := m.(ui.ConfirmMsg); ok {
			conf = &c
		}
	}
	if conf == nil || !strings.Contains(conf.Body, "Nova Filial") || !strings.Contains(conf.Body, "COMPANY") {
		t.Fatalf("confirmation does not repeat what is created: %+v", conf)
	}
	if len(f.created) != 0 {
		t.Fatal("created before the confirmation")
	}
	sc, msgs = screentest.Run(t, sc, conf.OnYes)
	if len(f.created) != 1 || f.created[0].Name != "Nova Filial" || f.created[0].AccountType != "COMPANY" {
		t.Fatalf("created %+v", f.created)
	}
	if v := ansi.Strip(sc.View()); !strings.Contains(v, "Nova Filial") {
		t.Errorf("the new sub-account is not listed:\n%s", v)
	}
	reload := false
	for _, m := range msgs {
		if _, ok := m.(ui.ReloadAccountsMsg); ok {
			reload = true
		}
	}
	if !reload {
		t.Error("the root was not asked to reload the accounts")
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
	sc := started(t, newSession(f, true, nil))
	for _, b := range sc.KeyMap() {
		if b.Help().Desc == "create sub-account" && b.Enabled() {
			t.Error("create is offered to a read-only session")
		}
	}
	_, msgs := screentest.Run(t, sc, press(sc, keyC))
	for _, m := range msgs {
		if _, ok := m.(ui.PromptMsg); ok {
			t.Fatal("a read-only session was asked for a name")
		}
	}
	if len(f.created) != 0 {
		t.Fatal("created in a read-only session")
	}
}

func findPrompt(t *testing.T, msgs []tea.Msg) ui.PromptMsg {
	t.Helper()
	for _, m := range msgs {
		if p, ok := m.(ui.PromptMsg); ok {
			return p
		}
	}
	t.Fatalf("no prompt among %v", msgs)
	return ui.PromptMsg{}
}

func TestNamesStayVisibleOnANarrowWindow(t *testing.T) {
	sc := started(t, newSession(newFake(), false, nil))
	for _, w := range []int{40, 70, 100} {
		sc.SetSize(w, 8)
		v := ansi.Strip(sc.View())
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
