package tickets

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// fakeService serves tickets from memory, newest first, in pages.
type fakeService struct {
	api.Service
	mu       sync.Mutex
	tickets  []api.Ticket
	pageSize int
	queries  []api.TicketFilter
	gets     []uuid.UUID
	receipts []uuid.UUID
	failList error
}

func (f *fakeService) ListTickets(_ context.Context, q api.TicketFilter) (api.Page[api.Ticket], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	if f.failList != nil {
		return api.Page[api.Ticket]{}, f.failList
	}
	var match []api.Ticket
	for _, t := range f.tickets {
		if q.Status != "" && string(t.Status) != q.Status ||
			q.InputCurrency != "" && t.Quote.InputCurrency != q.InputCurrency ||
			q.OutputCurrency != "" && t.Quote.OutputCurrency != q.OutputCurrency ||
			q.OutputPaymentMethod != "" && t.Quote.OutputPaymentMethod != q.OutputPaymentMethod ||
			q.ExternalID != "" && t.ExternalID != q.ExternalID ||
			!q.CreatedAfter.IsZero() && t.CreatedAt.Before(q.CreatedAfter) ||
			!q.CreatedBefore.IsZero() && !t.CreatedAt.Before(q.CreatedBefore) {
			continue
		}
		match = append(match, t)
	}
	start := 0
	if q.Cursor != "" {
		start, _ = strconv.Atoi(q.Cursor)
	}
	size := f.pageSize
	if size == 0 {
		size = 50
	}
	end := min(start+size, len(match))
	p := api.Page[api.Ticket]{Items: append([]api.Ticket(nil), match[start:end]...)}
	if end < len(match) {
		p.Cursor = strconv.Itoa(end)
	}
	return p, nil
}

func (f *fakeService) GetTicket(_ context.Context, _ uuid.UUID, id uuid.UUID) (*api.Ticket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets = append(f.gets, id)
	for _, t := range f.tickets {
		if t.ID == id {
			c := t
			return &c, nil
		}
	}
	return nil, fmt.Errorf("%w: ticket %s", api.ErrNotFound, id)
}

func (f *fakeService) TicketReceipt(_ context.Context, _ uuid.UUID, id uuid.UUID) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.receipts = append(f.receipts, id)
	for _, t := range f.tickets {
		if t.ID == id && t.Status == api.TicketPaid {
			return []byte("%PDF-1.4 receipt of " + id.String()), nil
		}
	}
	return nil, fmt.Errorf("receipt not available")
}

func (f *fakeService) setStatus(id uuid.UUID, st api.TicketStatus) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.tickets {
		if f.tickets[i].ID == id {
			f.tickets[i].Status = st
		}
	}
}

func (f *fakeService) lastQuery() api.TicketFilter {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queries[len(f.queries)-1]
}

var testNow = time.Date(2026, 8, 20, 15, 0, 0, 0, time.UTC)

var brCode = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406100.005802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"

// makeTicket builds a realistic ticket: BRL over PIX to USDC on Polygon,
// with fees, a rebate on some, and the party records a paid one carries.
func makeTicket(i int, st api.TicketStatus) api.Ticket {
	created := testNow.Add(-time.Duration(i) * 17 * time.Minute)
	yes, no := true, false
	id := uuid.New()
	t := api.Ticket{
		ID: id, ExternalID: uuid.NewString(), WorkspaceID: uuid.New(), UserID: uuid.New(),
		Status:    st,
		CreatedAt: api.NewTime(created), UpdatedAt: api.NewTime(created.Add(time.Minute)), ExpiresAt: api.NewTime(created.Add(5 * time.Minute)),
		Quote: api.TicketQuote{
			ID: uuid.New(), TicketID: id,
			InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.New(int64(100000+i), -2),
			OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON", OutputAmount: decimal.New(int64(180123456+i), -6),
			BasePrice: decimal.RequireFromString("0.1812"), PairName: "BRLUSDC", CreatedAt: api.NewTime(created),
			AppliedFees: []api.Fee{
				{Type: "In Fee", Description: "PIX in", Amount: decimal.RequireFromString("1.50"), Currency: "BRL", Rebatable: &no},
				{Type: "Conversion Fee", Description: "0.3%", Amount: decimal.RequireFromString("3.00"), Currency: "BRL", Rebatable: &yes},
				{Type: "Gas Fee", Description: "polygon gas", Amount: decimal.RequireFromString("0.010000"), Currency: "USDC", Rebatable: &no},
			},
		},
		BrlPixInputInfo: &api.BrlPixInputInfo{ID: uuid.NewString(), TicketID: id.String(), ReferenceLabel: "ref" + strconv.Itoa(i), BrCode: brCode},
		BlockchainReceiverInfo: &api.BlockchainReceiverInfo{
			WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON",
		},
	}
	if st == api.TicketPaid || st == api.TicketProcessing {
		t.BrazilianFiatSenderInfo = &api.BrazilianFiatSenderInfo{
			Name: "Maria da Silva", TaxID: "12345678909", BankCode: "001", BranchCode: "0001", AccountNumber: "123456",
			AccountType: "checking", EndToEndID: fmt.Sprintf("E00000000202608201200%013d", i), BrCode: brCode,
		}
	}
	if st == api.TicketPaid {
		t.BlockchainReceiverInfo.TxHash = "0x8f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0"
		if i%3 == 0 {
			t.Rebate = &api.Rebate{ID: uuid.New(), TicketID: id, Amount: decimal.RequireFromString("0.54"), Currency: "USDC", DestinationWalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7"}
		}
	}
	if st == api.TicketFailed {
		t.FailureReason = "beneficiary bank refused the transfer"
	}
	return t
}

var cycle = []api.TicketStatus{api.TicketPaid, api.TicketPending, api.TicketPaid, api.TicketFailed, api.TicketExpired, api.TicketProcessing}

func makeTickets(n int) []api.Ticket {
	out := make([]api.Ticket, n)
	for i := range out {
		out[i] = makeTicket(i, cycle[i%len(cycle)])
	}
	return out
}

func newSession(t testing.TB, svc api.Service) *ui.Session {
	return &ui.Session{
		Client:   svc,
		Env:      ui.EnvSandbox,
		StateDir: t.TempDir(),
		Time:     screentest.NewClock(testNow),
		Access:   &api.AccessInfo{Email: "op@example.com", AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true}},
	}
}

// mine tells the screen's own messages, which go back to it, from those
// meant for the root.
func mine(msg tea.Msg) bool {
	switch msg.(type) {
	case pageMsg, detailMsg, refreshMsg, receiptMsg, exportMsg, tickMsg:
		return true
	}
	return false
}

// run executes a command and everything it leads to; it returns the
// messages meant for the root (toasts, navigation, confirmations) in the
// order they came.
func run(t testing.TB, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	return screentest.Settle(t, m, cmd, mine)
}

// press sends keys one by one, running what each one starts.
func press(t testing.TB, m *Model, keys ...string) []tea.Msg {
	t.Helper()
	return screentest.Send(t, m, mine, fakeservice.Keys(keys...)...)
}

// typeText types literal text into whatever has focus.
func typeText(t testing.TB, m *Model, text string) {
	t.Helper()
	screentest.Send(t, m, mine, fakeservice.Text(text)...)
}

func start(t testing.TB, svc *fakeService, w, h int) *Model {
	t.Helper()
	m := New(newSession(t, svc)).(*Model)
	m.SetSize(w, h)
	run(t, m, m.Init())
	return m
}

func screen(m *Model) string { return ansi.Strip(m.View()) }

func toasts(msgs []tea.Msg) []string {
	var out []string
	for _, m := range msgs {
		if t, ok := m.(ui.ToastMsg); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

func mustContain(t *testing.T, view string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Fatalf("screen lacks %q:\n%s", w, view)
		}
	}
}
