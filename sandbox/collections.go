package sandbox

import (
	"net/http"

	"github.com/google/uuid"
)

// Reads that every collection of an account (a *series on *account) serves
// alike; the handlers keep what is their own (filters, views).

// listPage serves one page of a collection of the operated account: under
// the read lock it resolves the account, pages of(account) newest first
// from the request's cursor inside w, keeping what match accepts (nil:
// all), and replies {key: [...], "cursor": next} with the copies view
// makes, never with pointers into the store.
func listPage[T, V any](s *Server, c *call, key string, w window, of func(*account) *series[T], match func(*T) bool, view func(*T) V) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	items, next, err := of(acct).page(c.query.Get("cursor"), pageSize, w, match)
	if err != nil {
		return err
	}
	out := make([]V, len(items))
	for i, v := range items {
		out[i] = view(v)
	}
	return c.reply(http.StatusOK, map[string]any{key: out, "cursor": next})
}

// deref is the view of a record whose stored form is its wire form.
func deref[T any](v *T) T { return *v }

// recordByID finds the record the path's {id} names in one collection of
// the operated account; what names the record in a 404. The caller holds
// s.mu.
func recordByID[T any](c *call, of func(*account) *series[T], what string) (*account, uuid.UUID, *T, error) {
	id, err := c.pathUUID("id")
	if err != nil {
		return nil, uuid.Nil, nil, err
	}
	acct, err := c.scope()
	if err != nil {
		return nil, uuid.Nil, nil, err
	}
	v, ok := of(acct).get(id)
	if !ok {
		return nil, uuid.Nil, nil, notFound(what, id)
	}
	return acct, id, v, nil
}
