package demo

import (
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// Demo scenarios that only liveStates uses (after scenarioCount, so the
// random history draws what it always drew).
const (
	scenarioHeld scenario = scenarioCount + 1 + iota
)

// liveStates gives the demo account a ticket in each state the random
// history rarely or never reaches: ON-HOLD, PENDING (queued), CANCELED by
// the caller and PARTIAL-FAILED.
func (p *past) liveStates(a *engine.Account, who *engine.Access) error {
	now := p.now
	make1 := func(sc scenario, at time.Time) (*engine.Past, error) {
		plan, err := p.plan(a, who, at, sc, false)
		if err != nil {
			return nil, err
		}
		return p.h.Make(plan, at)
	}
	// ON-HOLD: a conversion above the single-ticket limit, waiting for review.
	if _, err := make1(scenarioHeld, now.Add(-20*time.Minute)); err != nil {
		return err
	}
	// PENDING: a USD payout queued behind the account's earlier payouts
	// until an hour from now.
	t, err := make1(scenarioPayoutUSD, now.Add(-3*time.Minute))
	if err != nil {
		return err
	}
	t.QueueUntil(now.Add(-3*time.Minute), now.Add(time.Hour), "queued: behind this account's earlier payouts")
	// CANCELED by the caller: a large PIX payment given up.
	at := now.Add(-26 * time.Hour)
	if t, err = make1(scenarioLargePIX, at); err != nil {
		return err
	}
	t.CancelAt(at.Add(4 * time.Minute))
	// PARTIAL-FAILED: a PIX payout split in parts, one refused.
	at = now.Add(-50 * time.Hour)
	if t, err = make1(scenarioPayoutPIX, at); err != nil {
		return err
	}
	t.PartiallyFailAt(at.Add(5*time.Second), "1 of 2 split deliveries was refused by the receiving institution; the other was paid")
	return nil
}
