package payment

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
)

var (
	sub     = uuid.MustParse("5f0c1a7e-3b2d-4c8e-9f1a-6b7c8d9e0f12")
	bene    = uuid.MustParse("11111111-2222-4333-8444-555555555555")
	evmAddr = "0x52908400098527886E0F7030069857D2E4169EE7"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// base is a valid intent paying amount BRLA out of the balance to cur/method.
func base(cur, method string) Intent {
	return Intent{Account: sub, InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: cur, OutMethod: method,
		Amount: d("100"), Fixed: FixOutput, ExternalID: "erp-1", Pay: Destination{Kind: ToBeneficiary, ID: bene}}
}

// quoteOf is the quote the service would give for in.
func quoteOf(in Intent) *api.Quote {
	r := in.QuoteRequest()
	q := &api.Quote{QuoteToken: "tok", InputCurrency: r.InputCurrency, InputPaymentMethod: r.InputPaymentMethod,
		OutputCurrency: r.OutputCurrency, OutputPaymentMethod: r.OutputPaymentMethod, BlockchainSendMethod: r.BlockchainSendMethod,
		InputAmount: d("101"), OutputAmount: d("99")}
	if r.InputAmount.Valid {
		q.InputAmount = r.InputAmount.Decimal
	}
	if r.OutputAmount.Valid {
		q.OutputAmount = r.OutputAmount.Decimal
	}
	if in.Markup.Any() {
		q.MarkupCurrency, q.MarkupAmount = r.MarkupCurrency, api.OptionalDecimal{Decimal: d("1")}
	}
	return q
}

func body(t *testing.T, req api.CreateTicketRequest) string {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTicketRequestForEveryOutputKind: the body of every output kind of
// service.md §7.1, built from the intent and its quote.
func TestTicketRequestForEveryOutputKind(t *testing.T) {
	with := func(in Intent, f func(*Intent)) Intent { f(&in); return in }
	cases := []struct {
		name string
		in   Intent
		want string
	}{
		{"PIX to a registered beneficiary", with(base("BRL", "PIX"), func(in *Intent) { in.Reference = "invoice 7" }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBrlPixOutput":{"beneficiaryBrlBankAccountId":"` + bene.String() + `","pixMessage":"invoice 7"}}`},
		{"PIX to a key", with(base("BRL", "PIX"), func(in *Intent) { in.Pay = Destination{Kind: ToPixKey, PixKey: "maria@example.com"} }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBrlPixOutput":{"pixKey":"maria@example.com"}}`},
		{"PIX to bank fields", with(base("BRL", "PIX"), func(in *Intent) {
			in.Pay = Destination{Kind: ToBankAccount, Bank: BankAccount{TaxID: "52998224725", UserName: "Maria", BankCode: "001", BranchCode: "1234", AccountNumber: "56789", AccountType: "checking"}}
		}),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBrlPixOutput":{"taxId":"52998224725","userName":"Maria","bankCode":"001","branchCode":"1234","accountNumber":"56789","accountType":"checking"}}`},
		{"chain to a registered wallet", base("USDC", "POLYGON"),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBlockchainOutput":{"beneficiaryWalletId":"` + bene.String() + `"}}`},
		{"chain to an address", with(base("USDC", "BASE"), func(in *Intent) { in.Pay = Destination{Kind: ToAddress, Address: evmAddr, Memo: "m"} }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBlockchainOutput":{"walletChain":"BASE","walletAddress":"` + evmAddr + `","walletMemo":"m"}}`},
		{"chain to the account's own wallet", with(base("USDC", "POLYGON"), func(in *Intent) { in.Pay = Destination{Kind: ToOwnWallet} }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}}`},
		{"the balance", with(base("USDC", "INTERNAL"), func(in *Intent) { in.Pay = Destination{} }),
			`{"quoteToken":"tok","externalId":"erp-1"}`},
		{"USD by ACH", with(base("USD", "ACH"), func(in *Intent) { in.Reference = "inv 8" }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketUsdOutput":{"beneficiaryUsdBankAccountId":"` + bene.String() + `","achReference":"inv 8"}}`},
		{"USD by WIRE", with(base("USD", "WIRE"), func(in *Intent) { in.Reference = "inv 9" }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketUsdWireOutput":{"beneficiaryUsdBankAccountId":"` + bene.String() + `","wireMessage":"inv 9"}}`},
		{"EUR by SEPA", with(base("EUR", "SEPA"), func(in *Intent) { in.Reference = "Rechnung 1" }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketEurSepaOutput":{"beneficiaryEurBankAccountId":"` + bene.String() + `","sepaReference":"Rechnung 1"}}`},
		{"ARS to a CVU (no reference field)", with(base("ARS", "CVU"), func(in *Intent) { in.Reference = "stays in the file" }),
			`{"quoteToken":"tok","externalId":"erp-1","ticketArsOutput":{"beneficiaryArsBankAccountId":"` + bene.String() + `"}}`},
		{"COP by bank transfer", base("COP", "BANK-TRANSFER"),
			`{"quoteToken":"tok","externalId":"erp-1","ticketCopOutput":{"beneficiaryCopBankAccountId":"` + bene.String() + `"}}`},
		{"PIX in, chain TRANSFER in, markup", with(base("BRLA", "INTERNAL"), func(in *Intent) {
			in.InCurrency, in.InMethod, in.SendMethod, in.Pay = "USDC", "POLYGON", "TRANSFER", Destination{}
			in.From.Wallet = evmAddr
			in.Markup = Markup{Percent: decimal.NewNullDecimal(d("0.5")), Wallet: "0xWALLET"}
		}),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBlockchainInput":{"walletAddress":"` + evmAddr + `"},"ticketMarkupInput":{"markupWalletAddress":"0xWALLET"}}`},
		{"PIX input carries the remitter", with(base("BRLA", "INTERNAL"), func(in *Intent) {
			in.InCurrency, in.InMethod, in.Pay = "BRL", "PIX", Destination{}
			in.From.RemitterID = "r-1"
		}),
			`{"quoteToken":"tok","externalId":"erp-1","ticketBrlPixInput":{"remitterId":"r-1"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := tc.in.TicketRequest(quoteOf(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := body(t, req); got != tc.want {
				t.Errorf("body\n got %s\nwant %s", got, tc.want)
			}
			// The inbox reads the same intent back from the request.
			back := FromRequest(req, quoteOf(tc.in))
			back.Account, back.Amount, back.Fixed, back.Markup.Percent = tc.in.Account, tc.in.Amount, tc.in.Fixed, tc.in.Markup.Percent
			again, err := back.TicketRequest(quoteOf(tc.in))
			if err != nil {
				t.Fatalf("the request read back does not build again: %v", err)
			}
			if got := body(t, again); got != tc.want {
				t.Errorf("read back and built again\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestValidateRefuses(t *testing.T) {
	with := func(f func(*Intent)) Intent { in := base("BRL", "PIX"); f(&in); return in }
	cases := []struct {
		name, field, msg string
		in               Intent
	}{
		{"no input currency", "inputCurrency", "input currency is empty", with(func(in *Intent) { in.InCurrency = "" })},
		{"method of another currency", "outputPaymentMethod", "BRL does not travel by ACH", with(func(in *Intent) { in.OutMethod = "ACH" })},
		{"output-only input", "inputCurrency", "USD can only be paid out", with(func(in *Intent) { in.InCurrency, in.InMethod = "USD", "ACH" })},
		{"zero amount", "outputAmount", "greater than zero", with(func(in *Intent) { in.Amount = decimal.Zero })},
		{"too many decimals", "outputAmount", "at most 2 decimals", with(func(in *Intent) { in.Amount = d("1.234") })},
		{"PIX with no payee", "beneficiary", "name a BRL beneficiary", with(func(in *Intent) { in.Pay = Destination{} })},
		{"bad PIX key", "pixKey", "", with(func(in *Intent) { in.Pay = Destination{Kind: ToPixKey, PixKey: "not a key"} })},
		{"ACH to a PIX key", "beneficiary", "registered USD beneficiary", with(func(in *Intent) {
			in.OutCurrency, in.OutMethod, in.Pay = "USD", "ACH", Destination{Kind: ToPixKey, PixKey: "maria@example.com"}
		})},
		{"address on the wrong chain rules", "walletAddress", "TRON address", with(func(in *Intent) {
			in.OutCurrency, in.OutMethod, in.Pay = "USDT", "TRON", Destination{Kind: ToAddress, Address: evmAddr}
		})},
		{"chain input without a wallet", "ticketBlockchainInput.walletAddress", "sending wallet", with(func(in *Intent) { in.InCurrency, in.InMethod = "USDC", "POLYGON" })},
		{"markup of 100%", "markupFloatingFee", "under 100", with(func(in *Intent) { in.Markup.Percent = decimal.NewNullDecimal(d("100")) })},
		{"no external id", "externalId", "external id is empty", with(func(in *Intent) { in.ExternalID = " " })},
		{"external id in characters", "externalId", "101 characters", with(func(in *Intent) { in.ExternalID = strings.Repeat("é", 101) })},
		{"long reference", "reference", "at most 140", with(func(in *Intent) { in.Reference = strings.Repeat("x", 141) })},
		{"send method", "blockchainSendMethod", "PERMIT or TRANSFER", with(func(in *Intent) { in.SendMethod = "PULL" })},
	}
	for _, tc := range cases {
		err := tc.in.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v, want a *FieldError", tc.name, err)
			continue
		}
		if fe.Field != tc.field || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%s: %s %q, want %s %q", tc.name, fe.Field, fe.Msg, tc.field, tc.msg)
		}
	}
	// 100 é are 100 characters, however many bytes.
	ok := base("BRL", "PIX")
	ok.ExternalID, ok.Reference = strings.Repeat("é", 100), strings.Repeat("ç", 140)
	if err := ok.Validate(); err != nil {
		t.Errorf("100 characters refused: %v", err)
	}
}

func TestTicketRequestRefusesTheQuoteOfAnotherIntent(t *testing.T) {
	in := base("BRL", "PIX")
	q := quoteOf(in)
	q.OutputAmount = d("1000")
	if _, err := in.TicketRequest(q); err == nil || !strings.Contains(err.Error(), "the quote pays 1000.00 BRL, the payment 100.00") {
		t.Errorf("a quote of another amount: %v", err)
	}
	q = quoteOf(in)
	q.OutputCurrency = "USD"
	if _, err := in.TicketRequest(q); err == nil {
		t.Error("a quote of another currency was accepted")
	}
	mk := base("BRL", "PIX")
	mk.Markup.Percent = decimal.NewNullDecimal(d("1"))
	if _, err := mk.TicketRequest(quoteOf(mk)); err == nil || !strings.Contains(err.Error(), "service wallet") {
		t.Errorf("a markup without its wallet: %v", err)
	}
}

func TestQuoteRequest(t *testing.T) {
	in := base("USDC", "POLYGON")
	in.Fixed, in.Amount = FixInput, d("250.5")
	in.Markup = Markup{Percent: decimal.NewNullDecimal(d("0.5")), OutputFixed: decimal.NewNullDecimal(d("1"))}
	q := in.QuoteRequest()
	switch {
	case q.SubAccountID != sub, !q.InputAmount.Valid || !q.InputAmount.Decimal.Equal(d("250.5")), q.OutputAmount.Valid:
		t.Errorf("amounts/account: %+v", q)
	case q.BlockchainSendMethod != "PERMIT":
		t.Errorf("a token input sends PERMIT unless told otherwise (service.md §8.4): %q", q.BlockchainSendMethod)
	case !q.MarkupFloatingFee.Decimal.Equal(d("0.005")) || q.MarkupCurrency != "BRLA":
		t.Errorf("markup: %+v", q)
	}
	pix := base("BRLA", "INTERNAL")
	pix.InCurrency, pix.InMethod = "BRL", "PIX"
	if q := pix.QuoteRequest(); q.BlockchainSendMethod != "" {
		t.Errorf("a PIX input has no send method: %q", q.BlockchainSendMethod)
	}
}

func TestNeedsAndCheck(t *testing.T) {
	all := api.Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true}
	access := func(f func(*api.AccessInfo)) *api.AccessInfo {
		a := &api.AccessInfo{AccountPermissions: all}
		f(a)
		return a
	}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	pix := base("BRL", "PIX")
	own := base("BRLA", "POLYGON")
	own.Pay = Destination{Kind: ToOwnWallet}
	if n := own.Needs(); n.PayOut || n.Convert || !n.OnChain {
		t.Errorf("to the own wallet: %+v", n)
	}
	if n := pix.Needs(); !n.PayOut || !n.Convert || n.OnChain || n.PayIn {
		t.Errorf("BRLA to PIX: %+v", n)
	}
	cases := []struct {
		name string
		a    *api.AccessInfo
		in   Intent
		flag string
	}{
		{"everything", access(func(*api.AccessInfo) {}), pix, ""},
		{"view only", access(func(a *api.AccessInfo) { a.AccountPermissions.ViewOnly = true }), pix, "viewOnly"},
		{"frozen", access(func(a *api.AccessInfo) { a.FrozenUntil = api.NewTime(now.Add(time.Hour)) }), pix, "frozen"},
		{"blacklisted", access(func(a *api.AccessInfo) { a.BlacklistedAccountIDs = []uuid.UUID{sub} }), pix, "blacklisted"},
		{"payOut", access(func(a *api.AccessInfo) { a.AccountPermissions.PayOut = false }), pix, "payOut"},
		{"own wallet needs no payOut", access(func(a *api.AccessInfo) { a.AccountPermissions.PayOut = false }), own, ""},
		{"convert", access(func(a *api.AccessInfo) { a.AccountPermissions.Convert = false }), pix, "convert"},
		{"inline payee", access(func(a *api.AccessInfo) { a.AccountPermissions.EnforceAllowedBeneficiaries = true }),
			func() Intent { in := pix; in.Pay = Destination{Kind: ToPixKey, PixKey: "maria@example.com"}; return in }(), "enforceAllowedBeneficiaries"},
	}
	for _, tc := range cases {
		err := Check(tc.a, tc.in.Account, tc.in.Needs(), now)
		var de *DeniedError
		switch {
		case tc.flag == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.flag != "" && (!errors.As(err, &de) || de.Flag != tc.flag || !errors.Is(err, ErrDenied)):
			t.Errorf("%s: %v, want a refusal naming %s", tc.name, err, tc.flag)
		}
	}
}

func TestUsageOver(t *testing.T) {
	li := &api.LimitInfo{Limits: []api.Limit{{Currency: "BRL", MaxFiatOut: d("1000"), UsedLimit: api.UsedLimit{UsedFiatOut: d("900")}},
		{Currency: "USDC", MaxChainOut: d("50")}}}
	var u Usage
	u.Add(&api.Quote{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", InputAmount: d("60"), OutputCurrency: "BRL", OutputPaymentMethod: "PIX", OutputAmount: d("60")})
	if over := u.Over(li); len(over) != 0 {
		t.Errorf("60 of 100 left: %v", over)
	}
	u.Add(&api.Quote{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", InputAmount: d("41"), OutputCurrency: "BRL", OutputPaymentMethod: "PIX", OutputAmount: d("41")})
	u.Add(&api.Quote{InputCurrency: "USDC", InputPaymentMethod: "INTERNAL", InputAmount: d("51"), OutputCurrency: "USDC", OutputPaymentMethod: "BASE", OutputAmount: d("51")})
	over := u.Over(li)
	if len(over) != 2 || over[0] != "101.00 BRL out by fiat rails, 100.00 BRL left this month" || !strings.HasPrefix(over[1], "51.000000 USDC out to chains") {
		t.Errorf("over: %q", over)
	}
	if got := u.Over(&api.LimitInfo{Blocked: true}); len(got) != 1 || !strings.Contains(got[0], "blocked") {
		t.Errorf("blocked: %q", got)
	}
}

// fakeService holds tickets by external id and records creations.
type fakeService struct {
	held    map[string]*api.Ticket
	created []api.CreateTicketRequest
	parks   bool
	lose    bool // answer with a reconciled ticket
}

func (f *fakeService) FindTicketByExternalID(_ context.Context, _ uuid.UUID, id string) (*api.Ticket, bool, error) {
	t, ok := f.held[id]
	return t, ok, nil
}

func (f *fakeService) CreateTicket(_ context.Context, _ uuid.UUID, req api.CreateTicketRequest) (*api.CreateTicketResult, error) {
	f.created = append(f.created, req)
	if f.parks {
		return &api.CreateTicketResult{Parked: true, Operation: &api.Operation{ID: uuid.New()}}, nil
	}
	t := &api.Ticket{ID: uuid.New(), ExternalID: req.ExternalID}
	return &api.CreateTicketResult{Ticket: t, Reconciled: f.lose}, nil
}

type memJournal struct{ entries []journal.Entry }

func (m *memJournal) Record(e journal.Entry) error { m.entries = append(m.entries, e); return nil }

func ticketOf(in Intent, q *api.Quote) *api.Ticket {
	return &api.Ticket{ID: uuid.New(), ExternalID: in.ExternalID, Quote: api.TicketQuote{InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputPaymentMethod,
		InputAmount: q.InputAmount, OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputPaymentMethod, OutputAmount: q.OutputAmount}}
}

func TestSendOnce(t *testing.T) {
	ctx := context.Background()
	in := base("BRL", "PIX")
	q := quoteOf(in)

	svc, j := &fakeService{held: map[string]*api.Ticket{}}, &memJournal{}
	out, err := Send(ctx, svc, j, in, q)
	if err != nil || out.Status != Created || len(svc.created) != 1 {
		t.Fatalf("first send: %+v %v, %d created", out, err, len(svc.created))
	}
	if e := j.entries[0]; e.Action != ActionCreate || e.IDs["ticketId"] != out.Ticket.ID.String() || e.IDs["beneficiaryBrlBankAccountId"] != bene.String() ||
		e.Account != sub.String() || e.Amounts["output"] != "100.00 BRL PIX" || e.Outcome != "created" {
		t.Errorf("journal: %+v", e)
	}

	// The same intent again: found, nothing sent.
	svc.held[in.ExternalID] = ticketOf(in, q)
	out, err = Send(ctx, svc, j, in, q)
	if err != nil || out.Status != Existing || len(svc.created) != 1 {
		t.Fatalf("same intent again: %+v %v, %d created", out, err, len(svc.created))
	}

	// Another intent under the same id: refused, naming both.
	other := base("BRLA", "INTERNAL")
	other.InCurrency, other.Fixed, other.Amount, other.Pay = "USDC", FixInput, d("5"), Destination{}
	out, err = Send(ctx, svc, j, other, quoteOf(other))
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || len(svc.created) != 1 {
		t.Fatalf("another intent under erp-1: %+v %v, %d created", out, err, len(svc.created))
	}
	for _, want := range []string{"external id erp-1 already names ticket", "101.000000 BRLA INTERNAL → 100.00 BRL PIX", "5.000000 USDC INTERNAL → BRLA INTERNAL", "nothing was created"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("conflict %q lacks %q", err, want)
		}
	}
	if last := j.entries[len(j.entries)-1]; !strings.HasPrefix(last.Outcome, "refused: external id erp-1") {
		t.Errorf("conflict journaled as %q", last.Outcome)
	}

	// The same currencies, another amount: a conflict too.
	more := in
	more.Amount = d("200")
	if _, err := Send(ctx, svc, nil, more, quoteOf(more)); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "it moves 100.00 BRL, this payment 200.00 BRL") {
		t.Errorf("another amount: %v", err)
	}

	// A reconciled answer is compared with the intent.
	lost := &fakeService{held: map[string]*api.Ticket{}, lose: true}
	if _, err := Send(ctx, lost, nil, in, q); !errors.Is(err, ErrConflict) {
		t.Errorf("a reconciled ticket of another payment was believed: %v", err)
	}

	parks := &fakeService{held: map[string]*api.Ticket{}, parks: true}
	if out, err := Send(ctx, parks, j, in, q); err != nil || out.Status != Parked || out.Operation == nil {
		t.Errorf("parked: %+v %v", out, err)
	}
	if last := j.entries[len(j.entries)-1]; last.Outcome != "parked" || last.IDs["operationId"] == "" {
		t.Errorf("parked journaled as %+v", last)
	}
}

func TestMatchComparesThePayeeTheTicketNames(t *testing.T) {
	in := base("USDC", "BASE")
	in.Pay = Destination{Kind: ToAddress, Address: evmAddr}
	tk := ticketOf(in, quoteOf(in))
	tk.BlockchainReceiverInfo = &api.BlockchainReceiverInfo{WalletAddress: strings.ToLower(evmAddr)}
	if err := Match(tk, in); err != nil {
		t.Errorf("same address in another case: %v", err)
	}
	tk.BlockchainReceiverInfo.WalletAddress = "0x0000000000000000000000000000000000000001"
	if err := Match(tk, in); !errors.Is(err, ErrConflict) {
		t.Errorf("another address: %v", err)
	}
}

// A move between accounts (service.md §8.5) is an INTERNAL output naming
// the other account: built once, read back the same, a payout for the
// permissions, and never to the account it comes from.
func TestAMoveNamesTheOtherAccount(t *testing.T) {
	sub := uuid.MustParse("0d5a3c6e-9f1b-4c1e-8a7d-2b9e6f4a1c30")
	in := Intent{InCurrency: "USDT", InMethod: "INTERNAL", OutCurrency: "USDT", OutMethod: "INTERNAL",
		Amount: decimal.NewFromInt(100), Pay: Destination{Kind: ToAccount, ID: sub}, ExternalID: "move-1"}
	q := &api.Quote{QuoteToken: "qt", InputCurrency: "USDT", InputPaymentMethod: "INTERNAL", InputAmount: decimal.NewFromInt(100),
		OutputCurrency: "USDT", OutputPaymentMethod: "INTERNAL", OutputAmount: decimal.NewFromInt(100)}
	req, err := in.TicketRequest(q)
	if err != nil {
		t.Fatal(err)
	}
	if o := req.TicketBlockchainOutput; o == nil || o.BeneficiaryWalletID == nil || *o.BeneficiaryWalletID != sub || o.WalletAddress != "" {
		t.Fatalf("output block %+v, want beneficiaryWalletId %s", o, sub)
	}
	if back := FromRequest(req, q); back.Pay.Kind != ToAccount || back.Pay.ID != sub {
		t.Errorf("read back as %+v", back.Pay)
	}
	if !in.Needs().PayOut {
		t.Error("a move out of the account does not need payOut")
	}
	self := in
	self.Account = sub
	if err := self.Validate(); err == nil {
		t.Error("a move to the account it comes from validated")
	}
	// The nil id keeps the output in the balance, as before.
	own := in
	own.Pay = Destination{Kind: ToBalance}
	if r, _ := own.TicketRequest(q); r.TicketBlockchainOutput != nil || own.Needs().PayOut {
		t.Errorf("an output kept in the balance: block %+v, payOut %v", r.TicketBlockchainOutput, own.Needs().PayOut)
	}
}
