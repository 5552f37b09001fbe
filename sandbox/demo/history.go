package demo

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// Demo history sizes (spec/service.md §6: about 300 tickets over 90 days).
const (
	demoTicketsMain = 300
	demoTicketsSub  = 40
	demoDays        = 90
)

// demoCurrencies are the balances of the demo accounts.
var demoCurrencies = []string{"BRLA", "USDC", "USDT", "EURC"}

// liveConvertAge is the age of each account's live conversion, being
// delivered when the sandbox starts.
const liveConvertAge = 500 * time.Millisecond

// demoEpoch anchors the demo history's exchange rates: a ticket made
// an hour before the history's "now" is priced at demoEpoch minus an hour,
// so its amounts depend on the seed only, never on when the sandbox
// started.
var demoEpoch = time.Date(2025, 1, 6, 12, 0, 0, 0, time.UTC)

// past is a demo history being built: the engine, its History (the lock
// held), the demo's source, the seed and the history's "now".
type past struct {
	e    *engine.Engine
	h    *engine.History
	r    demoRand
	seed int64
	now  time.Time
}

// rateClock is the time a demo quote made at at is priced at.
func (p *past) rateClock(at time.Time) time.Time { return demoEpoch.Add(at.Sub(p.now)) }

// History takes e's lock and returns the work that builds the demo
// history behind it, in one transaction, and releases it: the caller runs
// it in the background. Meanwhile who the caller is, its accounts and
// today's balances are answered from the present it declares
// (engine.History.Present); other requests wait the few hundred
// milliseconds it takes. A refusal while it is built is a defect of the demo data
// itself (the history is made by the request code from fixed inputs), and
// every request is then answered with it.
func (d *Demo) History(e *engine.Engine) (build func()) {
	r := newDemoRand(d.seed, "activity")
	now := e.Now()
	p := &past{e: e, h: e.BeginHistory(r, now), r: r, seed: d.seed, now: now}
	// Until the history is built, balances are answered from today's: the
	// history brings them there, and the first of its tickets to move one
	// afterwards is the live conversion's delivery.
	p.h.Present(d.today, now.Add(-liveConvertAge+e.Scaled(engine.DeliveryDelay)))
	return func() {
		defer p.h.End()
		if err := p.build(d.today); err != nil {
			p.h.Fail(err)
		}
	}
}

// build fills the demo accounts with their history: beneficiaries,
// webhooks, tickets in every state, multi-signature operations, webhook
// attempts, trades and compliance records. The history is made by the same
// code that serves requests, run at past times, so it obeys every rule.
func (p *past) build(today map[*engine.Account]map[string]decimal.Decimal) error {
	h, r, now := p.h, p.r, p.now
	// The accounts and today's balances are the demo's truth; the history
	// runs on a float large enough for any demo ticket, and the balances
	// are brought back to today's at the end. Both are ledger moves, so
	// every balance stays the sum of its moves.
	h.SaveSettings(p.seed)
	accts := append([]*engine.Account{h.Main()}, h.SubAccounts()...)
	for _, a := range accts {
		h.SaveAccount(a)
		for _, c := range demoCurrencies {
			h.Open(a, c, decimal.NewFromInt(1_000_000_000), a.CreatedAt)
		}
	}

	fiat := newDemoRand(p.seed, "beneficiaries/eur-ars")
	for i, a := range accts {
		p.beneficiaries(a)
		p.payees(fiat, a)
		if i <= 1 {
			h.AddWebhook(a, &engine.Webhook{ID: r.uuid(), URL: engine.DemoReceiverURL, Subscriptions: []string{"TICKET"}, CreatedAt: now.Add(-120 * 24 * time.Hour)})
		}
	}
	operator := h.AccessByMail("operator@" + demoDomain)
	for i, a := range accts {
		n := demoTicketsSub
		if i == 0 {
			n = demoTicketsMain
		}
		for j := 0; j < n; j++ {
			age := time.Duration(r.Int64N(int64(demoDays * 24 * time.Hour)))
			if err := p.ticket(a, operator, now.Add(-age)); err != nil {
				return err
			}
		}
		// Live ones: waiting for a large PIX payment, and being delivered.
		for j := 0; j < 2; j++ {
			if err := p.scenario(a, operator, now.Add(-time.Duration(40+j*30)*time.Second), scenarioLargePIX, false, false); err != nil {
				return err
			}
		}
		if err := p.scenario(a, operator, now.Add(-liveConvertAge), scenarioConvert, false, false); err != nil {
			return err
		}
		if i == 0 {
			if err := p.liveStates(a, operator); err != nil {
				return err
			}
		}
	}
	if err := p.operations(); err != nil {
		return err
	}
	h.Advance(now)
	// Today one sub-account, the individual Acme Brokerage, may not use
	// the USD rail (§8.7); its past USD payouts predate the lock.
	if err := h.LockRail(accts[2], "USD"); err != nil {
		return err
	}
	for _, a := range accts {
		for _, c := range h.Currencies(a) {
			h.SetBalance(a, c, today[a][c], now)
		}
		if err := p.trades(a); err != nil {
			return err
		}
		p.compliance(a)
		h.Changed(a)
	}
	return p.orderLedgerByTime()
}

// orderLedgerByTime rewrites the demo ledger in time order, with the
// opening balances a real account would show. The history is made ticket
// by ticket at random past times on a float of a billion per currency that
// is brought back to today's balances at the end, so the moves were written
// out of time order and two of them per currency are enormous. Here each
// account and currency gets one opening move, at the account's creation,
// of just what keeps its balance from ever going below zero (today's
// balance less the history's net, or more when the history dipped deeper),
// and, only where more was needed, one transfer out of the difference at
// the end. A statement read over any date range (ordered by id, as the
// service's is) then adds up from the balance before the range to the
// balance after it, and no line is larger than the business it records.
// The balances do not change: they are still the sum of their moves.
func (p *past) orderLedgerByTime() error {
	type book struct {
		first, last int64           // the float's two moves: the account's creation, now
		final       decimal.Decimal // today's balance
		net, low    decimal.Decimal // the history's net, and its lowest running sum
		running     decimal.Decimal
	}
	moves, err := p.h.Ledger()
	if err != nil {
		return err
	}
	var history []store.LedgerMove
	books := map[[2]string]*book{}
	var keys [][2]string
	for _, m := range moves {
		k := [2]string{m.Account, m.Currency}
		bk := books[k]
		if bk == nil {
			bk = &book{first: m.At, last: m.At}
			books[k] = bk
			keys = append(keys, k)
		}
		bk.final = bk.final.Add(m.Amount)
		if m.Reason == engine.MoveOpening && !m.Ticket.Valid {
			bk.first, bk.last = min(bk.first, m.At), max(bk.last, m.At)
			continue
		}
		bk.net = bk.net.Add(m.Amount)
		bk.running = bk.running.Add(m.Amount)
		bk.low = decimal.Min(bk.low, bk.running)
		history = append(history, m)
	}
	var out []store.LedgerMove
	for _, k := range keys {
		bk := books[k]
		opening := decimal.Max(bk.final.Sub(bk.net), bk.low.Neg())
		if !opening.IsZero() {
			out = append(out, store.LedgerMove{Account: k[0], Currency: k[1], Reason: engine.MoveOpening, Amount: opening, At: bk.first})
		}
		if w := bk.final.Sub(opening).Sub(bk.net); !w.IsZero() {
			out = append(out, store.LedgerMove{Account: k[0], Currency: k[1], Reason: engine.MoveTransfer, Amount: w, At: bk.last})
		}
	}
	out = append(out, history...)
	slices.SortStableFunc(out, func(a, b store.LedgerMove) int { return cmp.Compare(a.At, b.At) })
	return p.h.ReplaceLedger(out)
}

// beneficiaries gives the account its wallets, BRL, USD and COP
// beneficiaries.
func (p *past) beneficiaries(a *engine.Account) {
	r, now := p.r, p.now
	at := func() time.Time { return now.Add(-time.Duration(100+r.IntN(200)) * 24 * time.Hour) }
	chains := []string{"POLYGON", "CELO", "ETHEREUM", "BASE"}
	names := []string{"Treasury cold wallet", "Exchange hot wallet", "Supplier Alpha", "Market maker", "Payroll wallet"}
	for i := 0; i < 2+r.IntN(3); i++ {
		w := &records.Wallet{ID: r.uuid(), Alias: names[i], Description: "demo wallet", WalletAddress: engine.WalletAddress(r.uuid()), WalletChain: chains[i%len(chains)], CreatedAt: records.NewTime(at())}
		p.e.Wallets().Put(a, w.CreatedAt.Time, w.ID, w)
	}
	people := []string{"Maria Silva", "João Souza", "Ana Costa", "Pedro Lima", "Carla Dias"}
	for i := 0; i < 2+r.IntN(3); i++ {
		b := &records.BRLAccount{ID: r.uuid(), Alias: people[i], Description: "demo beneficiary", CreatedAt: records.NewTime(at())}
		switch i % 4 {
		case 0:
			b.PixKey, b.PixKeyType = demoCPF(r), "CPF"
			b.TaxID = b.PixKey
		case 1:
			b.PixKey, b.PixKeyType = fmt.Sprintf("demo.%d@%s", i, demoDomain), "EMAIL"
		case 2:
			b.PixKey, b.PixKeyType = "+55119"+r.digits(8), "PHONE"
		default:
			b.TaxID, b.UserName, b.BankCode, b.BranchCode, b.AccountNumber, b.AccountType = demoCNPJ(r), people[i]+" Ltda", "341", r.digits(4), r.digits(7), "checking"
		}
		p.e.BRLAccounts().Put(a, b.CreatedAt.Time, b.ID, b)
	}
	usdNames := []string{"Globex Corp", "Initech LLC", "Umbrella Inc", "Hooli Ltd"}
	routings := []string{"021000021", "011000015", "026009593"}
	for i := 0; i < 2+r.IntN(3); i++ {
		b := &records.USDAccount{
			ID: r.uuid(), UserID: a.ID, Alias: usdNames[i], Description: "demo supplier", BankAccountNumber: r.digits(10), BankRoutingNumber: routings[i%3],
			BankBeneficiaryName: usdNames[i], BankName: "Demo Bank NA", CreatedAt: records.NewTime(at()),
			BankBeneficiaryAddress: records.Address{StreetLine1: r.digits(3) + " Main St", City: "New York", State: "NY", PostalCode: "10001", Country: "USA"},
		}
		p.e.USDAccounts().Put(a, b.CreatedAt.Time, b.ID, b)
	}
	copNames := []string{"Café Andino SAS", "Flores de Bogotá", "Textiles Medellín"}
	for i := 0; i < 2+r.IntN(2); i++ {
		b := &records.COPAccount{ID: r.uuid(), Alias: copNames[i], BeneficiaryName: copNames[i], BeneficiaryType: "COMPANY", CreatedAt: records.NewTime(at())}
		if i%2 == 0 {
			b.BreBKey = "@" + r.digits(10)
		} else {
			b.BankAccountNumber, b.BankID, b.BankName, b.AccountType, b.DocumentType, b.DocumentNumber = r.digits(11), "1007", "Bancolombia", "SAVINGS", "NIT", r.digits(9)
		}
		p.e.COPAccounts().Put(a, b.CreatedAt.Time, b.ID, b)
	}
}

type scenario int

const (
	scenarioSmallPIX scenario = iota
	scenarioLargePIX
	scenarioPIXToWallet
	scenarioPayoutPIX
	scenarioPayoutUSD
	scenarioDeposit
	scenarioConvert
	scenarioPayoutCOP
	scenarioOwnWallet
	scenarioPermitToPIX
	scenarioCount
)

// ticket makes one historic ticket of a random scenario.
func (p *past) ticket(a *engine.Account, who *engine.Access, at time.Time) error {
	r := p.r
	sc := scenario(r.IntN(int(scenarioCount)))
	markup := r.IntN(10) == 0
	fail := r.IntN(25) == 0
	return p.scenario(a, who, at, sc, markup, fail)
}

// scenario creates a demo ticket of a scenario at time at.
func (p *past) scenario(a *engine.Account, who *engine.Access, at time.Time, sc scenario, markup, fail bool) error {
	r := p.r
	plan, err := p.plan(a, who, at, sc, markup)
	if err != nil {
		return err
	}
	t, err := p.h.Make(plan, at)
	if err != nil {
		return err
	}
	if fail && t.PaysOut() {
		t.FailDelivery([]string{"the receiving institution refused the credit", "the beneficiary account is closed", "compliance review rejected the payout"}[r.IntN(3)])
	}
	// Large PIX payments of the past were mostly paid by hand.
	if sc == scenarioLargePIX && at.Before(p.e.Now().Add(-time.Hour)) && r.IntN(4) != 0 {
		t.FundAt(at.Add(time.Duration(30+r.IntN(200)) * time.Second))
	}
	return nil
}

// plan builds the quote and request of a scenario and plans them as a
// request at time at would be.
func (pa *past) plan(a *engine.Account, who *engine.Access, at time.Time, sc scenario, markup bool) (*engine.Plan, error) {
	r := pa.r
	p := &engine.QuoteRequest{}
	req := &engine.TicketRequest{ExternalID: ""}
	if r.IntN(3) == 0 {
		req.ExternalID = "erp-" + r.digits(8)
	}
	wallets, brls, usds, cops := pa.e.Wallets().All(a), pa.e.BRLAccounts().All(a), pa.e.USDAccounts().All(a), pa.e.COPAccounts().All(a)
	switch sc {
	case scenarioSmallPIX:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRL", "PIX", "BRLA", "INTERNAL", r.amount(20, 1000, 2)
	case scenarioLargePIX:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRL", "PIX", "BRLA", "INTERNAL", r.amount(1500, 60000, 2)
	case scenarioPIXToWallet:
		w := wallets[r.IntN(len(wallets))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRL", "PIX", "USDC", w.WalletChain, r.amount(100, 1000, 2)
		req.TicketBlockchainOutput = &engine.ChainOutputBlock{BeneficiaryWalletID: w.ID.String()}
	case scenarioPayoutPIX:
		b := brls[r.IntN(len(brls))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRLA", "INTERNAL", "BRL", "PIX", r.amount(50, 8000, 2)
		req.TicketBrlPixOutput = &engine.PixOutputBlock{BeneficiaryBrlBankAccountID: b.ID.String(), PixMessage: "invoice " + r.digits(5)}
	case scenarioPayoutUSD:
		b := usds[r.IntN(len(usds))]
		rail := []string{"ACH", "WIRE"}[r.IntN(2)]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "USDC", "INTERNAL", "USD", rail, r.amount(100, 20000, 2)
		if rail == "ACH" {
			req.TicketUsdOutput = &engine.USDOutputBlock{BeneficiaryUsdBankAccountID: b.ID.String(), AchReference: "PO-" + r.digits(6)}
		} else {
			req.TicketUsdWireOutput = &engine.WireOutputBlock{BeneficiaryUsdBankAccountID: b.ID.String(), WireMessage: "PO-" + r.digits(6)}
		}
	case scenarioDeposit:
		chain := []string{"POLYGON", "BASE", "CELO"}[r.IntN(3)]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount, p.SendMethod = "USDC", chain, "USDC", "INTERNAL", r.amount(500, 50000, 6), "TRANSFER"
		req.TicketBlockchainInput = blockchainInput(engine.WalletAddress(r.uuid()), nil)
	case scenarioHeld:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRLA", "INTERNAL", "USDC", "INTERNAL", r.amount(150000, 400000, 2)
	case scenarioConvert:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRLA", "INTERNAL", "USDC", "INTERNAL", r.amount(100, 5000, 6)
	case scenarioPayoutCOP:
		b := cops[r.IntN(len(cops))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "USDT", "INTERNAL", "COP", "BANK-TRANSFER", r.amount(100, 3000, 6)
		req.TicketCopOutput = &engine.COPOutputBlock{BeneficiaryCopBankAccountID: b.ID.String()}
	case scenarioOwnWallet:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "EURC", "INTERNAL", "EURC", "ETHEREUM", r.amount(50, 2000, 6)
		req.TicketBlockchainOutput = &engine.ChainOutputBlock{BeneficiaryWalletID: uuid.Nil.String()}
	case scenarioPermitToPIX:
		b := brls[r.IntN(len(brls))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount, p.SendMethod = "BRLA", "BASE", "BRL", "PIX", r.amount(100, 5000, 6), "PERMIT"
		req.TicketBlockchainInput = blockchainInput(engine.WalletAddress(r.uuid()), &records.Permit{R: "0x" + r.hex(64), S: "0x" + r.hex(64), V: 27 + r.IntN(2), Nonce: int64(r.IntN(50)), Deadline: at.Add(time.Hour).Unix()})
		req.TicketBrlPixOutput = &engine.PixOutputBlock{BeneficiaryBrlBankAccountID: b.ID.String()}
	}
	// A token input names its send method, as the quote endpoint requires
	// (§8.4); from the balance, the clients' default.
	if money.IsToken(p.InputCurrency) && p.SendMethod == "" {
		p.SendMethod = records.SendPermit
	}
	if markup {
		p.MarkupFloatingFee = decimal.RequireFromString("0.005")
		req.TicketMarkupInput = &engine.MarkupBlock{MarkupWalletAddress: a.Wallet}
	}
	q, err := pa.h.Quote(p, r.uuid(), a, who, at, pa.rateClock(at))
	if err != nil {
		return nil, err
	}
	plan, err := pa.h.Plan(a, who, req, at, q)
	if err != nil {
		return nil, fmt.Errorf("demo ticket: %w", err)
	}
	return plan, nil
}

func blockchainInput(wallet string, permit *records.Permit) *engine.ChainInputBlock {
	return &engine.ChainInputBlock{WalletAddress: wallet, Permit: permit}
}

// operations parks demo requests: some pending (one already half
// approved), some executed, rejected and expired.
func (p *past) operations() error {
	h, now := p.h, p.now
	requester := h.AccessByMail("requester@" + demoDomain)
	approver3 := h.AccessByMail("approver3@" + demoDomain)
	a1 := h.AccessByMail("approver1@" + demoDomain)
	a2 := h.AccessByMail("approver2@" + demoDomain)
	main, subs := h.Main(), h.SubAccounts()
	type spec struct {
		who  *engine.Access
		acct *engine.Account
		age  time.Duration
		sc   scenario
		end  string // "", "half", "executed", "rejected"
	}
	specs := []spec{
		{requester, main, 3 * time.Hour, scenarioPayoutPIX, ""},
		{requester, main, 90 * time.Minute, scenarioPayoutUSD, "half"},
		{approver3, main, 50 * time.Minute, scenarioPayoutPIX, ""},
		{requester, subs[0], 5 * time.Hour, scenarioPIXToWallet, ""},
		{requester, main, 6 * 24 * time.Hour, scenarioPayoutPIX, "executed"},
		{approver3, main, 9 * 24 * time.Hour, scenarioPayoutCOP, "executed"},
		{requester, main, 4 * 24 * time.Hour, scenarioPayoutUSD, "rejected"},
		{requester, subs[0], 12 * 24 * time.Hour, scenarioConvert, "rejected"},
		{requester, main, 3 * 24 * time.Hour, scenarioPayoutPIX, "expired"},
	}
	var parked []*engine.Parked
	defer func() {
		// Stored as they end up (approved, executed, rejected).
		for _, op := range parked {
			op.Save()
		}
	}()
	for _, sp := range specs {
		at := now.Add(-sp.age)
		plan, err := p.plan(sp.acct, sp.who, at, sp.sc, false)
		if err != nil {
			return err
		}
		op, err := h.Park(plan, derive(p.seed, "demo-quote-tokens"), at)
		if err != nil {
			return err
		}
		parked = append(parked, op)
		switch sp.end {
		case "half":
			op.Approve(a1)
		case "executed":
			op.Approve(a1)
			op.Approve(a2)
			op.Execute(at.Add(40 * time.Minute))
		case "rejected":
			op.Approve(a2)
			op.Reject("amount does not match the approved invoice", at.Add(2*time.Hour))
		}
	}
	return nil
}
