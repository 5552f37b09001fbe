package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Arrivals notes when each of a set of strings first appears in what a
// program writes to its terminal. The start-up tests time the first frame
// and the balances with it rather than by polling the screen: a tmux
// capture every few milliseconds is a process started each time, and on a
// two-core machine it took CPU from the program being timed (the more,
// the more the program had to do while it started), and it saw a frame
// only at its next poll.
type Arrivals struct {
	tm      *Term
	mu      sync.Mutex
	at      map[string]time.Time
	arrived map[string]chan struct{} // closed when the string arrives
}

// LaunchTimed starts the program of a Term made by startTUIGated (see
// Launch) with its output copied as it is written (tmux pipe-pane, which
// copies what the pane's program writes as tmux reads it, the moment it
// reaches the screen) to a reader that looks for needles. A needle must be
// written in one piece: a word of the screen, not a phrase the renderer
// may split with cursor moves.
func (tm *Term) LaunchTimed(needles ...string) *Arrivals {
	tm.t.Helper()
	fifo := filepath.Join(tm.t.TempDir(), "output")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		tm.t.Fatalf("output pipe: %v", err)
	}
	if out, err := tm.run("pipe-pane", "-O", "-t", "main", "cat > '"+fifo+"'"); err != nil {
		tm.t.Fatalf("tmux pipe-pane: %v\n%s", err, out)
	}
	// The open waits for the copy's writer, which tmux has just started.
	f, err := os.Open(fifo)
	if err != nil {
		tm.t.Fatalf("open the output pipe: %v", err)
	}
	a := &Arrivals{tm: tm, at: map[string]time.Time{}, arrived: map[string]chan struct{}{}}
	for _, s := range needles {
		a.arrived[s] = make(chan struct{})
	}
	go func() {
		defer f.Close()
		var out []byte
		buf := make([]byte, 64<<10)
		for len(a.at) < len(needles) {
			n, err := f.Read(buf)
			if n > 0 {
				at := time.Now()
				out = append(out, buf[:n]...)
				for _, s := range needles {
					if _, ok := a.at[s]; !ok && bytes.Contains(out, []byte(s)) {
						a.mu.Lock()
						a.at[s] = at
						a.mu.Unlock()
						close(a.arrived[s])
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()
	tm.Launch()
	return a
}

// Wait returns how long after the launch needle first arrived, waiting up
// to timeout for it; false if it did not.
func (a *Arrivals) Wait(needle string, timeout time.Duration) (time.Duration, bool) {
	select {
	case <-a.arrived[needle]:
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.at[needle].Sub(a.tm.started), true
	case <-time.After(timeout):
		return 0, false
	}
}
