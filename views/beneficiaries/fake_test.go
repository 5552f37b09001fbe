package beneficiaries

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/journal"
	"tesouro/ui"
)

// fakeService stands for the service: it keeps beneficiaries in memory and
// records what the screen sent. Methods it does not override panic (the
// embedded nil interface), which catches unexpected calls.
type fakeService struct {
	api.Service

	mu        sync.Mutex
	wallets   []api.Wallet
	brl       []api.BRLAccount
	brlSent   []api.CreateBRLAccountRequest
	walSent   []api.CreateWalletRequest
	deleted   []uuid.UUID
	createErr error
	accounts  []uuid.UUID // subAccountId of every call
}

func (f *fakeService) note(acct uuid.UUID) {
	f.accounts = append(f.accounts, acct)
}

func (f *fakeService) ListWallets(_ context.Context, w api.WalletFilter) (api.Page[api.Wallet], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(w.SubAccountID)
	return api.Page[api.Wallet]{Items: append([]api.Wallet(nil), f.wallets...)}, nil
}

func (f *fakeService) ListBRLAccounts(_ context.Context, b api.BeneficiaryFilter) (api.Page[api.BRLAccount], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(b.SubAccountID)
	return api.Page[api.BRLAccount]{Items: append([]api.BRLAccount(nil), f.brl...)}, nil
}

func (f *fakeService) ListUSDAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.USDAccount], error) {
	return api.Page[api.USDAccount]{}, nil
}

func (f *fakeService) ListCOPAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.COPAccount], error) {
	return api.Page[api.COPAccount]{}, nil
}

func (f *fakeService) CreateBRLAccount(_ context.Context, acct uuid.UUID, req api.CreateBRLAccountRequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	f.brlSent = append(f.brlSent, req)
	if f.createErr != nil {
		return uuid.Nil, f.createErr
	}
	id := uuid.New()
	f.brl = append(f.brl, api.BRLAccount{ID: id, Alias: req.Alias, PixKey: req.PixKey, TaxID: req.TaxID, UserName: req.UserName,
		BankCode: req.BankCode, BranchCode: req.BranchCode, AccountNumber: req.AccountNumber, AccountType: req.AccountType})
	return id, nil
}

func (f *fakeService) CreateWallet(_ context.Context, acct uuid.UUID, req api.CreateWalletRequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	f.walSent = append(f.walSent, req)
	if f.createErr != nil {
		return uuid.Nil, f.createErr
	}
	id := uuid.New()
	f.wallets = append(f.wallets, api.Wallet{ID: id, Alias: req.Alias, WalletAddress: req.WalletAddress, WalletChain: req.WalletChain})
	return id, nil
}

func (f *fakeService) DeleteWallet(_ context.Context, acct, id uuid.UUID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(acct)
	f.deleted = append(f.deleted, id)
	for i, w := range f.wallets {
		if w.ID == id {
			f.wallets = append(f.wallets[:i], f.wallets[i+1:]...)
			break
		}
	}
	return nil
}

// harness drives a screen like the root does: it runs every command and
// feeds the resulting messages back, keeping the root's messages (toasts,
// confirmations) for the test to look at.
type harness struct {
	t      *testing.T
	scr    ui.Screen
	toasts []ui.ToastMsg
	asks   []ui.ConfirmMsg
	jpath  string
}

var subAccount = uuid.MustParse("7b0c5c1e-2a4b-4c8e-9a51-0d5e6f7a8b9c")

func newHarness(t *testing.T, svc api.Service, perms api.Permissions) *harness {
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &ui.Session{Client: svc, Env: ui.EnvSandbox, Profile: "test", Journal: j,
		Account: ui.Account{ID: subAccount, Name: "Filial"},
		Access:  &api.AccessInfo{Email: "operator@example.com", AccountPermissions: perms}}
	h := &harness{t: t, scr: New(s), jpath: j.Path()}
	h.scr.SetSize(100, 30)
	h.run(h.scr.Init())
	return h
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := runQuick(cmd)
	switch m := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range m {
			h.run(c)
		}
	case ui.ToastMsg:
		h.toasts = append(h.toasts, m)
	case ui.ConfirmMsg:
		h.asks = append(h.asks, m)
	case ui.RefreshedMsg:
	default:
		// tea.Sequence's message is an unexported slice of commands.
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			for i := range v.Len() {
				h.run(v.Index(i).Interface().(tea.Cmd))
			}
			return
		}
		switch msg.(type) {
		case loadedMsg, createdMsg, deletedMsg:
			h.send(msg)
		}
		// Anything else (the text input's cursor blink) would loop forever.
	}
}

func (h *harness) send(msg tea.Msg) {
	var cmd tea.Cmd
	h.scr, cmd = h.scr.Update(msg)
	h.run(cmd)
}

func (h *harness) key(keys ...string) {
	for _, k := range keys {
		h.send(keyPress(k))
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func (h *harness) view() string { return h.scr.View() }

func (h *harness) journal() []journal.Entry {
	h.t.Helper()
	es, err := journal.ReadFile(h.jpath)
	if err != nil {
		h.t.Fatalf("read journal: %v", err)
	}
	return es
}

func checkSize(t *testing.T, v string, w, hgt int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != hgt {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), hgt, v)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Fatalf("line wider than %d: %q", w, l)
		}
	}
}

// plainView is the screen as a user reads it, without escape codes.
func (h *harness) plainView() string { return ansi.Strip(h.scr.View()) }

// runQuick runs a command, giving up on those that wait (the text input's
// cursor blink sleeps half a second): the fake answers at once.
func runQuick(cmd tea.Cmd) tea.Msg {
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case m := <-ch:
		return m
	case <-time.After(250 * time.Millisecond):
		return nil
	}
}
