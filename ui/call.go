package ui

import (
	"context"
	"sync"
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

// Reply is implemented by every message a request delivers (Result): an
// answer of Call, Fetch or Settle, the firing of a timer armed with After, a
// value a screen handed itself with Answer. The root drops a reply of any
// session but the current one before a screen sees it.
type Reply interface{ Request() Req }

// Result is what a request delivers: the answer to request Req.
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
// timeout (RequestTimeout when zero) or when the session ends (an account
// switch, the program's end), with the footer counting it while it runs.
// It returns the request's name, which the screen keeps in the Slot that
// awaits it, and the command whose message is a Result[T].
//
// fn must capture by value everything it needs (the account id, the
// cursor, the filter): it runs on another goroutine.
func Call[T any](s *Session, timeout time.Duration, fn func(ctx context.Context) (T, error)) (Req, tea.Cmd) {
	return call(s, timeout, false, fn)
}

// Settle is Fetch for a write whose outcome must be known (a ticket
// creation, a batch run): fn runs to its end even when the session ends
// first, bounded by timeout alone, so that an answer in transit is
// reconciled rather than abandoned. Its result then reaches no screen: the
// root reports it against the account it belongs to, through the value's
// Report method when it has one (see Late). A batch that must stop between
// rows when the session ends watches Session.Context itself.
//
// The program's end waits for settling writes (WaitWrites).
func Settle[T any](s *Session, sl *Slot, timeout time.Duration, fn func(ctx context.Context) (T, error)) tea.Cmd {
	req, cmd := call(s, timeout, true, fn)
	sl.Await(req)
	return cmd
}

// writes counts the settling writes of every session of the process.
var writes sync.WaitGroup

// WaitWrites waits, at most timeout, for every settling write to end, and
// reports whether they all did.
func WaitWrites(timeout time.Duration) bool {
	done := make(chan struct{})
	go func() { writes.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		return false
	}
}

func call[T any](s *Session, timeout time.Duration, detached bool, fn func(ctx context.Context) (T, error)) (Req, tea.Cmd) {
	if timeout <= 0 {
		timeout = RequestTimeout
	}
	req := s.newReq()
	parent := s.Context()
	return req, func() tea.Msg {
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		if detached {
			writes.Add(1)
			defer writes.Done()
			parent = context.WithoutCancel(parent)
		}
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		v, err := fn(ctx)
		s.reach.saw(err, parent, s.Now())
		return Result[T]{Req: req, Value: v, Err: err}
	}
}

// newReq names a new request of session s.
func (s *Session) newReq() Req {
	return Req{ID: ids.Add(1), Account: s.Account.ID, session: s.id()}
}

// Answer is Call for a value the screen already holds: it returns the name
// of a request of session s made now, and the command whose message is
// Result[T]{Value: v}, its answer. A screen hands itself through the root
// what must reach it only while its session lasts this way: a
// confirmation's yes, a prompt's text, a mark set before a write is sent.
// The screen takes it with Session.Owns, or with a Slot that awaits it.
func Answer[T any](s *Session, v T) (Req, tea.Cmd) {
	req := s.newReq()
	return req, func() tea.Msg { return Result[T]{Req: req, Value: v} }
}

// Context is the session's context: it ends when the session does (an
// account switch makes a new one; the program's end ends the last), so
// that work started for this account stops with it.
func (s *Session) Context() context.Context {
	s.life.once.Do(func() { s.life.ctx, s.life.cancel = context.WithCancel(context.Background()) })
	return s.life.ctx
}

// End ends the session's context: reads under way stop, a batch stops
// between rows, settling writes go on to their end.
func (s *Session) End() {
	s.Context()
	s.life.cancel()
}

// lifetime is a session's context, made on first use (sessions are built
// field by field, in tests too).
type lifetime struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
}

// Reporter is a value of a write's Result that can say what became of the
// write when the result arrives after its session ended (Late).
type Reporter interface {
	Report(err error) string
}

// Late is what a result that arrives after its session ended tells the
// user: its value's Report, for a write; ok is false for anything else,
// which is dropped unseen.
func (r Result[T]) Late() (text string, ok bool) {
	if v, isReporter := any(r.Value).(Reporter); isReporter {
		return v.Report(r.Err), true
	}
	return "", false
}

// lateReply is a Reply that may be reported after its session ended.
type lateReply interface {
	Reply
	Late() (string, bool)
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
// creation, the next firing of a poll): the latest request made for it.
// Only that request's answer is taken; answers to requests it replaced, and
// answers for other sessions, are dropped. A reset (a new filter, a reload)
// is a new request the slot awaits, or a Cancel. The zero Slot awaits
// nothing.
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
