package ui

import "testing"

func TestMemoComputesOnceAndForgetsWhenFull(t *testing.T) {
	calls := 0
	m := newMemo[int, int](2)
	sq := func(k int) int {
		return m.get(k, func() int { calls++; return k * k })
	}
	first, again := sq(3), sq(3)
	if first != 9 || again != 9 || calls != 1 {
		t.Fatalf("3 asked twice: %d computations, want 1", calls)
	}
	sq(4)
	sq(5) // full: every result is forgotten, then 5's kept
	if len(m.m) != 1 {
		t.Fatalf("%d results kept after the memo filled, want 1", len(m.m))
	}
	if sq(3) != 9 || calls != 4 {
		t.Fatalf("3 after the memo was cleared: %d computations, want 4", calls)
	}
}

func TestTruncateMeasuresAgainForAnotherWidth(t *testing.T) {
	if got := Truncate("abcdef", 6); got != "abcdef" {
		t.Fatalf("Truncate(abcdef, 6) = %q", got)
	}
	if got := Truncate("abcdef", 4); got != "abc…" {
		t.Fatalf("Truncate(abcdef, 4) after width 6 = %q, want abc…", got)
	}
}
