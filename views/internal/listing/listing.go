// Package listing is what the screens that browse a long list of the
// service's records (tickets, trades, webhook delivery attempts) have in
// common: the paging of a list the service sends in cursor pages, with
// answers to superseded requests dropped and the next page asked for before
// the cursor reaches the end; the filter bar's creation-date range; the
// count line; the filter form's frame; and the scrolled key/value sheet of a
// detail pane. Each screen keeps its own records, columns, filters and keys.
package listing

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
)

const (
	// RequestTimeout bounds every request a list screen makes.
	RequestTimeout = 20 * time.Second
	// PrefetchMargin: the next page is asked for when the cursor comes
	// within this many rows of the last loaded one.
	PrefetchMargin = 10
)

// seq numbers requests and screen instances across the whole process, so a
// response can never be taken for the answer to a newer request, not even by
// the screen that replaced its asker after an account switch.
var seq atomic.Uint64

// NextID returns an id no request or screen instance had before.
func NextID() uint64 { return seq.Add(1) }

// Request runs call as a command of s (the footer counts it while it runs),
// with a context that ends after RequestTimeout.
func Request(s *ui.Session, call func(ctx context.Context) tea.Msg) tea.Cmd {
	return s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
		defer cancel()
		return call(ctx)
	})
}
