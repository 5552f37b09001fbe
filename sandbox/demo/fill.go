package demo

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Fill adds n settled tickets to the main account's history over the
// last 90 days, in one transaction, for measurements at a scale the
// request path would take minutes to reach. Each is a copy of one ticket
// made by the request code (a large PIX deposit), with its own id, time,
// outcome (PAID, one in ten CANCELED as expired; never FAILED, so that
// FAILED stays the rare value it is in the demo history) and, for a third,
// an externalId. They are final and move no balance (a PAID one's deposit
// and delivery cancel out), so balances stay the sum of the ledger. The
// same seed gives the same tickets.
func Fill(e *engine.Engine, n int, seed int64) error {
	r := newDemoRand(seed, "bulk")
	now := e.Now()
	h := e.BeginHistory(r, now)
	defer h.End()
	main, who := h.Main(), h.AccessByMail("operator@"+demoDomain)
	p := &engine.QuoteRequest{InputCurrency: "BRL", InputMethod: "PIX", OutputCurrency: "BRLA", OutputMethod: "INTERNAL", InputAmount: decimal.RequireFromString("1500")}
	q, err := h.Quote(p, r.uuid(), main, who, now, demoEpoch)
	if err != nil {
		return err
	}
	plan, err := h.Plan(main, who, &engine.TicketRequest{}, now, q)
	if err != nil {
		return err
	}
	// The template is built but not stored: a scratch transaction.
	tmpl, err := h.Template(plan, now)
	if err != nil {
		return err
	}
	return h.Fill(n, tmpl, func(_ int, t *records.Ticket) {
		at := now.Add(-time.Duration(r.Int64N(int64(90 * 24 * time.Hour))))
		t.ID = r.uuid()
		t.CreatedAt, t.UpdatedAt = records.NewTime(at), records.NewTime(at.Add(2*time.Minute))
		t.ExpiresAt = records.NewTime(at.Add(30 * time.Minute))
		t.ExternalID = ""
		if r.IntN(3) == 0 {
			t.ExternalID = "erp-" + r.digits(8)
		}
		switch k := r.IntN(1000); {
		case k < 100:
			t.Status = records.TicketCanceled
			t.Reason = engine.ReasonExpired
		default:
			t.Status = records.TicketPaid
			t.BrazilianFiatSenderInfo = &records.BrazilianFiatSenderInfo{ID: r.uuid().String(), TicketID: t.ID.String(), Name: "Pagador Sandbox", EndToEndID: h.EndToEndID("60701190", at)}
		}
	})
}
