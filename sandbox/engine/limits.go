package engine

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// Monthly limits [decided: the live service documents the shape, not the
// values]. Every account has an entry per catalogue currency; the main
// account's ceilings are those of monthlyCeilings, a sub-account's a tenth
// of them. A ceiling applies to each of the four directions (fiat in, fiat
// out, chain in, chain out).
//
// What counts as used: the tickets created this calendar month (UTC, on
// the sandbox clock) that did not fail or get cancelled or expire. A
// ticket's input side counts in its input currency (fiat in for a fiat
// rail such as PIX, chain in for a chain, nothing for INTERNAL, which does
// not cross the service's edge), its output side likewise in its output
// currency. Usage is computed from the tickets at each request, so it can
// never drift from them.
var monthlyCeilings = map[string]int64{
	"BRL": 1_000_000, "BRLA": 1_000_000,
	"USD": 200_000, "USDC": 200_000, "USDT": 200_000, "USDM": 200_000, "USDCe": 200_000,
	"EUR": 200_000, "EURC": 200_000,
	"COP": 800_000_000, "ARS": 200_000_000,
}

// Limit is the monthly ceiling of one currency (the same in each
// direction) and what this month's tickets used of it.
type Limit struct {
	Currency string
	Max      decimal.Decimal
	Used     Usage
}

// Usage is what a month's tickets moved in one currency, by direction.
type Usage struct {
	Year, Month                        int
	FiatIn, FiatOut, ChainIn, ChainOut decimal.Decimal
}

// Limits are the operated account's monthly limits, one per catalogue
// currency, at the caller's clock, and the account they are of.
func (e *Engine) Limits(c Caller) (*Account, []Limit, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return nil, nil, err
	}
	start := time.Date(c.Now.Year(), c.Now.Month(), 1, 0, 0, 0, 0, time.UTC)
	used, ok := e.usage.get(acct, start)
	if !ok {
		if used, err = e.monthUsage(acct, start); err != nil {
			return nil, nil, err
		}
		e.usage.put(acct, start, used)
	}
	var out []Limit
	for _, cur := range money.Currencies() {
		max := decimal.NewFromInt(monthlyCeilings[cur])
		if !acct.Main {
			max = max.Div(decimal.NewFromInt(10))
		}
		u := used[cur]
		u.Year, u.Month = start.Year(), int(start.Month())
		out = append(out, Limit{Currency: cur, Max: max, Used: u})
	}
	return acct, out, nil
}

// notCounted are the ticket states whose money never moved.
var notCounted = map[records.TicketStatus]bool{"FAILED": true, "CANCELED": true, "CANCELLED": true, "EXPIRED": true}

// monthUsage adds up the tickets of acct created since start, by currency.
// The caller holds e.mu.
func (e *Engine) monthUsage(acct *Account, start time.Time) (map[string]Usage, error) {
	used := map[string]Usage{}
	add := func(cur, method string, amount decimal.Decimal, in bool) {
		if method == "INTERNAL" || method == "" {
			return
		}
		u := used[cur]
		chain := money.IsChain(method)
		switch {
		case in && chain:
			u.ChainIn = u.ChainIn.Add(amount)
		case in:
			u.FiatIn = u.FiatIn.Add(amount)
		case chain:
			u.ChainOut = u.ChainOut.Add(amount)
		default:
			u.FiatOut = u.FiatOut.Add(amount)
		}
		used[cur] = u
	}
	cursor := ""
	for {
		rows, next, err := e.ticketPage(acct, store.TicketFilter{From: start}, cursor, 500)
		if err != nil {
			return nil, err
		}
		for _, raw := range rows {
			var t usageOf
			if err := json.Unmarshal(raw, &t); err != nil {
				return nil, err
			}
			if notCounted[t.Status] {
				continue
			}
			q := t.Quote
			add(q.InputCurrency, q.InputPaymentMethod, q.InputAmount, true)
			add(q.OutputCurrency, q.OutputPaymentMethod, q.OutputAmount, false)
		}
		if next == "" {
			return used, nil
		}
		cursor = next
	}
}

// usageOf is what monthUsage reads of a stored ticket: its status and its
// quote's sides. Decoding the whole ticket (its fees, parties, times) cost
// ten times as much, and a month of a million-ticket history is 300,000.
type usageOf struct {
	Status records.TicketStatus `json:"status"`
	Quote  struct {
		InputCurrency       string          `json:"inputCurrency"`
		InputPaymentMethod  string          `json:"inputPaymentMethod"`
		InputAmount         decimal.Decimal `json:"inputAmount"`
		OutputCurrency      string          `json:"outputCurrency"`
		OutputPaymentMethod string          `json:"outputPaymentMethod"`
		OutputAmount        decimal.Decimal `json:"outputAmount"`
	} `json:"quote"`
}

// usageMemo keeps the month usage monthUsage added up, per account, until
// a ticket is written (created or moved: changed, under e.mu for
// writing). Usage is still computed from the tickets, never kept beside
// them: the memo only spares adding up the same tickets again for every
// GET /v2/account/limits (the Overview asks at each start and reload) when
// none changed, which at a million tickets took longer than a client
// waits.
type usageMemo struct {
	mu   sync.Mutex
	memo map[*Account]usageAt
}

type usageAt struct {
	start time.Time
	used  map[string]Usage
}

// changed forgets every account's usage: a ticket was written.
func (m *usageMemo) changed() {
	m.mu.Lock()
	m.memo = nil
	m.mu.Unlock()
}

// get is acct's usage of the month from start, if added up since the last
// ticket written. Usages are values: the map is not shared with callers
// that change it (Limits only reads it).
func (m *usageMemo) get(acct *Account, start time.Time) (map[string]Usage, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.memo[acct]
	if !ok || !u.start.Equal(start) {
		return nil, false
	}
	return u.used, true
}

// put keeps acct's usage of the month from start. The caller holds e.mu
// (for reading at least), so no ticket was written since it was added up.
func (m *usageMemo) put(acct *Account, start time.Time, used map[string]Usage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.memo == nil {
		m.memo = map[*Account]usageAt{}
	}
	m.memo[acct] = usageAt{start: start, used: used}
}
