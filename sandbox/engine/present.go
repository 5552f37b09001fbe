package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// The present while the demo history is built. A history takes a few
// hundred milliseconds behind the engine's lock, but what a client asks
// first (who it is, which accounts it may operate, their balances) does
// not depend on it: the accounts and accesses exist before it, and the
// history ends by bringing every balance to the demo's balances of today.
// So the demo declares that present when it begins (History.Present), and
// until the history ends the engine answers those questions from it,
// without the lock; everything else waits for the history, as before.
//
// The present holds only as long as nothing of the history falls due: a
// funding or a delivery due after the history's "now" moves a balance.
// The demo names the earliest instant its live tickets have one due
// (until); a balance asked at or after it waits for the history. Should
// the history schedule one sooner, until is brought back to it, and if a
// balance was already answered at or after that instant the history fails
// as a defect of the demo data, rather than let that answer stand. When
// the history ends, the balances it left must be the present's, or it
// fails the same way: an answer given early is one the built sandbox
// would have given.

// present is the state answered while a history is built.
type present struct {
	main       *Account
	subs       []*Account
	accesses   map[uuid.UUID]*Access
	accessList []*Access
	balances   map[*Account]map[string]decimal.Decimal

	mu     sync.Mutex
	until  int64  // UnixNano: balances asked from then on wait for the history
	served int64  // the latest clock reading a balance was answered at
	late   int64  // a funding or delivery due at or before served, 0 if none
	base   string // the base URL the sandbox is served at (SetSelfBase), "" if not told
	ended  bool
}

// Present declares what the history leaves the accounts with: today's
// balances (a currency not named is zero), which hold until until (the
// earliest funding or delivery of the history after its "now"). Until the
// history ends, access and account lookups and balance lists are answered
// from it without waiting for the history.
func (h *History) Present(balances map[*Account]map[string]decimal.Decimal, until time.Time) {
	e := h.e
	p := &present{main: e.st.main, subs: slices.Clone(e.st.subs), accesses: maps.Clone(e.st.accessByID), accessList: slices.Clone(e.st.accesses),
		balances: map[*Account]map[string]decimal.Decimal{}, until: until.UnixNano()}
	for a, m := range balances {
		p.balances[a] = maps.Clone(m)
	}
	e.present.Store(p)
}

// presentScheduled brings the present's end back to a funding or delivery
// the history schedules before it. The caller holds e.mu (the history).
func (e *Engine) presentScheduled(at time.Time, kind dueKind) {
	p := e.present.Load()
	if p == nil || e.seed == nil || (kind != dueFund && kind != duePay) || !at.After(e.seedNow) {
		return
	}
	n := at.UnixNano()
	p.mu.Lock()
	if n < p.until {
		p.until = n
	}
	if n <= p.served && (p.late == 0 || n < p.late) {
		p.late = n
	}
	p.mu.Unlock()
}

// endPresent stops answering from the present and checks it against what
// the history built. The caller holds e.mu (the history).
func (e *Engine) endPresent() error {
	p := e.present.Swap(nil)
	if p == nil {
		return nil
	}
	p.mu.Lock()
	p.ended = true
	base := p.base
	p.mu.Unlock()
	if base != "" {
		e.setSelfBaseLocked(base)
	}
	if p.late != 0 {
		return fmt.Errorf("the history has a funding or delivery due at %s, after its balances were answered at %s without it",
			time.Unix(0, p.late).UTC().Format(time.RFC3339Nano), time.Unix(0, p.served).UTC().Format(time.RFC3339Nano))
	}
	for _, a := range append([]*Account{e.st.main}, e.st.subs...) {
		got, want := balanceList(a.balances), balanceList(p.balances[a])
		if !slices.EqualFunc(got, want, func(x, y Balance) bool { return x.Currency == y.Currency && x.Amount.Equal(y.Amount) }) {
			return fmt.Errorf("the history left %s with %v, not the balances it declared (%v)", a.Name, got, want)
		}
	}
	return nil
}

// presentNow is the present while a history is built, or nil.
func (e *Engine) presentNow() *present { return e.present.Load() }

// Presenting reports whether a request at now is answered from the
// present (while the history is built, before the present's end): it
// then neither waits for the history nor applies the lifecycle, which has
// nothing due before that end.
func (e *Engine) Presenting(now time.Time) bool {
	p := e.present.Load()
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return now.UnixNano() < p.until
}

// balancesAt is the present's balances of acct for a request at now, or
// false from the present's end on (the caller then waits for the history).
func (p *present) balancesAt(acct *Account, now time.Time) ([]Balance, bool) {
	n := now.UnixNano()
	p.mu.Lock()
	defer p.mu.Unlock()
	if n >= p.until {
		return nil, false
	}
	p.served = max(p.served, n)
	return balanceList(p.balances[acct]), true
}

// access is an access of the present, as AccessByIDLocked finds it.
func (p *present) access(id uuid.UUID) *Access {
	if a := p.accesses[id]; a != nil && !a.Revoked {
		return a
	}
	return nil
}

// balanceList is a balance list of held: every token of listedTokens,
// and whatever else it holds, by currency.
func balanceList(held map[string]decimal.Decimal) []Balance {
	out := make([]Balance, 0, len(held)+len(listedTokens))
	for k, v := range held {
		out = append(out, Balance{k, v})
	}
	for _, tok := range listedTokens {
		if _, ok := held[tok]; !ok {
			out = append(out, Balance{tok, decimal.Zero})
		}
	}
	slices.SortFunc(out, func(a, b Balance) int { return strings.Compare(a.Currency, b.Currency) })
	return out
}

// deferBase keeps the base URL the sandbox is served at for the history's
// end, which points the demo webhooks at it; false once it has ended (the
// caller then does it under the lock).
func (p *present) deferBase(base string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return false
	}
	p.base = base
	return true
}
