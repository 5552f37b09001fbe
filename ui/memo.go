package ui

import "sync"

// A memo remembers what a pure function of its key gave, for the frames
// that draw the same again: a window's lines, its tab bar and its footer
// hints are mostly those of the frame before, and measuring a styled line
// (grapheme by grapheme) or rendering a style costs far more than a map's
// lookup. It holds at most max results and forgets them all when full, so
// it never grows with what the user has seen. It is safe for concurrent
// use.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]V
	max int
}

func newMemo[K comparable, V any](max int) *memo[K, V] {
	return &memo[K, V]{m: make(map[K]V), max: max}
}

// get is f's result for k, computed once while k is remembered.
func (c *memo[K, V]) get(k K, f func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = f()
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
