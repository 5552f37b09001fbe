package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

type fixedSource struct{ n byte }

func (s *fixedSource) UUID() uuid.UUID  { s.n++; return uuid.UUID{s.n} }
func (s *fixedSource) Hex(n int) string { return strings.Repeat("a", n) }
func (s *fixedSource) IntN(int) int     { return 0 }

// presentEngine is an engine with one account, a history begun at now and
// its present declared: ten BRLA until now+1s.
func presentEngine(t *testing.T, now time.Time) (*Engine, *History, *Account) {
	t.Helper()
	db, err := store.OpenFor("", 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := New(db, Config{Now: func() time.Time { return now }})
	main := NewAccount(uuid.New(), "Main", "COMPANY", true, uuid.Nil, now.Add(-time.Hour))
	e.AddAccount(main)
	h := e.BeginHistory(&fixedSource{}, now)
	h.Present(map[*Account]map[string]decimal.Decimal{main: {"BRLA": decimal.NewFromInt(10)}}, now.Add(time.Second))
	return e, h, main
}

// balancesWhileHeld asks the balances while the history holds the lock:
// they must come from the present, at once.
func balancesWhileHeld(t *testing.T, e *Engine, at time.Time) []Balance {
	t.Helper()
	got := make(chan []Balance, 1)
	go func() {
		b, err := e.Balances(Caller{Now: at})
		if err != nil {
			t.Error(err)
		}
		got <- b
	}()
	select {
	case b := <-got:
		return b
	case <-time.After(10 * time.Second):
		t.Fatal("the balances waited for the history instead of coming from its present")
		return nil
	}
}

func TestPresentAnswersUntilItsEndAndHoldsTheHistoryToIt(t *testing.T) {
	now := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)

	e, h, main := presentEngine(t, now)
	b := balancesWhileHeld(t, e, now.Add(100*time.Millisecond))
	if len(b) != len(listedTokens) || b[0].Currency != "BRLA" || !b[0].Amount.Equal(decimal.NewFromInt(10)) {
		t.Fatalf("balances from the present: %v", b)
	}
	if !e.Presenting(now.Add(999*time.Millisecond)) || e.Presenting(now.Add(time.Second)) {
		t.Error("the present is not answered exactly until its end")
	}
	if e.Main() != main || len(e.SubAccounts()) != 0 {
		t.Error("the accounts are not the present's while the history is held")
	}
	h.Open(main, "BRLA", decimal.NewFromInt(10), now)
	h.End()
	if err := e.Seeded(); err != nil {
		t.Fatalf("a history that ends in its present failed: %v", err)
	}
	if e.Presenting(now) {
		t.Error("still answering from the present after the history ended")
	}

	// A history that ends with other balances than it declared fails.
	e, h, main = presentEngine(t, now)
	h.Open(main, "BRLA", decimal.NewFromInt(11), now)
	h.End()
	if err := e.Seeded(); err == nil || !strings.Contains(err.Error(), "not the balances it declared") {
		t.Errorf("a history that left other balances: %v", err)
	}

	// A funding scheduled sooner than the declared end brings the end back
	// to it; one due before a balance already answered fails the history.
	e, h, main = presentEngine(t, now)
	balancesWhileHeld(t, e, now.Add(300*time.Millisecond))
	e.schedule(now.Add(500*time.Millisecond), dueFund, uuid.New(), nil)
	if e.Presenting(now.Add(500 * time.Millisecond)) {
		t.Error("the present is still answered at a funding the history has due")
	}
	e.schedule(now.Add(200*time.Millisecond), duePay, uuid.New(), nil)
	h.Open(main, "BRLA", decimal.NewFromInt(10), now)
	h.End()
	if err := e.Seeded(); err == nil || !strings.Contains(err.Error(), "after its balances were answered") {
		t.Errorf("a history with a delivery due before an early answer: %v", err)
	}
}
