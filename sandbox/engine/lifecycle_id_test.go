package engine

import (
	"bytes"
	"testing"
)

// The identifiers made at run time sort in the order they were made, so
// that a new ticket, quote or event is stored at the end of the indexes
// keyed by its ID rather than in a page of its own anywhere in the file.
func TestRunTimeIDsSortByTheirMaking(t *testing.T) {
	e := &Engine{}
	prev := e.newID()
	for range 1000 {
		id := e.newID()
		if bytes.Compare(id[:], prev[:]) <= 0 {
			t.Fatalf("%s made after %s sorts before it", id, prev)
		}
		if id.Version() != 7 {
			t.Fatalf("%s is a version %d UUID, want 7 (time-ordered)", id, id.Version())
		}
		prev = id
	}
}
