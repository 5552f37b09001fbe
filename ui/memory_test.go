package ui

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCPercentForAHeapHasAMarginAroundTheLine(t *testing.T) {
	for _, c := range []struct {
		live     uint64
		cur, out int
	}{
		{0, GCPercent, defaultGCPercent},
		{largeHeap * 3 / 4, defaultGCPercent, defaultGCPercent},
		{largeHeap * 3 / 4, GCPercent, GCPercent}, // in the margin: stays
		{largeHeap - 1, defaultGCPercent, defaultGCPercent},
		{largeHeap, defaultGCPercent, GCPercent},
		{largeHeap*3/4 - 1, GCPercent, defaultGCPercent},
		{1 << 30, GCPercent, GCPercent},
	} {
		if got := gcPercentFor(c.live, c.cur); got != c.out {
			t.Errorf("gcPercentFor(%d MiB, %d) = %d, want %d", c.live>>20, c.cur, got, c.out)
		}
	}
}

// gogc is the GOGC in force.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// waitGOGC collects until the GOGC in force is want: the tuning runs
// after a collection, on another goroutine.
func waitGOGC(t *testing.T, want int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for gogc() != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s: GOGC is %d, want %d", what, gogc(), want)
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTuneGCFollowsTheLiveHeap(t *testing.T) {
	old := debug.SetGCPercent(GCPercent)
	defer debug.SetGCPercent(old)
	stop := TuneGC(nil)
	defer stop()
	if got := gogc(); got != defaultGCPercent {
		t.Fatalf("GOGC is %d once tuning starts on a small heap, want %d", got, defaultGCPercent)
	}
	held := make([]byte, largeHeap+(16<<20))
	for i := range held {
		held[i] = byte(i)
	}
	waitGOGC(t, GCPercent, "with 80 MiB live")
	runtime.KeepAlive(held)
	held = nil
	waitGOGC(t, defaultGCPercent, "once they are released")

	// Stopped, it leaves GOGC alone.
	stop()
	debug.SetGCPercent(70)
	runtime.GC()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := gogc(); got != 70 {
		t.Errorf("GOGC is %d after the tuning stopped, want the 70 set since", got)
	}
}

// before is the memory limit the opening tests set before the tuning.
const before = 1 << 40

// setCollector sets GOGC and the memory limit for a test, and puts back
// the process's own at its end.
func setCollector(t *testing.T, gogc int, limit int64) {
	oldGC := debug.SetGCPercent(gogc)
	oldLimit := debug.SetMemoryLimit(limit)
	t.Cleanup(func() {
		debug.SetGCPercent(oldGC)
		debug.SetMemoryLimit(oldLimit)
	})
}

// memoryLimit is the GOMEMLIMIT in force.
func memoryLimit() int64 {
	s := []metrics.Sample{{Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestTuneGCHoldsTheCollectorWhileTheWindowOpens: until the first frame
// is drawn the collector is off under openingLimit, and a collection
// meanwhile (one at the limit) does not turn it back on; once it is drawn,
// GOGC and the memory limit are back to what they were, and the tuning by
// the live heap goes on.
func TestTuneGCHoldsTheCollectorWhileTheWindowOpens(t *testing.T) {
	setCollector(t, GCPercent, before)

	drawn := make(chan struct{})
	stop := TuneGC(drawn)
	defer stop()
	if got := gogc(); got != -1 {
		t.Fatalf("GOGC is %d while the window opens, want the collector off (-1)", got)
	}
	if got := memoryLimit(); got != openingLimit {
		t.Fatalf("memory limit %d while the window opens, want %d", got, openingLimit)
	}
	runtime.GC()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := gogc(); got != -1 {
		t.Fatalf("GOGC is %d after a collection during the opening, want -1", got)
	}

	drawnAt := time.Now()
	close(drawn)
	deadline := drawnAt.Add(openingMax)
	for gogc() == -1 {
		if time.Now().After(deadline) {
			t.Fatalf("the collector was still off %s after the first frame", openingMax)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := gogc(); got != defaultGCPercent {
		t.Errorf("GOGC is %d after the opening, want %d", got, defaultGCPercent)
	}
	if got := memoryLimit(); got != before {
		t.Errorf("memory limit %d after the opening, want the %d set before", got, int64(before))
	}
	waitGOGC(t, defaultGCPercent, "tuned by the live heap after the opening")
}

// TestTuneGCStoppedDuringTheOpeningGivesTheCollectorBack: a dashboard that
// ends before its first frame leaves the collector on and the limit as it
// was.
func TestTuneGCStoppedDuringTheOpeningGivesTheCollectorBack(t *testing.T) {
	setCollector(t, GCPercent, before)

	stop := TuneGC(make(chan struct{}))
	if got := gogc(); got != -1 {
		t.Fatalf("GOGC is %d while the window opens, want -1", got)
	}
	stop()
	if got := gogc(); got != defaultGCPercent {
		t.Errorf("GOGC is %d once stopped during the opening, want %d", got, defaultGCPercent)
	}
	if got := memoryLimit(); got != before {
		t.Errorf("memory limit %d once stopped during the opening, want %d", got, int64(before))
	}
}
