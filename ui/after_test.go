package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui/clocktest"
)

// poll is the value of a timer in these tests.
type poll struct{ n int }

// fire runs the command of a timer armed on a fake clock and returns what
// it delivers when its time comes.
func fire(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	timer, ok := cmd().(clocktest.Timer)
	if !ok {
		t.Fatal("the timer is not scheduled on the session's clock")
	}
	return timer.Fire()
}

// TestAfterIsAwaitedLikeAnAnswer: a timer armed with After is taken by its
// slot once; a timer the slot no longer awaits (armed again, cancelled) and
// one of another session are dropped as older answers are.
func TestAfterIsAwaitedLikeAnAnswer(t *testing.T) {
	clock := clocktest.New(clocktest.Epoch)
	s := &Session{Time: clock}
	var sl Slot
	first := After(s, &sl, time.Second, poll{1})
	if !sl.Waiting() || s.InFlight() != 0 {
		t.Fatalf("armed: waiting %v, in flight %d; want the slot waiting and nothing counted", sl.Waiting(), s.InFlight())
	}
	replaced := fire(t, first).(Result[poll])
	latest := fire(t, After(s, &sl, time.Second, poll{2})).(Result[poll])
	if sl.Take(replaced) {
		t.Fatal("a replaced timer was taken")
	}
	if !s.Owns(replaced) {
		t.Fatal("the session does not own its own timer")
	}
	if !sl.Take(latest) || latest.Value.n != 2 {
		t.Fatalf("the latest timer was not taken: %+v", latest)
	}
	if sl.Take(latest) {
		t.Fatal("a timer was taken twice")
	}

	cancelled := fire(t, After(s, &sl, time.Second, poll{3}))
	sl.Cancel()
	if sl.Take(cancelled.(Reply)) {
		t.Fatal("a cancelled timer was taken")
	}

	other := s.WithAccount(Account{ID: uuid.New(), Name: "Other"})
	theirs := fire(t, After(other, &sl, time.Second, poll{4})).(Result[poll])
	if s.Owns(theirs) {
		t.Fatal("the timer of another account's session is owned by this one")
	}
	if _, told := theirs.Late(); told {
		t.Fatal("a timer of an ended session would be told to the user")
	}
}

// TestAnswerIsOwnedByItsSession: what a screen hands itself through the
// root reaches only its own session's screens.
func TestAnswerIsOwnedByItsSession(t *testing.T) {
	s := &Session{}
	req, cmd := Answer(s, "yes")
	msg := cmd().(Result[string])
	if msg.Req != req || msg.Value != "yes" || !s.Owns(msg) {
		t.Fatalf("answer %+v of request %+v is not its session's", msg, req)
	}
	var sl Slot
	sl.Await(req)
	if !sl.Take(msg) {
		t.Fatal("a slot awaiting the answer did not take it")
	}
	other := s.WithAccount(Account{ID: uuid.New()})
	if _, c := Answer(other, "yes"); s.Owns(c().(Reply)) {
		t.Fatal("another session's answer is owned by this one")
	}
}
