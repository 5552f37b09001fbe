package engine

import (
	"maps"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// bulkTickets adds n settled tickets to the main account's history over
// the last 90 days, in one transaction, for measurements at a scale the
// request path would take minutes to reach. Each is a copy of one ticket
// made by the request code (a large PIX deposit), with its own id, time,
// outcome (PAID, one in ten CANCELED as expired; never FAILED, so that FAILED stays
// the rare value it is in the demo history) and, for a third, an
// externalId. They are final and move no balance (a PAID
// one's deposit and delivery cancel out), so balances stay the sum of the
// ledger. The same seed gives the same tickets.
func (e *Engine) bulkTickets(n int, seed int64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.st
	who := st.accessByMail["operator@"+demoDomain]
	r := newDemoRand(seed, "bulk")
	now := e.now()
	e.seedRand, e.seedNow = &r, now
	defer func() { e.seedRand = nil }()
	p := &QuoteRequest{InputCurrency: "BRL", InputMethod: "PIX", OutputCurrency: "BRLA", OutputMethod: "INTERNAL", InputAmount: decimal.RequireFromString("1500")}
	q, err := e.claimsAt(r, p, st.main, who, now)
	if err != nil {
		return err
	}
	plan, err := e.planTicket(st.main, who, &TicketRequest{}, now, false, q)
	if err != nil {
		return err
	}
	// The template is built but not stored: a scratch transaction.
	tmpl, err := e.ticketTemplate(plan, now)
	if err != nil {
		return err
	}
	return e.db.FillTickets(n, func(i int) (*store.TicketRow, error) {
		t := *tmpl
		at := now.Add(-time.Duration(r.Int64N(int64(90 * 24 * time.Hour))))
		t.ID = r.uuid()
		t.Quote.TicketID = t.ID
		t.CreatedAt, t.UpdatedAt = NewTime(at), NewTime(at.Add(2*time.Minute))
		t.ExpiresAt = NewTime(at.Add(30 * time.Minute))
		t.ExternalID = ""
		if r.IntN(3) == 0 {
			t.ExternalID = "erp-" + r.digits(8)
		}
		t.fundAt, t.payAt = time.Time{}, time.Time{}
		switch k := r.IntN(1000); {
		case k < 100:
			t.Status = TicketCanceled
			t.Reason = reasonExpired
		default:
			t.Status = TicketPaid
			t.BrazilianFiatSenderInfo = &BrazilianFiatSenderInfo{ID: r.uuid().String(), TicketID: t.ID.String(), Name: "Pagador Sandbox", EndToEndID: e.endToEndID("60701190", at)}
		}
		return ticketRow(&t)
	})
}

// ticketTemplate builds the ticket a plan describes without storing it or
// scheduling anything: the writes it makes go to a savepoint rolled back
// here. The caller holds e.mu for writing.
func (e *Engine) ticketTemplate(p *ticketPlan, now time.Time) (t *ticket, err error) {
	err = e.db.Scratch(func() error {
		// What the request code changes in memory is put back as well.
		due, balances := slices.Clone(e.st.due), maps.Clone(p.acct.balances)
		hearers := e.hearers(p.acct)
		hooks := make([][]*Webhook, len(hearers))
		for i, a := range hearers {
			hooks[i], a.webhooks = a.webhooks, nil
		}
		var err error
		t, err = e.makeTicketLocked(p, now)
		e.st.due, p.acct.balances = due, balances
		for i, a := range hearers {
			a.webhooks = hooks[i]
		}
		return err
	})
	return t, err
}
