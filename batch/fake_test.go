package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// fakeClock is a clock the tests move.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fake is a service that keeps tickets by external id and refuses
// expired quotes on the fake clock, as the sandbox does.
type fake struct {
	mu      sync.Mutex
	clock   *fakeClock
	info    api.AccessInfo
	bal     api.Balances
	limits  api.LimitInfo
	brl     []api.BRLAccount
	wallets []api.Wallet
	usd     []api.USDAccount
	eur     []api.EURAccount
	ars     []api.ARSAccount
	cop     []api.COPAccount
	// listErr fails the list of a kind ("usd", "eur", "ars", "cop").
	listErr map[string]error
	holders map[string]api.PixInfo
	// rate is what one unit of output costs in input, before a 1.00 fee.
	rate decimal.Decimal

	quotes  map[string]time.Time // token -> expiry
	priced  map[string]api.Quote // token -> the quote, which its ticket carries
	nquotes int
	tickets map[string]api.Ticket // by external id
	// bodies are the creation requests as sent on the wire, by external id.
	bodies  map[string][]byte
	ops     map[string]uuid.UUID
	creates int
	// onCreate runs before each creation is decided (under no lock); an
	// error is the service's answer.
	onCreate func(n int, req api.CreateTicketRequest) error
	// createTakes is how long each creation takes on the fake clock.
	createTakes time.Duration
	parks       bool
}

func newFake(clock *fakeClock) *fake {
	return &fake{
		clock: clock,
		info:  api.AccessInfo{AccountPermissions: api.Permissions{PayOut: true, Convert: true, PayIn: true, OnChain: true}},
		bal:   api.Balances{"BRLA": decimal.RequireFromString("100000"), "USDC": decimal.RequireFromString("1000")},
		limits: api.LimitInfo{Limits: []api.Limit{{Currency: "BRL", MaxFiatOut: decimal.RequireFromString("50000"),
			UsedLimit: api.UsedLimit{UsedFiatOut: decimal.RequireFromString("1000")}}}},
		brl: []api.BRLAccount{
			{ID: uuid.New(), Alias: "Maria Silva", PixKey: "52998224725", PixKeyType: "CPF", TaxID: "52998224725"},
			{ID: uuid.New(), Alias: "Pedro Lima", PixKey: "pedro@example.com", PixKeyType: "EMAIL"},
			{ID: uuid.New(), Alias: "Gone Key", PixKey: "gone@example.com", PixKeyType: "EMAIL"},
			{ID: uuid.New(), Alias: "Twin", PixKey: "+5511987654321"},
			{ID: uuid.New(), Alias: "Twin", PixKey: "+5511987654322"},
			{ID: uuid.New(), Alias: "Bank Co", TaxID: "11222333000181", UserName: "Bank Co Ltda", BankCode: "341", BranchCode: "1", AccountNumber: "123"},
		},
		wallets: []api.Wallet{{ID: uuid.New(), Alias: "Cold", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"}},
		usd: []api.USDAccount{
			{ID: uuid.New(), Alias: "Acme Inc", BankAccountNumber: "000123456789", BankRoutingNumber: "021000021", BankBeneficiaryName: "Acme Incorporated", BankName: "Chase"},
			// The same alias as a BRL beneficiary: the currency tells them apart.
			{ID: uuid.New(), Alias: "Pedro Lima", BankAccountNumber: "987654321", BankRoutingNumber: "026009593", BankBeneficiaryName: "Pedro Lima"},
		},
		eur: []api.EURAccount{{ID: uuid.New(), Alias: "Zeta GmbH", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Country: "DEU", BankBeneficiaryName: "Zeta GmbH"}},
		ars: []api.ARSAccount{{ID: uuid.New(), Alias: "Zeta SA", CVU: "0000003100010000000009"}},
		cop: []api.COPAccount{{ID: uuid.New(), Alias: "Andes SAS", BeneficiaryName: "Andes S.A.S.", BankAccountNumber: "1234567890", BankName: "Bancolombia"}},
		holders: map[string]api.PixInfo{
			"52998224725":       {Name: "Maria S. Silva", TaxID: "***.982.247-**", BankName: "Banco Um"},
			"pedro@example.com": {Name: "Pedro Lima", TaxID: "***.111.222-**", BankName: "Banco Dois"},
			"+5511987654321":    {Name: "Twin One"},
			"+5511987654322":    {Name: "Twin Two"},
		},
		rate:    decimal.RequireFromString("1.01"),
		quotes:  map[string]time.Time{},
		priced:  map[string]api.Quote{},
		tickets: map[string]api.Ticket{},
		bodies:  map[string][]byte{},
		ops:     map[string]uuid.UUID{},
	}
}

// registered is every beneficiary of the fake, for NewDirectory.
func (f *fake) registered() Registered {
	return Registered{BRL: f.brl, Wallets: f.wallets, USD: f.usd, EUR: f.eur, ARS: f.ars, COP: f.cop}
}

func (f *fake) AccessInfo(context.Context) (*api.AccessInfo, error) { i := f.info; return &i, nil }
func (f *fake) Balances(context.Context, uuid.UUID) (api.Balances, error) {
	return f.bal, nil
}
func (f *fake) Limits(context.Context, uuid.UUID) (*api.AccountLimits, error) {
	return &api.AccountLimits{LimitInfo: f.limits}, nil
}
func (f *fake) PixInfo(_ context.Context, key string) (*api.PixInfo, error) {
	h, ok := f.holders[key]
	if !ok {
		return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: "no such key"}
	}
	return &h, nil
}
func (f *fake) ListBRLAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.BRLAccount], error) {
	return api.Page[api.BRLAccount]{Items: f.brl}, nil
}
func (f *fake) ListWallets(context.Context, api.WalletFilter) (api.Page[api.Wallet], error) {
	return api.Page[api.Wallet]{Items: f.wallets}, nil
}

func (f *fake) ListUSDAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.USDAccount], error) {
	return api.Page[api.USDAccount]{Items: f.usd}, f.listErr["usd"]
}
func (f *fake) ListEURAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.EURAccount], error) {
	return api.Page[api.EURAccount]{Items: f.eur}, f.listErr["eur"]
}
func (f *fake) ListARSAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.ARSAccount], error) {
	return api.Page[api.ARSAccount]{Items: f.ars}, f.listErr["ars"]
}
func (f *fake) ListCOPAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.COPAccount], error) {
	return api.Page[api.COPAccount]{Items: f.cop}, f.listErr["cop"]
}

func (f *fake) Quote(_ context.Context, req api.QuoteRequest) (*api.Quote, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nquotes++
	tok := fmt.Sprintf("q-%d", f.nquotes)
	f.quotes[tok] = f.clock.Now().Add(QuoteLife)
	out := req.OutputAmount.Decimal
	in := out.Mul(f.rate).Add(decimal.NewFromInt(1)).RoundUp(2)
	q := &api.Quote{QuoteToken: tok, InputCurrency: req.InputCurrency, InputPaymentMethod: req.InputPaymentMethod, InputAmount: in,
		OutputCurrency: req.OutputCurrency, OutputPaymentMethod: req.OutputPaymentMethod, OutputAmount: out,
		AppliedFees: []api.Fee{{Type: "Fee", Amount: decimal.NewFromInt(1), Currency: req.InputCurrency}}}
	f.priced[tok] = *q
	return q, nil
}

func (f *fake) CreateTicket(ctx context.Context, _ uuid.UUID, req api.CreateTicketRequest) (*api.CreateTicketResult, error) {
	f.mu.Lock()
	f.creates++
	n := f.creates
	hook := f.onCreate
	f.mu.Unlock()
	if hook != nil {
		if err := hook(n, req); err != nil {
			return nil, err
		}
	}
	// A request whose context ended is cut off on its way, as over HTTP.
	if err := ctx.Err(); err != nil {
		return nil, &api.OutcomeUnknownError{ExternalID: req.ExternalID, Cause: err}
	}
	f.clock.Advance(f.createTakes)
	f.mu.Lock()
	defer f.mu.Unlock()
	exp, ok := f.quotes[req.QuoteToken]
	if !ok || !f.clock.Now().Before(exp) {
		return nil, &api.Error{Status: 400, Code: "QUOTE_EXPIRED", Message: "quote expired"}
	}
	if f.parks {
		id := uuid.New()
		f.ops[req.ExternalID] = id
		return &api.CreateTicketResult{Parked: true, Operation: &api.Operation{ID: id}}, nil
	}
	if _, dup := f.tickets[req.ExternalID]; dup {
		return nil, fmt.Errorf("duplicate creation for %s", req.ExternalID)
	}
	q := f.priced[req.QuoteToken]
	t := api.Ticket{ID: uuid.New(), ExternalID: req.ExternalID, Status: "PROCESSING", Quote: api.TicketQuote{
		InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputPaymentMethod, InputAmount: q.InputAmount,
		OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputPaymentMethod, OutputAmount: q.OutputAmount}}
	f.tickets[req.ExternalID] = t
	if b, err := json.Marshal(req); err == nil {
		f.bodies[req.ExternalID] = b
	}
	return &api.CreateTicketResult{Ticket: &t}, nil
}

func (f *fake) FindTicketByExternalID(_ context.Context, _ uuid.UUID, ext string) (*api.Ticket, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.tickets[ext]
	return &t, ok, nil
}

func (f *fake) count() (tickets, quotes, creates int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.tickets), f.nquotes, f.creates
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
}

// rows makes a file of n payouts to Maria Silva.
func rows(n int) string {
	var b strings.Builder
	b.WriteString("beneficiary,amount,currency\n")
	for i := range n {
		fmt.Fprintf(&b, "Maria Silva,%d.50,BRL\n", 10+i)
	}
	return b.String()
}

func mustParse(t testing.TB, s string) *File {
	t.Helper()
	f, err := Parse([]byte(s), "payouts")
	if err != nil {
		t.Fatal(err)
	}
	return f
}
