package tickets

import (
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestIDHoldsWhatTheWrittenIDHolds: the filter's match of a ticket's ID
// agrees with the ID as written, for every piece of it and for queries
// that are no piece of it.
func TestIDHoldsWhatTheWrittenIDHolds(t *testing.T) {
	for range 50 {
		r := &record{ID: uuid.New()}
		id := r.ID.String()
		for i := range len(id) {
			for j := i + 1; j <= len(id); j++ {
				if !r.idHolds(id[i:j]) {
					t.Fatalf("%s does not hold %q", id, id[i:j])
				}
			}
		}
		for _, q := range []string{strings.ToUpper(id[:8]), id + "0", "paid", id[:4] + " ", "g"} {
			if got := r.idHolds(q); got != strings.Contains(id, q) {
				t.Fatalf("%s holds %q: %v, want %v", id, q, got, !got)
			}
		}
	}
}
