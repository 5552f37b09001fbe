package ui

import (
	"context"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
)

// Reach is whether the service answers, as the requests of every session
// of the dashboard found it: the root shows a banner while it does not
// (what failed, since when), screens keep their last good values, and the
// root's heartbeat asks again until it answers, then tells every screen to
// load again. Requests record into it (see call); it is shared by the
// sessions of one dashboard, since an account switch does not change the
// service.
type Reach struct {
	mu sync.Mutex
	// down is set while the last request that ended got no answer.
	down  bool
	since time.Time // when the first request that got no answer ended
	what  string    // what that request's error said
	last  time.Time // when the service last answered
}

// saw records how a request of session s ended at now: err nil or an
// answer of the service (an *api.Error) says it answers; a call that got
// no answer (api.ErrNoAnswer) says it does not, unless the request was
// stopped on purpose (its session ended). Other errors say nothing.
func (r *Reach) saw(err error, parent context.Context, now time.Time) {
	if r == nil {
		return
	}
	var ae *api.Error
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err == nil || errors.As(err, &ae):
		r.down, r.last = false, now
	case errors.Is(err, api.ErrNoAnswer) && parent.Err() == nil:
		if !r.down {
			r.down, r.since, r.what = true, now, err.Error()
		}
	}
}

// Down reports whether the service does not answer: since when, and what
// failed first.
func (r *Reach) Down() (since time.Time, what string, down bool) {
	if r == nil {
		return time.Time{}, "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.since, r.what, r.down
}

// Last is when the service last answered.
func (r *Reach) Last() time.Time {
	if r == nil {
		return time.Time{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// heartbeatEvery is how often the root makes sure the service answers
// (unless Options.Heartbeat says otherwise): a request is sent only when
// none answered since the last beat, so that a service gone is told
// within two beats and a probe's timeout (probeTimeout).
const heartbeatEvery = 2 * time.Second

// probeTimeout bounds the heartbeat's request: a service that does not
// answer the access info in this time is taken as not answering.
const probeTimeout = 3 * time.Second

func (r *Root) heartbeat() time.Duration {
	if r.opts.Heartbeat != 0 {
		return r.opts.Heartbeat
	}
	return heartbeatEvery
}

type (
	// beatMsg is the heartbeat's timer firing.
	beatMsg struct{ session *Session }
	// probedMsg is the heartbeat's request's end.
	probedMsg struct{}
)

// beat arms the next heartbeat, once.
func (r *Root) beat() tea.Cmd {
	if r.beatArmed || r.session == nil || r.heartbeat() < 0 {
		return nil
	}
	r.beatArmed = true
	s := r.session
	return r.clock().After(r.heartbeat(), func(time.Time) tea.Msg { return beatMsg{session: s} })
}

// onBeat asks the service who is signed in when nothing answered since
// the last beat (the access info is the cheapest question), then arms the
// next beat.
func (r *Root) onBeat(msg beatMsg) tea.Cmd {
	r.beatArmed = false
	if r.session == nil {
		return nil
	}
	cmds := []tea.Cmd{r.beat()}
	s := r.session
	if _, _, down := s.reach.Down(); down || r.now().Sub(s.reach.Last()) >= r.heartbeat() {
		_, probe := Call(s, probeTimeout, func(ctx context.Context) (struct{}, error) {
			_, err := s.Client.AccessInfo(ctx)
			return struct{}{}, err
		})
		cmds = append(cmds, func() tea.Msg { probe(); return probedMsg{} })
	}
	return tea.Batch(cmds...)
}

// followReach compares whether the service answers with what the window
// shows: the banner (on the footer's line, so that nothing moves) comes
// at once and goes when it answers again, and then every screen loads
// what it shows again.
func (r *Root) followReach() tea.Cmd {
	if r.session == nil {
		return nil
	}
	_, _, down := r.session.reach.Down()
	if down == r.down {
		return nil
	}
	r.down = down
	r.relayout()
	if down {
		return nil
	}
	return tea.Batch(Toast(ToastSuccess, "The service answers again: every screen loads anew"),
		r.broadcast(ChangedMsg{Account: r.session.Account.ID, What: ChangedTickets | ChangedOperations | ChangedBeneficiaries | ChangedBalances}))
}

// reachBanner is the banner while the service does not answer, "" else.
func (r *Root) reachBanner() string {
	if r.session == nil {
		return ""
	}
	since, what, down := r.session.reach.Down()
	if !down {
		return ""
	}
	now := r.now()
	return "No answer from the service since " + since.In(now.Location()).Format("15:04:05") + " (" + Ago(now.Sub(since)) +
		"): values shown are the last good ones, dimmed; retrying by itself · " + what
}
