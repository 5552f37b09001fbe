package approvals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// fakeService is an approver inbox in memory, with the service's rules on
// decisions (no self-approval, decided operations are final, minApprovals
// executes). Methods it does not override panic.
type fakeService struct {
	api.Service

	mu       sync.Mutex
	me       string
	ops      []*api.Operation
	approved []uuid.UUID
	rejected map[uuid.UUID]string
	gets     int
}

func (f *fakeService) find(id uuid.UUID) *api.Operation {
	for _, o := range f.ops {
		if o.ID == id {
			return o
		}
	}
	return nil
}

func listForm(o api.Operation) api.Operation {
	o.Approvers, o.DecodedQuote, o.Beneficiary = nil, nil, nil
	return o
}

func (f *fakeService) ListApproverOperations(_ context.Context, cursor string) (api.Page[api.Operation], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	// Two pages, to prove every page is loaded for the count.
	half := len(f.ops) / 2
	var items []api.Operation
	var next string
	if cursor == "" {
		for _, o := range f.ops[:half] {
			items = append(items, listForm(*o))
		}
		next = "page2"
	} else {
		for _, o := range f.ops[half:] {
			items = append(items, listForm(*o))
		}
	}
	return api.Page[api.Operation]{Items: items, Cursor: next}, nil
}

func (f *fakeService) GetOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets++
	o := f.find(id)
	if o == nil {
		return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: "no such operation"}
	}
	c := *o
	return &c, nil
}

func (f *fakeService) ApproveOperation(_ context.Context, id uuid.UUID) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := f.find(id)
	switch {
	case o == nil:
		return nil, &api.Error{Status: 404, Code: "NOT_FOUND"}
	case strings.EqualFold(o.RequesterEmail, f.me):
		return nil, &api.Error{Status: 403, Code: "SELF_APPROVAL", Message: "an access cannot approve its own request"}
	case o.Status != api.OperationPending:
		return nil, &api.Error{Status: 409, Code: "ALREADY_DECIDED"}
	}
	f.approved = append(f.approved, id)
	o.Approvals++
	for i := range o.Approvers {
		if o.Approvers[i].Email == f.me {
			o.Approvers[i].HasApproved = true
		}
	}
	if o.Approvals >= o.MinApprovals {
		o.Status = api.OperationExecuted
		o.ExecutedID = uuid.NewString()
	}
	c := *o
	return &c, nil
}

func (f *fakeService) RejectOperation(_ context.Context, id uuid.UUID, reason string) (*api.Operation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := f.find(id)
	if o == nil || o.Status != api.OperationPending {
		return nil, errors.New("not pending")
	}
	if f.rejected == nil {
		f.rejected = map[uuid.UUID]string{}
	}
	f.rejected[id] = reason
	o.Status, o.Reason = api.OperationRejected, reason
	c := *o
	return &c, nil
}

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func quoteJSON(in, out, inCur, outCur string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"inputCurrency":%q,"inputPaymentMethod":"PIX","inputAmount":%q,"outputCurrency":%q,
		"outputPaymentMethod":"POLYGON","outputAmount":%q,"basePrice":"0.1823","pairName":"%s%s",
		"appliedFees":[{"type":"Conversion Fee","amount":"5","currency":%q},{"type":"Gas Fee","amount":0.25,"currency":%q}]}`,
		inCur, in, outCur, out, inCur, outCur, inCur, outCur))
}

// newOp builds a pending operation requested by requester.
func newOp(requester string, in string, age time.Duration) *api.Operation {
	return &api.Operation{
		ID: uuid.New(), RequesterEmail: requester, OperationType: "CREATE_TICKET", Status: api.OperationPending,
		Approvals: 0, MinApprovals: 2, CreatedAt: api.NewTime(now.Add(-age)),
		SubAccountID: "", SubAccountName: "Matriz",
		Payload:      json.RawMessage(`{"quoteToken":"eyJhbGciOiJIUzI1NiJ9.very-long-opaque-token-value","externalId":"ext-1","ticketBlockchainOutput":{"beneficiaryWalletId":"0b7d0f55-5b1e-4f8e-8a43-7fd8b1b0c0aa"}}`),
		DecodedQuote: quoteJSON(in, "181.234500", "BRL", "USDC"),
		Beneficiary:  json.RawMessage(`{"id":"0b7d0f55-5b1e-4f8e-8a43-7fd8b1b0c0aa","alias":"cold wallet","walletAddress":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","walletChain":"POLYGON"}`),
		Approvers: []api.Approver{{AccessID: uuid.New(), Email: "approver1@example.com"}, {AccessID: uuid.New(), Email: "approver2@example.com"},
			{AccessID: uuid.New(), Email: "approver3@example.com"}},
	}
}

type harness struct {
	t      *testing.T
	scr    ui.Screen
	toasts []ui.ToastMsg
	asks   []ui.ConfirmMsg
	prompt []ui.PromptMsg
	navs   []ui.NavigateMsg
	jpath  string
}

func newHarness(t *testing.T, svc *fakeService, email string, perms api.Permissions) *harness {
	t.Helper()
	svc.me = email
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &ui.Session{Client: svc, Env: ui.EnvSandbox, Profile: "test", Journal: j, Now: func() time.Time { return now },
		Access: &api.AccessInfo{Email: email, AccountPermissions: perms}}
	h := &harness{t: t, scr: New(s), jpath: j.Path()}
	h.scr.SetSize(120, 30)
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
	case ui.PromptMsg:
		h.prompt = append(h.prompt, m)
	case ui.NavigateMsg:
		h.navs = append(h.navs, m)
	case ui.RefreshedMsg:
	case pageMsg, detailsMsg, detailMsg, decidedMsg, sendingMsg, pollMsg:
		h.send(msg)
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			for i := range v.Len() {
				h.run(v.Index(i).Interface().(tea.Cmd))
			}
		}
	}
}

func (h *harness) send(msg tea.Msg) {
	var cmd tea.Cmd
	h.scr, cmd = h.scr.Update(msg)
	h.run(cmd)
}

func (h *harness) key(keys ...string) {
	for _, k := range keys {
		var m tea.KeyPressMsg
		switch k {
		case "enter":
			m = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			m = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			m = tea.KeyPressMsg{Code: tea.KeyDown}
		default:
			m = tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		}
		h.send(m)
	}
}

func (h *harness) screen() *Screen { return h.scr.(*Screen) }

func (h *harness) selectOp(id uuid.UUID) {
	h.t.Helper()
	if !h.screen().table.Select(id.String()) {
		h.t.Fatalf("operation %s is not listed", id)
	}
}

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
