package widget

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// The arena's chunks: 1 MiB each, addressed by 32-bit offsets (chunk
// number, then position in it), so 4,096 chunks (4 GiB of filter text,
// far beyond any list a terminal shows) at most.
const (
	chunkBits = 20
	chunkSize = 1 << chunkBits
)

// A row whose text was written again elsewhere leaves in its former place
// deadRow plus the length of that text (at most a chunk), so that a search
// can step over it.
const (
	deadRow   = math.MinInt32
	deadLimit = deadRow + chunkSize + 1
)

// parallelScan is the number of rows from which a search is split across
// the processors, a run of chunks each.
const parallelScan = 16_384

// arena holds the filter text of every loaded row, lower-cased, each ended
// by a newline, back to back in chunks: no string header or allocation per
// row, and a query is searched through a whole chunk at once with the
// vectorised search, not row by row. rows are, for each chunk, the loaded
// position of each row written there in order; a row whose text was
// written again out of order (longer than before) is marked ^pos, its
// former place deadRow plus its length.
type arena struct {
	chunks [][]byte
	rows   [][]int32
	size   int // bytes written
	dead   int // bytes of text no row owns any more
	// freq counts the bytes of the first chunk, taken when first
	// needed: what anchor reads.
	freq *[256]int
}

// add writes the text of the row at pos after the others and returns its
// offset; moved says the row's place among the loaded rows is before
// rows written earlier.
func (a *arena) add(text []byte, pos int32, moved bool) uint32 {
	need := len(text) + 1
	c := len(a.chunks) - 1
	if c < 0 || len(a.chunks[c])+need > chunkSize {
		var chunk []byte
		if c >= 0 {
			// Past the first chunk the list is long: take a whole one
			// at once rather than grow it.
			chunk = make([]byte, 0, chunkSize)
		}
		a.chunks = append(a.chunks, chunk)
		a.rows = append(a.rows, nil)
		c++
	}
	off := uint32(c<<chunkBits | len(a.chunks[c]))
	a.chunks[c] = append(append(a.chunks[c], text...), '\n')
	if moved {
		pos = ^pos
	}
	a.rows[c] = append(a.rows[c], pos)
	a.size += need
	return off
}

// bytes is the text at off, n bytes long. It is read, never kept.
func (a *arena) bytes(off uint32, n int) []byte {
	c, p := off>>chunkBits, int(off&(chunkSize-1))
	return a.chunks[c][p : p+n : p+n]
}

// at is the text at off as a string, valid until that text is written
// again: read it, do not keep it.
func (a *arena) at(off uint32, n int) string {
	if n == 0 {
		return ""
	}
	b := a.bytes(off, n)
	return unsafe.String(unsafe.SliceData(b), n)
}

// rewrite gives the row at pos, whose text of n bytes is at off, the new
// text, and returns where it now lies and its length: in place when it
// fits (the rest of the old text turned to NULs, which no query holds, and
// kept as the row's length: a search steps over rows by their lengths),
// else after the others.
func (a *arena) rewrite(off uint32, n int, text []byte, pos int32) (uint32, int) {
	if len(text) <= n {
		b := a.bytes(off, n)
		copy(b, text)
		for i := len(text); i < n; i++ {
			b[i] = 0
		}
		return off, n
	}
	rows := a.rows[off>>chunkBits]
	for i, p := range rows {
		if p == pos || p == ^pos {
			rows[i] = deadRow + int32(n)
			break
		}
	}
	a.dead += n + 1
	return a.add(text, pos, true), len(text)
}

// compact writes the live rows of t again in order once more than half
// of the arena is dead text, and reports whether it did.
func (a *arena) compact(t *Table) bool {
	if a.dead <= chunkSize || 2*a.dead <= a.size {
		return false
	}
	old := *a
	*a = arena{}
	for i := range t.items {
		it := &t.items[i]
		it.off = a.add(old.bytes(it.off, it.len()), int32(i), false)
	}
	return true
}

// dense reports whether q is held by more than one row in eight of the
// first chunk: a sample of how many hits a search would meet.
func (a *arena) dense(q string, items []item) bool {
	if len(a.chunks) == 0 || q == "" || strings.ContainsAny(q, "\n\x00") {
		return false
	}
	hits, _ := scanChunk(a.chunks[0], a.rows[0], items, q, nil, nil)
	return len(hits)*8 > len(a.rows[0])
}

// anchor is the position of q's rarest byte in the first chunk's text.
func (a *arena) anchor(q string) int {
	if a.freq == nil && len(a.chunks) > 0 {
		a.freq = new([256]int)
		for _, b := range a.chunks[0] {
			a.freq[b]++
		}
	}
	k := 0
	for i := 1; i < len(q) && a.freq != nil; i++ {
		if a.freq[q[i]] < a.freq[q[k]] {
			k = i
		}
	}
	return k
}

// searchChunks returns the positions of the rows whose text lies in chunks
// from up to to and holds q, ascending, searched in parts at once; never
// nil. also, when set, is asked about each row of those chunks whose text
// does not hold q, and adds the rows it holds.
func (a *arena) searchChunks(q string, items []item, from, to, parts int, also func(pos int32) bool) []int32 {
	if q == "" || strings.ContainsAny(q, "\n\x00") || from >= to {
		return []int32{} // no row's text holds a line break or a NUL
	}
	nc := to - from
	parts = max(min(parts, nc), 1)
	outs := make([][]int32, parts)
	moves := make([][]int32, parts)
	work := func(p int) {
		var out, mv []int32
		for c := from + p*nc/parts; c < from+(p+1)*nc/parts; c++ {
			if also == nil {
				out, mv = scanChunk(a.chunks[c], a.rows[c], items, q, out, mv)
				continue
			}
			hits, moved := scanChunk(a.chunks[c], a.rows[c], items, q, nil, nil)
			out, mv = addAlso(a.rows[c], hits, moved, out, mv, also)
		}
		outs[p], moves[p] = out, mv
	}
	if parts == 1 {
		work(0)
	} else {
		var wg sync.WaitGroup
		for p := range parts {
			wg.Go(func() { work(p) })
		}
		wg.Wait()
	}
	match := outs[0]
	if parts > 1 {
		match = slices.Concat(outs...)
	}
	if match == nil {
		match = []int32{}
	}
	if mv := slices.Concat(moves...); len(mv) > 0 {
		slices.Sort(mv)
		match = mergeSorted(match, mv)
	}
	return match
}

// addAlso walks the rows of a chunk in order (rows) and appends to out
// and mv those its text hits list (hits and moved, in that order) and
// those also holds.
func addAlso(rows, hits, moved, out, mv []int32, also func(pos int32) bool) ([]int32, []int32) {
	i, j := 0, 0
	for _, p := range rows {
		switch {
		case p >= 0:
			if i < len(hits) && hits[i] == p {
				i++
				out = append(out, p)
			} else if also(p) {
				out = append(out, p)
			}
		case p > deadLimit:
			if j < len(moved) && moved[j] == ^p {
				j++
				mv = append(mv, ^p)
			} else if also(^p) {
				mv = append(mv, ^p)
			}
		}
	}
	return out, mv
}

// scanChunk appends the positions of the rows of one chunk whose text
// holds q: the ones in order to out, the ones written out of order to mv.
// The rows are stepped over by their lengths (items'), each hit mapped to
// its row without reading the text between.
func scanChunk(b []byte, rows []int32, items []item, q string, out, mv []int32) ([]int32, []int32) {
	if len(b) == 0 {
		return out, mv
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	rowLen := func(p int32) int {
		switch {
		case p >= 0:
			return items[p].len()
		case p > deadLimit:
			return items[^p].len()
		}
		return int(p - deadRow)
	}
	k, start := 0, 0 // row k starts at start
	for pos := 0; pos < len(s); {
		j := strings.Index(s[pos:], q)
		if j < 0 {
			break
		}
		hit := pos + j
		n := rowLen(rows[k])
		for hit > start+n {
			start += n + 1
			k++
			n = rowLen(rows[k])
		}
		switch p := rows[k]; {
		case p >= 0:
			out = append(out, p)
		case p > deadLimit:
			mv = append(mv, ^p)
		}
		start += n + 1
		k++
		pos = start
	}
	return out, mv
}

// mergeSorted merges two ascending lists of distinct positions.
func mergeSorted(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
