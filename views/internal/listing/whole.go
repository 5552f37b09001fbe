package listing

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// Whole is every page of a list that a screen shows only once it has all
// of it (see the package doc): the records in the service's order, and
// whether more exist than MaxPages pages held.
type Whole[T any] struct {
	Items []T
	More  bool
}

// WholeMsg is the answer to FetchWhole.
type WholeMsg[T any] = ui.Result[Whole[T]]

// FetchWhole asks for every page of a list, up to MaxPages, in one request
// awaited by slot: the screen takes the answer with slot.Take and swaps its
// table's values at once, so a reload never shows part of the list.
func FetchWhole[T any](s *ui.Session, slot *ui.Slot, timeout time.Duration, page func(ctx context.Context, cursor string) (api.Page[T], error)) tea.Cmd {
	return ui.Fetch(s, slot, timeout, func(ctx context.Context) (Whole[T], error) {
		items, more, err := api.FirstPages(ctx, MaxPages, page)
		return Whole[T]{Items: items, More: more}, err
	})
}
