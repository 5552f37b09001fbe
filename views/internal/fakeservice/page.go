package fakeservice

import (
	"slices"
	"strconv"

	"github.com/tesouro-treasury/tesouro/api"
)

// Page is how the screens' fakes page a list as the service does: the
// records keep admits (all of them when keep is nil), size at a time (50
// when size is 0), the cursor being the index of the next record; the
// last page has no cursor.
func Page[T any](all []T, keep func(T) bool, cursor string, size int) api.Page[T] {
	var match []T
	for _, r := range all {
		if keep == nil || keep(r) {
			match = append(match, r)
		}
	}
	if size == 0 {
		size = 50
	}
	start, _ := strconv.Atoi(cursor)
	start = min(max(start, 0), len(match))
	end := min(start+size, len(match))
	p := api.Page[T]{Items: slices.Clone(match[start:end])}
	if end < len(match) {
		p.Cursor = strconv.Itoa(end)
	}
	return p
}
