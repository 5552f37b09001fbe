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
	stop := TuneGC()
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
