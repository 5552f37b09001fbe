package ui

import "testing"

func TestLayoutGivesTheContentWhatIsLeft(t *testing.T) {
	cases := []struct {
		w, h          int
		notice, input bool
		content       int
	}{
		{100, 32, false, false, 29},
		{100, 32, true, true, 27},
		{40, 12, true, true, 7},
		{40, 12, false, false, 9},
		{40, 3, true, true, 0}, // the line being typed wins over content
		{40, 1, true, true, 0},
		{0, 0, true, true, 0},
	}
	for _, c := range cases {
		l := NewLayout(c.w, c.h, c.notice, c.input)
		if l.Content != c.content {
			t.Errorf("%dx%d notice=%v input=%v: content %d, want %d", c.w, c.h, c.notice, c.input, l.Content, c.content)
		}
		if sum := l.Header + l.Tabs + l.Notice + l.Content + l.Input + l.Footer; sum > max(c.h, 0) {
			t.Errorf("%dx%d: rows add up to %d", c.w, c.h, sum)
		}
		if c.h >= 1 && l.Header != 1 {
			t.Errorf("%dx%d: the header (environment badge) must always show", c.w, c.h)
		}
	}
}

func TestFuzzyMatchRanksWordStartsAndRuns(t *testing.T) {
	if _, ok := FuzzyMatch("acs", "Acme Sul"); !ok {
		t.Error("subsequence not matched")
	}
	if _, ok := FuzzyMatch("xyz", "Acme Sul"); ok {
		t.Error("non-subsequence matched")
	}
	a, _ := FuzzyMatch("acme", "Acme Ltda")
	b, _ := FuzzyMatch("acme", "a Cool Mega Exchange")
	if a <= b {
		t.Errorf("a prefix run (%d) should beat scattered letters (%d)", a, b)
	}
	if s, ok := FuzzyMatch("", "anything"); !ok || s != 0 {
		t.Error("empty pattern must match everything")
	}
	if _, ok := FuzzyMatch("são", "Filial São Paulo"); !ok {
		t.Error("non-ASCII pattern not matched")
	}
}
