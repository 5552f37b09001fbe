package httpapi

import (
	"net/http"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// listPage serves one page of a kind of the operated account's records,
// newest first from the request's cursor, created inside w and accepted by
// match (nil: all), as {key: [...], "cursor": next}.
func listPage[T any](c *call, key string, w engine.Window, recs engine.Records[T], match func(*T) bool) error {
	items, next, err := recs.Page(c.caller(), w, c.query.Get("cursor"), match)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{key: items, "cursor": next})
}
