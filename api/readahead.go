package api

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
)

// TicketPages yields the pages of the tickets f selects, from f.Cursor to
// the last, as ListTickets would answer them one after the other. Each page
// is asked for as soon as the answer before it names its cursor, before that
// answer is decoded: the service answers the next page while the client
// reads this one, instead of each waiting for the other (a history of a
// million tickets is 20,000 pages).
//
// The cursor is read ahead from the raw answer; the page's own decoding
// has the last word: a page whose decoded cursor is not the one read ahead
// drops the request made with it and asks again with its own. An error is
// yielded once and ends the pages; so does a yield that returns false (the
// page asked for meanwhile is then dropped unread).
func (c *Client) TicketPages(ctx context.Context, f TicketFilter) iter.Seq2[Page[Ticket], error] {
	return func(yield func(Page[Ticket], error) bool) {
		next := c.askTickets(ctx, f)
		defer func() { next.drop() }()
		for {
			a := next.wait()
			if a.err != nil {
				yield(Page[Ticket]{}, a.err)
				return
			}
			next = nil
			ahead, ok := "", false
			if a.resp.status == http.StatusOK {
				ahead, ok = pageCursor(a.resp.body)
			}
			if ok && ahead != "" {
				g := f
				g.Cursor = ahead
				next = c.askTickets(ctx, g)
			}
			p, err := decodePage[Ticket](c, a.cl, a.resp, keyTickets)
			if err == nil && p.More() && (next == nil || p.Cursor != ahead) {
				next.drop()
				f.Cursor = p.Cursor
				next = c.askTickets(ctx, f)
			}
			if err != nil || !p.More() {
				next.drop()
				next = nil
				yield(p, err)
				return
			}
			f.Cursor = p.Cursor
			if !yield(p, nil) {
				return
			}
		}
	}
}

// asked is a list request on its way: its answer comes on done.
type asked struct {
	done   chan answered
	cancel context.CancelFunc
}

type answered struct {
	cl   call
	resp *response
	err  error
}

// askTickets sends the request of the page f selects, without waiting for
// its answer.
func (c *Client) askTickets(ctx context.Context, f TicketFilter) *asked {
	ctx, cancel := context.WithCancel(ctx)
	a := &asked{done: make(chan answered, 1), cancel: cancel}
	cl := ticketsCall(f)
	go func() {
		resp, err := c.do(ctx, cl)
		a.done <- answered{cl, resp, err}
	}()
	return a
}

func (a *asked) wait() answered {
	r := <-a.done
	a.cancel()
	return r
}

// drop gives up a request whose answer is not wanted any more.
func (a *asked) drop() {
	if a != nil {
		a.cancel()
	}
}

// pageCursor is the top-level "cursor" of a page's answer, read without
// decoding the rest (the last of two counts, as when the page is decoded;
// null or none is ""). ok is false when body is no object whose members the
// scan can follow or the cursor is no string: the page's decoding says why.
func pageCursor(body []byte) (cursor string, ok bool) {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return "", false
	}
	i = skipSpace(body, i+1)
	if i < len(body) && body[i] == '}' {
		return "", true
	}
	for {
		end, ok := stringEnd(body, i)
		if !ok {
			return "", false
		}
		key := body[i:end]
		i = skipSpace(body, end)
		if i >= len(body) || body[i] != ':' {
			return "", false
		}
		i = skipSpace(body, i+1)
		vend, ok := valueEnd(body, i)
		if !ok {
			return "", false
		}
		if isCursorKey(key) {
			var cur *string
			if json.Unmarshal(body[i:vend], &cur) != nil {
				return "", false
			}
			cursor = ""
			if cur != nil {
				cursor = *cur
			}
		}
		i = skipSpace(body, vend)
		switch {
		case i < len(body) && body[i] == ',':
			i = skipSpace(body, i+1)
		case i < len(body) && body[i] == '}':
			return cursor, true
		default:
			return "", false
		}
	}
}

// isCursorKey reports whether the quoted member name key is "cursor",
// escapes read.
func isCursorKey(key []byte) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key) == `"`+keyCursor+`"`
	}
	var name string
	return json.Unmarshal(key, &name) == nil && name == keyCursor
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just past the JSON string starting at b[i].
func stringEnd(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}

// valueEnd is the index just past the JSON value starting at b[i]: a
// string, an object or array (strings inside skipped whole), or a literal.
func valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end, ok := stringEnd(b, i)
				if !ok {
					return 0, false
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
		}
		return 0, false
	}
	start := i
	for i < len(b) && !endsLiteral(b[i]) {
		i++
	}
	return i, i > start
}

func endsLiteral(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
