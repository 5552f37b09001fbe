package api

import (
	"context"
	"fmt"
	"iter"
)

// All walks every page that fetch returns, starting from the first, and
// yields each item. It stops at the first error (yielded with the zero
// item), when ctx ends, or when the service repeats a cursor (which would
// otherwise loop forever).
//
//	for t, err := range api.All(ctx, func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
//		f.Cursor = cursor
//		return c.ListTickets(ctx, f)
//	}) { ... }
func All[T any](ctx context.Context, fetch func(ctx context.Context, cursor string) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := map[string]bool{}
		cursor := ""
		for {
			if err := ctx.Err(); err != nil {
				yield(zero, err)
				return
			}
			p, err := fetch(ctx, cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range p.Items {
				if !yield(it, nil) {
					return
				}
			}
			if !p.More() {
				return
			}
			if seen[p.Cursor] {
				yield(zero, fmt.Errorf("pagination: the service returned cursor %q twice; stopping to avoid a loop", p.Cursor))
				return
			}
			seen[p.Cursor] = true
			cursor = p.Cursor
		}
	}
}

// FirstPages reads at most maxPages pages that fetch returns, starting from
// the first, and returns their items; more is true when the service has
// pages beyond them. On an error it returns the items read so far.
func FirstPages[T any](ctx context.Context, maxPages int, fetch func(ctx context.Context, cursor string) (Page[T], error)) (items []T, more bool, err error) {
	cursor := ""
	for range maxPages {
		p, err := fetch(ctx, cursor)
		if err != nil {
			return items, false, err
		}
		items = append(items, p.Items...)
		if !p.More() {
			return items, false, nil
		}
		cursor = p.Cursor
	}
	return items, true, nil
}
