package ui

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
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

// TuneGC sets the collector of the dashboard's process after every
// collection from the heap it found live: the runtime's default while that
// is small, GCPercent once it passes largeHeap. Half of a small heap is
// little headroom: GOGC=50 from the start collected every 5 ms while the
// window opened (20 collections in its first 100 ms, a 2 MB heap goal),
// which slowed the first frame and kept an idle window's countdown
// collecting. The caller leaves GOGC and GOMEMLIMIT, when set, alone by
// not calling it. stop ends the tuning and leaves GOGC as it is.
func TuneGC() (stop func()) {
	var stopped atomic.Bool
	debug.SetGCPercent(defaultGCPercent)
	set := defaultGCPercent
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	afterEachGC(func() bool {
		if stopped.Load() {
			return false
		}
		metrics.Read(sample)
		if p := gcPercentFor(sample[0].Value.Uint64(), set); p != set {
			set = p
			debug.SetGCPercent(p)
		}
		return true
	})
	return func() { stopped.Store(true) }
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
