package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
)

// DefaultTimeout is a command's overall deadline unless --timeout says
// otherwise: every request it makes and every retry, together. Without it
// an unresponsive service held a command for four tries of 30 s each.
const DefaultTimeout = 60 * time.Second

// longRunning is the annotation of a command that runs as long as its work
// needs (a batch, a full export, a quote watched until Ctrl-C): it has no
// deadline unless --timeout is given. The dashboard and tesouro sandbox
// have none at all.
const longRunning = "tesouro.longRunning"

// deadline is a command's overall deadline. It stops while a person is
// asked something (pause): the time spent answering a question is not the
// service's.
type deadline struct {
	d      time.Duration
	cancel context.CancelCauseFunc

	mu     sync.Mutex
	left   time.Duration
	since  time.Time
	timer  *time.Timer
	paused int
	fired  bool
}

// deadlineError is the cause of a context whose deadline passed.
type deadlineError struct{ d time.Duration }

func (e *deadlineError) Error() string { return fmt.Sprintf("the command's %s deadline passed", e.d) }

type deadlineKey struct{}

// withDeadline returns ctx bounded by d, and the function that releases it.
func withDeadline(ctx context.Context, d time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	dl := &deadline{d: d, cancel: cancel, left: d, since: time.Now()}
	dl.timer = time.AfterFunc(d, dl.fire)
	return context.WithValue(ctx, deadlineKey{}, dl), func() {
		dl.mu.Lock()
		dl.timer.Stop()
		dl.mu.Unlock()
		cancel(nil)
	}
}

func (dl *deadline) fire() {
	dl.mu.Lock()
	dl.fired = true
	dl.mu.Unlock()
	dl.cancel(&deadlineError{dl.d})
}

// pauseDeadline stops the deadline of ctx, if it has one, until the
// returned function is called: while a person answers a question.
func pauseDeadline(ctx context.Context) (resume func()) {
	dl, ok := ctx.Value(deadlineKey{}).(*deadline)
	if !ok {
		return func() {}
	}
	dl.mu.Lock()
	defer dl.mu.Unlock()
	if dl.paused == 0 && dl.timer.Stop() {
		dl.left -= time.Since(dl.since)
	}
	dl.paused++
	var once sync.Once
	return func() {
		once.Do(func() {
			dl.mu.Lock()
			defer dl.mu.Unlock()
			if dl.paused--; dl.paused == 0 && !dl.fired {
				dl.since = time.Now()
				dl.timer = time.AfterFunc(dl.left, dl.fire)
			}
		})
	}
}

// timeoutFor is the deadline of cmd: --timeout when given, none for a
// long-running command otherwise, else the default.
func (f *Factory) timeoutFor(cmd *cobra.Command) time.Duration {
	if flagChanged(cmd.Flags(), "timeout") {
		return f.G.Timeout
	}
	if _, ok := cmd.Annotations[longRunning]; ok {
		return 0
	}
	return f.G.Timeout
}

// explainDeadline turns the error of a command whose deadline passed into
// what did not answer, and what to do.
func explainDeadline(ctx context.Context, err error, t *Target) error {
	var de *deadlineError
	if err == nil || !errors.As(context.Cause(ctx), &de) {
		return err
	}
	where := "the service"
	if t != nil && t.baseURL != "" {
		where += " at " + t.baseURL
	}
	if method, path, ok := api.Unanswered(err); ok {
		return fmt.Errorf("%s %s did not answer within %s, the command's deadline: %s is not answering (--timeout 5m waits longer, --timeout 0 without limit)", method, path, de.d, where)
	}
	return fmt.Errorf("the command did not finish within %s, its deadline (--timeout 5m waits longer, --timeout 0 without limit): %w", de.d, err)
}
