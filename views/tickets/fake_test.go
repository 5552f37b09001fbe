package tickets

import (
	"context"
	"fmt"
	"iter"
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
	mu       sync.Mutex
	tickets  []api.Ticket
	pageSize int
	queries  []api.TicketFilter
	gets     []uuid.UUID
	receipts []uuid.UUID
	failList error
}

// asked is how many lists were asked for: read under the lock, since
// G's read-ahead asks from a goroutine of its own.
func (f *fakeService) asked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queries)
}

func (f *fakeService) ListTickets(_ context.Context, q api.TicketFilter) (api.Page[api.Ticket], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	if f.failList != nil {
		return api.Page[api.Ticket]{}, f.failList
	}
	return fakeservice.Page(f.tickets, func(t api.Ticket) bool {
		return (q.Status == "" || string(t.Status) == q.Status) &&
			(q.InputCurrency == "" || t.Quote.InputCurrency == q.InputCurrency) &&
			(q.OutputCurrency == "" || t.Quote.OutputCurrency == q.OutputCurrency) &&
			(q.OutputPaymentMethod == "" || t.Quote.OutputPaymentMethod == q.OutputPaymentMethod) &&
			(q.ExternalID == "" || t.ExternalID == q.ExternalID) &&
			(q.CreatedAfter.IsZero() || !t.CreatedAt.Before(q.CreatedAfter)) &&
			(q.CreatedBefore.IsZero() || t.CreatedAt.Before(q.CreatedBefore))
	}, q.Cursor, f.pageSize), nil
}

func (f *fakeService) TicketPages(ctx context.Context, q api.TicketFilter) iter.Seq2[api.Page[api.Ticket], error] {
	return pagesOf(ctx, q, f.ListTickets)
}

// pagesOf reads the pages of q one after the other through list: the
// pages the client reads ahead, without the reading ahead.
func pagesOf(ctx context.Context, q api.TicketFilter, list func(context.Context, api.TicketFilter) (api.Page[api.Ticket], error)) iter.Seq2[api.Page[api.Ticket], error] {
	return func(yield func(api.Page[api.Ticket], error) bool) {
		for {
			p, err := list(ctx, q)
			if !yield(p, err) || err != nil || !p.More() {
				return
			}
			q.Cursor = p.Cursor
		}
	}
}

// takeGets are the tickets asked for one by one since the last call.
func (f *fakeService) takeGets() []uuid.UUID {
	f.mu.Lock()
	defer f.mu.Unlock()
	got := f.gets
	f.gets = nil
	return got
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

var cycle = []api.TicketStatus{api.TicketPaid, api.TicketUnpaid, api.TicketPaid, api.TicketFailed, api.TicketCanceled, api.TicketProcessing}

func makeTickets(n int) []api.Ticket {
	out := make([]api.Ticket, n)
	for i := range out {
		out[i] = makeTicket(i, cycle[i%len(cycle)])
	}
	return out
}

func newSession(t testing.TB, _ Service) *ui.Session {
	return &ui.Session{
		Env:      ui.EnvSandbox,
		StateDir: t.TempDir(),
		Time:     screentest.NewClock(testNow),
		Access:   &api.AccessInfo{Email: "op@example.com", AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true}},
	}
}

// drive is how a test drives a model: like the root does (see
// screentest.Driver), through watched, which keeps the messages the driver
// does not hand back (that the data is fresh).
type drive struct {
	*screentest.Driver
	seen []tea.Msg
}

// watched is the screen as the driver sees it.
type watched struct {
	*Model
	d *drive
}

func (w watched) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := w.Model.Update(msg)
	return w, w.d.wrap(cmd)
}

// wrap notes the RefreshedMsg cmd gives, in batches too.
func (d *drive) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case ui.RefreshedMsg:
			d.seen = append(d.seen, msg)
			return msg
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = d.wrap(c)
			}
			return out
		default:
			return msg
		}
	}
}

var drivers = map[*Model]*drive{}

func driver(t testing.TB, m *Model) *drive {
	d, ok := drivers[m]
	if !ok {
		d = &drive{}
		d.Driver = screentest.New(t, m.s, watched{m, d})
		drivers[m] = d
		t.Cleanup(func() { delete(drivers, m) })
	}
	return d
}

// since is what reached the root, and the fresh-data notes, while f ran.
func since(t testing.TB, m *Model, f func(d *drive)) []tea.Msg {
	t.Helper()
	d := driver(t, m)
	n, k := len(d.Out), len(d.seen)
	f(d)
	return append(append([]tea.Msg(nil), d.Out[n:]...), d.seen[k:]...)
}

// run executes a command and everything it leads to; it returns the
// messages meant for the root (toasts, navigation, confirmations).
func run(t testing.TB, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	return since(t, m, func(d *drive) { d.Run(d.wrap(cmd)) })
}

// press sends keys one by one, running what each one starts.
func press(t testing.TB, m *Model, keys ...string) []tea.Msg {
	t.Helper()
	return since(t, m, func(d *drive) { d.Key(keys...) })
}

// typeText types literal text into whatever has focus.
func typeText(t testing.TB, m *Model, text string) {
	t.Helper()
	since(t, m, func(d *drive) { d.Type(text) })
}

// deliver gives the screen a message the root broadcast and runs what it
// starts.
func deliver(t testing.TB, m *Model, msg tea.Msg) []tea.Msg {
	t.Helper()
	return since(t, m, func(d *drive) { d.Send(msg) })
}

// advance moves the fake clock, firing the timers due.
func advance(t testing.TB, m *Model, by time.Duration) []tea.Msg {
	t.Helper()
	return since(t, m, func(d *drive) { d.Advance(by) })
}

func start(t testing.TB, svc *fakeService, w, h int) *Model {
	t.Helper()
	m := New(newSession(t, svc), svc).(*Model)
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

func (f *fakeService) CancelTicket(_ context.Context, _ uuid.UUID, id uuid.UUID) (*api.Ticket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.tickets {
		if t := &f.tickets[i]; t.ID == id {
			if t.Status != api.TicketUnpaid {
				return nil, &api.Error{Status: 409, Code: "NOT_CANCELABLE", Message: fmt.Sprintf("ticket %s is %s; only UNPAID tickets can be canceled", id, t.Status)}
			}
			t.Status, t.Reason = api.TicketCanceled, "canceled by the caller while UNPAID"
			c := *t
			return &c, nil
		}
	}
	return nil, fmt.Errorf("%w: ticket %s", api.ErrNotFound, id)
}

func (f *fakeService) ListWebhookEvents(context.Context, api.WebhookEventFilter) (api.Page[api.WebhookEvent], error) {
	return api.Page[api.WebhookEvent]{}, nil
}
