package compliance

import (
	"context"
	"encoding/json"
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

// fakeService keeps compliance records in memory and records what the
// screen sent; methods it does not override panic.
type fakeService struct {
	api.Service

	mu      sync.Mutex
	ubos    []api.UBO
	w8s     []api.W8BEN
	poa     []api.ProofOfAddressAttempt
	uboSent []api.CreateUBORequest
	w8Sent  []api.W8BENRequest
	w8JSON  []string
}

func (f *fakeService) ListUBOs(context.Context, uuid.UUID, string) (api.Page[api.UBO], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Page[api.UBO]{Items: append([]api.UBO(nil), f.ubos...)}, nil
}

func (f *fakeService) ListW8BENs(context.Context, uuid.UUID) ([]api.W8BEN, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]api.W8BEN(nil), f.w8s...), nil
}

func (f *fakeService) ListProofOfAddressAttempts(context.Context, api.TimeRangeFilter) (api.Page[api.ProofOfAddressAttempt], error) {
	return api.Page[api.ProofOfAddressAttempt]{Items: f.poa}, nil
}

func (f *fakeService) CreateUBO(_ context.Context, _ uuid.UUID, req api.CreateUBORequest) (uuid.UUID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.uboSent = append(f.uboSent, req)
	id := uuid.New()
	f.ubos = append(f.ubos, api.UBO{ID: id, FullName: req.FullName, DateOfBirth: req.DateOfBirth, CountryOfTaxID: req.CountryOfTaxID,
		TaxIDNumber: req.TaxIDNumber, HasControl: req.HasControl, PercentageOfOwnership: req.PercentageOfOwnership})
	return id, nil
}

func (f *fakeService) SubmitW8BEN(_ context.Context, _ uuid.UUID, req api.W8BENRequest) (*api.W8BEN, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.w8Sent = append(f.w8Sent, req)
	b, _ := json.Marshal(req)
	f.w8JSON = append(f.w8JSON, string(b))
	w := api.W8BEN{ID: uuid.New(), W8BenURL: "https://forms.example/w8ben/" + uuid.NewString() + ".pdf"}
	f.w8s = append(f.w8s, w)
	return &w, nil
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

func newHarness(t *testing.T, svc api.Service, perms api.Permissions) *harness {
	today = func() time.Time { return time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC) }
	t.Cleanup(func() { today = time.Now })
	t.Helper()
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &ui.Session{Client: svc, Env: ui.EnvSandbox, Profile: "test", Journal: j,
		Account: ui.Account{},
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
		case loadedMsg, submittedMsg:
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
