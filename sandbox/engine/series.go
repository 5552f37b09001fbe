package engine

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// PageSize is the sandbox's page size for every cursor-paginated list.
const PageSize = 50

// series is a collection kept in creation order (time, then id), indexed by
// id. Lists walk it newest first from a cursor, so a page costs the same
// whatever the size of the collection: a binary search finds where the
// page starts, and only the page is read.
type series[T any] struct {
	es   []entry[T]
	byID map[uuid.UUID]int64 // id → creation time, to find its position
}

type entry[T any] struct {
	at int64 // UnixNano
	id uuid.UUID
	v  *T
}

func newSeries[T any]() *series[T] { return &series[T]{byID: map[uuid.UUID]int64{}} }

func keyLess(at1 int64, id1 uuid.UUID, at2 int64, id2 uuid.UUID) bool {
	if at1 != at2 {
		return at1 < at2
	}
	return strings.Compare(string(id1[:]), string(id2[:])) < 0
}

// search is the position of the first entry not before (at, id).
func (s *series[T]) search(at int64, id uuid.UUID) int {
	return sort.Search(len(s.es), func(i int) bool { return !keyLess(s.es[i].at, s.es[i].id, at, id) })
}

// add inserts v; appending is the common case (the clock moves forward).
func (s *series[T]) add(at time.Time, id uuid.UUID, v *T) {
	e := entry[T]{at: at.UnixNano(), id: id, v: v}
	s.byID[id] = e.at
	n := len(s.es)
	if n == 0 || keyLess(s.es[n-1].at, s.es[n-1].id, e.at, e.id) {
		s.es = append(s.es, e)
		return
	}
	i := s.search(e.at, e.id)
	s.es = append(s.es, entry[T]{})
	copy(s.es[i+1:], s.es[i:])
	s.es[i] = e
}

func (s *series[T]) index(id uuid.UUID) int {
	at, ok := s.byID[id]
	if !ok {
		return -1
	}
	i := s.search(at, id)
	if i < len(s.es) && s.es[i].id == id {
		return i
	}
	return -1
}

func (s *series[T]) get(id uuid.UUID) (*T, bool) {
	i := s.index(id)
	if i < 0 {
		return nil, false
	}
	return s.es[i].v, true
}

func (s *series[T]) remove(id uuid.UUID) bool {
	i := s.index(id)
	if i < 0 {
		return false
	}
	s.es = append(s.es[:i], s.es[i+1:]...)
	delete(s.byID, id)
	return true
}

// all returns the items oldest first.
func (s *series[T]) all() []*T {
	out := make([]*T, len(s.es))
	for i, e := range s.es {
		out[i] = e.v
	}
	return out
}

// Window bounds a list by creation time: From inclusive, To exclusive;
// zero values are open ends.
type Window struct{ From, To time.Time }

// Holds reports whether t is inside the window.
func (w Window) Holds(t time.Time) bool {
	return (w.From.IsZero() || !t.Before(w.From)) && (w.To.IsZero() || t.Before(w.To))
}

// page returns up to limit items, newest first, strictly older than the
// cursor, inside the window and matching match (nil: all). next is empty
// on the last page.
func (s *series[T]) page(cursor string, limit int, w Window, match func(*T) bool) (items []*T, next string, err error) {
	start := len(s.es) // index one past the first candidate
	if cursor != "" {
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		start = s.search(at, id)
	}
	if !w.To.IsZero() {
		to := w.To.UnixNano()
		if j := sort.Search(len(s.es), func(i int) bool { return s.es[i].at >= to }); j < start {
			start = j
		}
	}
	stop := 0
	if !w.From.IsZero() {
		from := w.From.UnixNano()
		stop = sort.Search(len(s.es), func(i int) bool { return s.es[i].at >= from })
	}
	lastIdx := -1
	for i := start - 1; i >= stop; i-- {
		e := s.es[i]
		if match != nil && !match(e.v) {
			continue
		}
		if len(items) == limit {
			last := s.es[lastIdx]
			return items, encodeCursor(last.at, last.id), nil
		}
		items = append(items, e.v)
		lastIdx = i
	}
	return items, "", nil
}

// Cursors are opaque: base64url of "<createdAt UnixNano>-<id>" of the last
// item returned, so a page starts right after it even when items were
// added or removed in between.
func encodeCursor(at int64, id uuid.UUID) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at, 10) + "-" + id.String()))
}

// keyOf is the position a cursor names (nil for none: the first page).
func keyOf(cursor string) (*store.Key, error) {
	if cursor == "" {
		return nil, nil
	}
	at, id, err := decodeCursor(cursor)
	if err != nil {
		return nil, err
	}
	return &store.Key{At: at, ID: id}, nil
}

// cursorOf is the cursor of a position (none: the last page).
func cursorOf(k *store.Key) string {
	if k == nil {
		return ""
	}
	return encodeCursor(k.At, k.ID)
}

func decodeCursor(c string) (int64, uuid.UUID, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, uuid.Nil, badRequest(CodeInvalidCursor, "cursor %q is not one this service returned; start again without a cursor", truncate(c, 40))
	}
	at, rest, ok := strings.Cut(string(raw), "-")
	n, err1 := strconv.ParseInt(at, 10, 64)
	id, err2 := uuid.Parse(rest)
	if !ok || err1 != nil || err2 != nil {
		return 0, uuid.Nil, badRequest(CodeInvalidCursor, "cursor %q is not one this service returned; start again without a cursor", truncate(c, 40))
	}
	return n, id, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
