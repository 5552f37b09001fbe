package ui

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// GCPercent is the dashboard's GOGC once what it holds is large (see
// TuneGC): the heap may grow by half of what is live before a collection,
// so the headroom scales with the tickets loaded (a fixed limit turns into
// a collection spiral once they outgrow it) and a million of them stay
// under 500 MB. The UI benchmarks at a million tickets run with it.
const GCPercent = 50

// largeHeap is the live heap from which TuneGC holds GOGC at GCPercent;
// below three quarters of it, the runtime's default (100) comes back.
const largeHeap = 64 << 20

// defaultGCPercent is the runtime's own GOGC.
const defaultGCPercent = 100

// openingLimit caps the heap while the window opens (see TuneGC): far
// above what opening it holds (a few MiB), and the runtime collects as it
// nears it, so the cap only ever bounds the unexpected.
const openingLimit = 64 << 20

// openingMax ends the opening when no first frame is reported.
const openingMax = 2 * time.Second

// TuneGC sets the collector of the dashboard's process after every
// collection from the heap it found live: the runtime's default while that
// is small, GCPercent once it passes largeHeap. Half of a small heap is
// little headroom: GOGC=50 from the start collected every 5 ms while the
// window opened (20 collections in its first 100 ms, a 2 MB heap goal),
// which slowed the first frame and kept an idle window's countdown
// collecting.
//
// While the window opens the collector does not run at all: until drawn is
// closed (the first frame has reached the terminal), or openingMax, the
// heap grows under openingLimit instead of against the runtime's initial
// 4 MB goal. The two or three collections that goal cost ran beside the
// first frame and the embedded sandbox's first answers, on a machine with
// two cores, and delayed both by about 2 ms. The opening ends with the
// first frame, not later: the embedded sandbox builds its demo history
// from then on, and a heap left to grow through it kept 35 MB more
// resident. A nil drawn skips the opening.
//
// The caller leaves GOGC and GOMEMLIMIT, when set, alone by not calling
// it. stop ends the opening if it still runs, then the tuning: GOGC
// stays as it is from then on.
func TuneGC(drawn <-chan struct{}) (stop func()) {
	t := &gcTuner{set: defaultGCPercent}
	if drawn != nil {
		t.opening = true
		t.ended = make(chan struct{})
		t.limit = debug.SetMemoryLimit(openingLimit)
		debug.SetGCPercent(-1)
		go t.open(drawn)
	} else {
		debug.SetGCPercent(defaultGCPercent)
	}
	afterEachGC(t.collected)
	return t.stop
}

// gcTuner is TuneGC's state, shared by the cleanup that runs after each
// collection and the goroutine that ends the opening.
type gcTuner struct {
	mu      sync.Mutex
	set     int           // the GOGC set when not opening
	opening bool          // the collector is off under openingLimit
	limit   int64         // the memory limit before the opening
	ended   chan struct{} // closed when the opening ends
	stopped bool
}

// open ends the opening once the first frame has been drawn, or
// openingMax after the start.
func (t *gcTuner) open(drawn <-chan struct{}) {
	longest := time.NewTimer(openingMax)
	defer longest.Stop()
	select {
	case <-drawn:
	case <-longest.C:
	case <-t.ended: // stopped first
	}
	t.mu.Lock()
	t.endOpening()
	t.mu.Unlock()
}

// endOpening gives the collector back its GOGC and the memory limit it had.
func (t *gcTuner) endOpening() {
	if !t.opening {
		return
	}
	t.opening = false
	close(t.ended)
	debug.SetGCPercent(t.set)
	debug.SetMemoryLimit(t.limit)
}

// collected runs after each collection: it sets GOGC for the live heap,
// and asks to run again until the tuning stops.
func (t *gcTuner) collected() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	if t.opening {
		return true // a collection at openingLimit: the opening goes on
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if p := gcPercentFor(sample[0].Value.Uint64(), t.set); p != t.set {
		t.set = p
		debug.SetGCPercent(p)
	}
	return true
}

func (t *gcTuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endOpening()
	t.stopped = true
}

// gcPercentFor is the GOGC for a live heap of live bytes, now at cur:
// GCPercent from largeHeap on, the default below three quarters of it, cur
// in between so that a heap near the line does not switch at every
// collection.
func gcPercentFor(live uint64, cur int) int {
	switch {
	case live >= largeHeap:
		return GCPercent
	case live < largeHeap*3/4:
		return defaultGCPercent
	}
	return cur
}

// sentinel is an object nothing keeps: a collection finds it unreachable
// and runs its cleanup. It holds a pointer so that it is not packed with
// other small objects, whose lives would delay its own.
type sentinel struct{ _ *byte }

// afterEachGC runs f after every collection, on the runtime's cleanup
// goroutine, until f returns false.
func afterEachGC(f func() bool) {
	runtime.AddCleanup(new(sentinel), func(f func() bool) {
		if f() {
			afterEachGC(f)
		}
	}, f)
}
