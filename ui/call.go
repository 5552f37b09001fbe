package ui

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
)

// RequestTimeout bounds a request when the caller has no reason to choose
// another bound.
const RequestTimeout = 20 * time.Second

// Req names one asynchronous request: an id no other request of the process
// had, the account it was asked for, and the session that asked. A session
// lives as long as one operated account (an account switch makes a new one),
// so a Req of an old session can never be mistaken for a current one.
type Req struct {
	ID      uint64
	Account uuid.UUID
	session uint64
}

// Reply is implemented by every message a Call delivers (Result). The root
// drops a reply of any session but the current one before a screen sees it.
type Reply interface{ Request() Req }

// Result is what a Call delivers: the answer to request Req.
type Result[T any] struct {
	Req   Req
	Value T
	Err   error
}

// Request is the request r answers.
func (r Result[T]) Request() Req { return r.Req }

// ids numbers requests and sessions across the whole process.
var ids atomic.Uint64

// Call runs fn as a command of session s, under a context that ends after
// timeout (RequestTimeout when zero), with the footer counting it while it
// runs. It returns the request's name, which the screen keeps in the Slot
// that awaits it, and the command whose message is a Result[T].
//
// fn must capture by value everything it needs (the account id, the
// cursor, the filter): it runs on another goroutine.
func Call[T any](s *Session, timeout time.Duration, fn func(ctx context.Context) (T, error)) (Req, tea.Cmd) {
	if timeout <= 0 {
		timeout = RequestTimeout
	}
	req := Req{ID: ids.Add(1), Account: s.Account.ID, session: s.id()}
	return req, func() tea.Msg {
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		v, err := fn(ctx)
		return Result[T]{Req: req, Value: v, Err: err}
	}
}

// Owns reports whether msg answers a request of this session: a reply of
// another account's session, or of a session since replaced, is not. The
// root checks it before delivering a reply; a screen that accepts any answer
// of its own session (not only the latest) checks it too.
func (s *Session) Owns(msg Reply) bool {
	r := msg.Request()
	return s != nil && r.session != 0 && r.session == s.id() && r.Account == s.Account.ID
}

// Slot is what one part of a screen awaits (a page, a quote, a ticket
// creation): the latest request made for it. Only that request's answer is
// taken; answers to requests it replaced, and answers for other sessions,
// are dropped. The zero Slot awaits nothing.
type Slot struct{ req Req }

// Await makes r the request the slot awaits, dropping whatever it awaited.
func (sl *Slot) Await(r Req) { sl.req = r }

// Cancel drops the awaited request's answer when it comes.
func (sl *Slot) Cancel() { sl.req = Req{} }

// Waiting reports whether an answer is awaited.
func (sl *Slot) Waiting() bool { return sl.req.ID != 0 }

// Take reports whether msg answers the awaited request, and if so stops
// awaiting it. This is the one check a screen makes before an answer may
// change what it shows or holds.
func (sl *Slot) Take(msg Reply) bool {
	r := msg.Request()
	if sl.req.ID == 0 || r != sl.req {
		return false
	}
	sl.req = Req{}
	return true
}

// Fetch is Call for a slot: the slot awaits the new request (dropping the
// answer of any it awaited) and the command is returned.
func Fetch[T any](s *Session, sl *Slot, timeout time.Duration, fn func(ctx context.Context) (T, error)) tea.Cmd {
	req, cmd := Call(s, timeout, fn)
	sl.Await(req)
	return cmd
}
