package engine

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

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

// demoEpoch anchors the demo history's exchange rates: a ticket made
// an hour before the history's "now" is priced at demoEpoch minus an hour,
// so its amounts depend on the seed only, never on when the sandbox
// started.
var demoEpoch = time.Date(2025, 1, 6, 12, 0, 0, 0, time.UTC)

// demoRateClock is the time a demo quote made at at is priced at.
func (e *Engine) demoRateClock(at time.Time) time.Time {
	if e.seedRand == nil {
		return at
	}
	return demoEpoch.Add(at.Sub(e.seedNow))
}

// seedActivity fills the demo accounts with their history: beneficiaries,
// webhooks, tickets in every state, multi-signature operations, webhook
// attempts, trades and compliance records. The history is made by the same
// code that serves requests, run at past times, so it obeys every rule.
func (e *Engine) seedActivity(seed int64, st *state, now time.Time) error {
	r := newDemoRand(seed, "activity")
	e.st = st
	e.seedRand, e.seedNow = &r, now
	defer func() { e.seedRand = nil }()

	// The accounts and today's balances are the demo's truth; the history
	// runs on a float large enough for any demo ticket, and the balances
	// are brought back to today's at the end. Both are ledger moves, so
	// every balance stays the sum of its moves.
	e.db.SetMeta("seed", strconv.FormatInt(seed, 10))
	e.db.SetMeta("min_approvals", strconv.Itoa(int(st.minApprovals)))
	saved := map[*Account]map[string]decimal.Decimal{}
	for _, a := range append([]*Account{st.main}, st.subs...) {
		e.saveAccount(a)
		saved[a] = a.balances
		a.balances = map[string]decimal.Decimal{}
		for _, c := range demoCurrencies {
			e.move(a, c, decimal.NewFromInt(1_000_000_000), uuid.Nil, moveOpening, a.CreatedAt)
		}
	}

	accts := append([]*Account{st.main}, st.subs...)
	fiat := newDemoRand(seed, "beneficiaries/eur-ars")
	for i, a := range accts {
		seedBeneficiaries(r, a, now)
		seedEURAndARSBeneficiaries(fiat, a, now)
		if i <= 1 {
			a.webhooks = append(a.webhooks, &Webhook{ID: r.uuid(), URL: defaultDemoBase + ReceiverPath, Subscriptions: []string{"TICKET"}, CreatedAt: now.Add(-120 * 24 * time.Hour)})
		}
	}
	operator := st.accessByMail["operator@"+demoDomain]
	for i, a := range accts {
		n := demoTicketsSub
		if i == 0 {
			n = demoTicketsMain
		}
		for j := 0; j < n; j++ {
			age := time.Duration(r.Int64N(int64(demoDays * 24 * time.Hour)))
			if err := e.seedTicket(r, a, operator, now.Add(-age)); err != nil {
				return err
			}
		}
		// Live ones: waiting for a large PIX payment, and being delivered.
		for j := 0; j < 2; j++ {
			if err := e.seedScenario(r, a, operator, now.Add(-time.Duration(40+j*30)*time.Second), scenarioLargePIX, false, false); err != nil {
				return err
			}
		}
		if err := e.seedScenario(r, a, operator, now.Add(-500*time.Millisecond), scenarioConvert, false, false); err != nil {
			return err
		}
		if i == 0 {
			if err := e.seedLiveStates(r, a, operator, now); err != nil {
				return err
			}
		}
	}
	if err := e.seedOperations(seed, r, st, now); err != nil {
		return err
	}
	e.advanceLocked(now)
	for _, a := range accts {
		for _, c := range slices.Sorted(maps.Keys(a.balances)) {
			e.setBalance(a, c, saved[a][c], now)
		}
		if err := e.seedTrades(r, a, now); err != nil {
			return err
		}
		seedCompliance(r, a, now)
		e.changed(a)
	}
	return e.orderLedgerByTime()
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
func (e *Engine) orderLedgerByTime() error {
	type book struct {
		first, last int64           // the float's two moves: the account's creation, now
		final       decimal.Decimal // today's balance
		net, low    decimal.Decimal // the history's net, and its lowest running sum
		running     decimal.Decimal
	}
	moves, err := e.db.Ledger()
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
		if m.Reason == moveOpening && !m.Ticket.Valid {
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
			out = append(out, store.LedgerMove{Account: k[0], Currency: k[1], Reason: moveOpening, Amount: opening, At: bk.first})
		}
		if w := bk.final.Sub(opening).Sub(bk.net); !w.IsZero() {
			out = append(out, store.LedgerMove{Account: k[0], Currency: k[1], Reason: moveTransfer, Amount: w, At: bk.last})
		}
	}
	out = append(out, history...)
	slices.SortStableFunc(out, func(a, b store.LedgerMove) int { return cmp.Compare(a.At, b.At) })
	return e.db.ReplaceLedger(out)
}

func seedBeneficiaries(r demoRand, a *Account, now time.Time) {
	at := func() time.Time { return now.Add(-time.Duration(100+r.IntN(200)) * 24 * time.Hour) }
	chains := []string{"POLYGON", "CELO", "ETHEREUM", "BASE"}
	names := []string{"Treasury cold wallet", "Exchange hot wallet", "Supplier Alpha", "Market maker", "Payroll wallet"}
	for i := 0; i < 2+r.IntN(3); i++ {
		w := &Wallet{ID: r.uuid(), Alias: names[i], Description: "demo wallet", WalletAddress: walletFromID(r.uuid()), WalletChain: chains[i%len(chains)], CreatedAt: NewTime(at())}
		a.wallets.add(w.CreatedAt.Time, w.ID, w)
	}
	people := []string{"Maria Silva", "João Souza", "Ana Costa", "Pedro Lima", "Carla Dias"}
	for i := 0; i < 2+r.IntN(3); i++ {
		b := &BRLAccount{ID: r.uuid(), Alias: people[i], Description: "demo beneficiary", CreatedAt: NewTime(at())}
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
		a.brl.add(b.CreatedAt.Time, b.ID, b)
	}
	usdNames := []string{"Globex Corp", "Initech LLC", "Umbrella Inc", "Hooli Ltd"}
	routings := []string{"021000021", "011000015", "026009593"}
	for i := 0; i < 2+r.IntN(3); i++ {
		b := &USDAccount{
			ID: r.uuid(), UserID: a.ID, Alias: usdNames[i], Description: "demo supplier", BankAccountNumber: r.digits(10), BankRoutingNumber: routings[i%3],
			BankBeneficiaryName: usdNames[i], BankName: "Demo Bank NA", CreatedAt: NewTime(at()),
			BankBeneficiaryAddress: Address{StreetLine1: r.digits(3) + " Main St", City: "New York", State: "NY", PostalCode: "10001", Country: "USA"},
		}
		a.usd.add(b.CreatedAt.Time, b.ID, b)
	}
	copNames := []string{"Café Andino SAS", "Flores de Bogotá", "Textiles Medellín"}
	for i := 0; i < 2+r.IntN(2); i++ {
		b := &COPAccount{ID: r.uuid(), Alias: copNames[i], BeneficiaryName: copNames[i], BeneficiaryType: "COMPANY", CreatedAt: NewTime(at())}
		if i%2 == 0 {
			b.BreBKey = "@" + r.digits(10)
		} else {
			b.BankAccountNumber, b.BankID, b.BankName, b.AccountType, b.DocumentType, b.DocumentNumber = r.digits(11), "1007", "Bancolombia", "SAVINGS", "NIT", r.digits(9)
		}
		a.cop.add(b.CreatedAt.Time, b.ID, b)
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

// seedTicket makes one historic ticket of a random scenario.
func (e *Engine) seedTicket(r demoRand, a *Account, who *Access, at time.Time) error {
	sc := scenario(r.IntN(int(scenarioCount)))
	markup := r.IntN(10) == 0
	fail := r.IntN(25) == 0
	return e.seedScenario(r, a, who, at, sc, markup, fail)
}

// seedScenario creates a demo ticket of a scenario at time at.
func (e *Engine) seedScenario(r demoRand, a *Account, who *Access, at time.Time, sc scenario, markup, fail bool) error {
	plan, err := e.demoPlan(r, a, who, at, sc, markup)
	if err != nil {
		return err
	}
	t, err := e.makeTicketLocked(plan, at)
	if err != nil {
		return err
	}
	if fail && t.outKind != "internal" && t.outKind != "own" {
		defer e.saveTicket(t)
		t.failReason = []string{"the receiving institution refused the credit", "the beneficiary account is closed", "compliance review rejected the payout"}[r.IntN(3)]
	}
	// Large PIX payments of the past were mostly paid by hand.
	if sc == scenarioLargePIX && at.Before(e.now().Add(-time.Hour)) && r.IntN(4) != 0 {
		t.fundAt = at.Add(time.Duration(30+r.IntN(200)) * time.Second)
		e.schedule(t.fundAt, dueFund, t.ID, nil)
		e.saveTicket(t)
	}
	return nil
}

// demoPlan builds the quote and request of a scenario and plans them as a
// request at time at would be.
func (e *Engine) demoPlan(r demoRand, a *Account, who *Access, at time.Time, sc scenario, markup bool) (*ticketPlan, error) {
	p := &QuoteRequest{}
	req := &TicketRequest{ExternalID: ""}
	if r.IntN(3) == 0 {
		req.ExternalID = "erp-" + r.digits(8)
	}
	wallets, brls, usds, cops := a.wallets.all(), a.brl.all(), a.usd.all(), a.cop.all()
	switch sc {
	case scenarioSmallPIX:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRL", "PIX", "BRLA", "INTERNAL", r.amount(20, 1000, 2)
	case scenarioLargePIX:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRL", "PIX", "BRLA", "INTERNAL", r.amount(1500, 60000, 2)
	case scenarioPIXToWallet:
		w := wallets[r.IntN(len(wallets))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRL", "PIX", "USDC", w.WalletChain, r.amount(100, 1000, 2)
		req.TicketBlockchainOutput = &ChainOutputBlock{BeneficiaryWalletID: w.ID.String()}
	case scenarioPayoutPIX:
		b := brls[r.IntN(len(brls))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRLA", "INTERNAL", "BRL", "PIX", r.amount(50, 8000, 2)
		req.TicketBrlPixOutput = &PixOutputBlock{BeneficiaryBrlBankAccountID: b.ID.String(), PixMessage: "invoice " + r.digits(5)}
	case scenarioPayoutUSD:
		b := usds[r.IntN(len(usds))]
		rail := []string{"ACH", "WIRE"}[r.IntN(2)]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "USDC", "INTERNAL", "USD", rail, r.amount(100, 20000, 2)
		if rail == "ACH" {
			req.TicketUsdOutput = &USDOutputBlock{b.ID.String(), "PO-" + r.digits(6)}
		} else {
			req.TicketUsdWireOutput = &WireOutputBlock{b.ID.String(), "PO-" + r.digits(6)}
		}
	case scenarioDeposit:
		chain := []string{"POLYGON", "BASE", "CELO"}[r.IntN(3)]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount, p.SendMethod = "USDC", chain, "USDC", "INTERNAL", r.amount(500, 50000, 6), "TRANSFER"
		req.TicketBlockchainInput = blockchainInput(walletFromID(r.uuid()), nil)
	case scenarioHeld:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRLA", "INTERNAL", "USDC", "INTERNAL", r.amount(150000, 400000, 2)
	case scenarioConvert:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "BRLA", "INTERNAL", "USDC", "INTERNAL", r.amount(100, 5000, 6)
	case scenarioPayoutCOP:
		b := cops[r.IntN(len(cops))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "USDT", "INTERNAL", "COP", "BANK-TRANSFER", r.amount(100, 3000, 6)
		req.TicketCopOutput = &COPOutputBlock{b.ID.String()}
	case scenarioOwnWallet:
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount = "EURC", "INTERNAL", "EURC", "ETHEREUM", r.amount(50, 2000, 6)
		req.TicketBlockchainOutput = &ChainOutputBlock{BeneficiaryWalletID: uuid.Nil.String()}
	case scenarioPermitToPIX:
		b := brls[r.IntN(len(brls))]
		p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod, p.InputAmount, p.SendMethod = "BRLA", "BASE", "BRL", "PIX", r.amount(100, 5000, 6), "PERMIT"
		req.TicketBlockchainInput = blockchainInput(walletFromID(r.uuid()), &Permit{R: "0x" + r.hex(64), S: "0x" + r.hex(64), V: 27 + r.IntN(2), Nonce: int64(r.IntN(50)), Deadline: at.Add(time.Hour).Unix()})
		req.TicketBrlPixOutput = &PixOutputBlock{BeneficiaryBrlBankAccountID: b.ID.String()}
	}
	if markup {
		p.MarkupFloatingFee = decimal.RequireFromString("0.005")
		req.TicketMarkupInput = &MarkupBlock{a.Wallet}
	}
	q, err := e.claimsAt(r, p, a, who, at)
	if err != nil {
		return nil, err
	}
	plan, err := e.planTicket(a, who, req, at, false, q)
	if err != nil {
		return nil, fmt.Errorf("demo ticket: %w", err)
	}
	return plan, nil
}

func blockchainInput(wallet string, permit *Permit) *ChainInputBlock {
	return &ChainInputBlock{WalletAddress: wallet, Permit: permit}
}

// claimsAt prices a quote at a past time, as the quote endpoint would have.
func (e *Engine) claimsAt(r demoRand, p *QuoteRequest, a *Account, who *Access, at time.Time) (*QuoteClaims, error) {
	bp := basePrice(p.InputCurrency, p.OutputCurrency, e.demoRateClock(at))
	fees, out := p.forward(p.InputAmount, bp)
	if !out.IsPositive() {
		return nil, fmt.Errorf("demo quote %s→%s of %s does not cover its fees", p.InputCurrency, p.OutputCurrency, p.InputAmount)
	}
	q := &QuoteClaims{
		ID: r.uuid(), SubAccountID: a.SubAccountID(), AccountID: a.ID, AccessID: who.ID,
		IssuedAt: at.Add(-3 * time.Second).UnixMilli(), ExpiresAt: at.Add(12 * time.Second).UnixMilli(),
		InputCurrency: p.InputCurrency, InputPaymentMethod: p.InputMethod, InputAmount: p.InputAmount,
		OutputCurrency: p.OutputCurrency, OutputPaymentMethod: p.OutputMethod, OutputAmount: out,
		BasePrice: bp, SendMethod: p.SendMethod, Fees: fees, MarkupAmount: decimal.Zero,
	}
	if p.hasMarkup() {
		q.MarkupCurrency = p.InputCurrency
		q.MarkupAmount = markupTotal(fees, p.InputCurrency, p.InputCurrency, bp)
	}
	return q, nil
}

// seedOperations parks demo requests: some pending (one already half
// approved), some executed, rejected and expired.
func (e *Engine) seedOperations(seed int64, r demoRand, st *state, now time.Time) error {
	requester := st.accessByMail["requester@"+demoDomain]
	approver3 := st.accessByMail["approver3@"+demoDomain]
	a1 := st.accessByMail["approver1@"+demoDomain]
	a2 := st.accessByMail["approver2@"+demoDomain]
	type spec struct {
		who  *Access
		acct *Account
		age  time.Duration
		sc   scenario
		end  string // "", "half", "executed", "rejected"
	}
	specs := []spec{
		{requester, st.main, 3 * time.Hour, scenarioPayoutPIX, ""},
		{requester, st.main, 90 * time.Minute, scenarioPayoutUSD, "half"},
		{approver3, st.main, 50 * time.Minute, scenarioPayoutPIX, ""},
		{requester, st.subs[0], 5 * time.Hour, scenarioPIXToWallet, ""},
		{requester, st.main, 6 * 24 * time.Hour, scenarioPayoutPIX, "executed"},
		{approver3, st.main, 9 * 24 * time.Hour, scenarioPayoutCOP, "executed"},
		{requester, st.main, 4 * 24 * time.Hour, scenarioPayoutUSD, "rejected"},
		{requester, st.subs[0], 12 * 24 * time.Hour, scenarioConvert, "rejected"},
		{requester, st.main, 3 * 24 * time.Hour, scenarioPayoutPIX, "expired"},
	}
	var parked []*Operation
	defer func() {
		// Stored as they end up (approved, executed, rejected).
		for _, op := range parked {
			e.saveOperation(op)
		}
	}()
	for _, sp := range specs {
		at := now.Add(-sp.age)
		plan, err := e.demoPlan(r, sp.acct, sp.who, at, sp.sc, false)
		if err != nil {
			return err
		}
		plan.req.QuoteToken = sealQuoteWith(derive(seed, "demo-quote-tokens"), plan.q)
		body, err := json.Marshal(plan.req)
		if err != nil {
			return err
		}
		op := e.parkLocked(plan, body, at)
		parked = append(parked, op)
		switch sp.end {
		case "half":
			op.approvals[a1.ID] = true
		case "executed":
			op.approvals[a1.ID] = true
			op.approvals[a2.ID] = true
			e.executeLocked(op, at.Add(40*time.Minute))
		case "rejected":
			op.approvals[a2.ID] = true
			op.Status, op.Reason, op.DecidedAt = OperationRejected, "amount does not match the approved invoice", at.Add(2*time.Hour)
		}
	}
	return nil
}

// Open readies the engine for a seed: the demo accesses, and either what
// the store holds (a database seeded before) or the demo history, built in
// the background behind the lock, in one transaction: Open returns at
// once, and the first request waits the few milliseconds it takes.
func (e *Engine) Open(seed int64) error {
	st, err := e.buildDemo(seed)
	if err != nil {
		return err
	}
	empty, err := e.db.Verify(seed)
	if err != nil {
		return err
	}
	e.st = st
	if !empty {
		if err := e.loadState(st); err != nil {
			return e.db.Refused(err)
		}
		return nil
	}
	e.mu.Lock()
	start := e.now()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer e.mu.Unlock()
		if err := e.seedActivity(seed, st, start); err != nil {
			// The history is made by the request code from fixed inputs;
			// a refusal here is a defect of the demo data itself.
			e.seedErr = err
			e.db.Fail(err)
		}
	}()
	return nil
}

// FillTickets adds n settled tickets to the main account's history, spread
// over the last 90 days, in one transaction: for measurements at a scale
// the request path would take minutes to reach. The same seed gives the
// same tickets.
func (e *Engine) FillTickets(n int, seed int64) error { return e.bulkTickets(n, seed) }

// CountTickets is the number of stored tickets of acct.
func (e *Engine) CountTickets(acct *Account) (int, error) { return e.countTickets(acct) }
