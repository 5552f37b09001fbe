package e2e

import (
	"os"
	"slices"
	"testing"
	"time"
)

// balancesRatio is the most the dashboard's balances may take, from
// process start, against the minimal Bubble Tea program's first frame
// started the same way in the same run (medians). The embedded sandbox
// answers the balances before its demo history is built; on the shared
// 2-core machine, with other builds running, the dashboard's median was
// 2.8x against 11.9x for the build that waited for the history in the
// same run. 5x is a tripwire a loaded machine does not trip; the
// precise guards are BenchmarkStartupToBalances (ui) and the sandbox's
// TestEarlyAnswersAreTheBuiltSandboxs.
const balancesRatio = 5.0

// balancesTarget is where the balances should be, from process start, in 9
// runs of 10 on an idle machine: the test reports how many runs made it (a
// shared machine decides too much of it for a failure).
const balancesTarget = 60 * time.Millisecond

// TestE2EStartupToBalances measures, in a real terminal, the time from
// starting the process in sandbox mode to the operated account's balances
// on screen, several times, interleaved with the first frame of the
// minimal Bubble Tea program (the anchor; see TestE2EStartupToFirstFrame
// for how the clock is started and how a frame is timed). With
// TESOURO_E2E_BEFORE naming another build of tesouro, that build is
// measured in the same loop and the two are compared.
func TestE2EStartupToBalances(t *testing.T) {
	minimal := buildMinimal(t)
	before := os.Getenv("TESOURO_E2E_BEFORE")
	balance := demoBalance(t)
	firstFrame := func(tm *Term) time.Duration {
		d, ok := tm.LaunchTimed("SANDBOX").Wait("SANDBOX", frameWait)
		if !ok {
			t.Fatalf("no first frame within %s:\n%s", frameWait, tm.capture())
		}
		return d
	}
	// balances is the time to the balances, and to the first frame seen
	// on the way.
	balances := func(tm *Term) (data, frame time.Duration) {
		a := tm.LaunchTimed("SANDBOX", balance)
		frame, ok := a.Wait("SANDBOX", frameWait)
		if !ok {
			t.Fatalf("no first frame within %s:\n%s", frameWait, tm.capture())
		}
		if data, ok = a.Wait(balance, dataWait); !ok {
			t.Fatalf("the BRLA balance %s was not drawn within %s:\n%s", balance, dataWait, tm.capture())
		}
		return data, frame
	}
	const runs = 10
	var anchor, after, old, afterFrame, oldFrame []time.Duration
	for range runs {
		tm := startProgramGated(t, minimal)
		anchor = append(anchor, firstFrame(tm))
		tm.run("kill-server")

		tm = startTUIGated(t)
		d, f := balances(tm)
		after, afterFrame = append(after, d), append(afterFrame, f)
		tm.run("kill-server")

		if before != "" {
			tm = startProgramGated(t, before)
			d, f := balances(tm)
			old, oldFrame = append(old, d), append(oldFrame, f)
			tm.run("kill-server")
		}
	}
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	within := 0
	for _, d := range after {
		if d <= balancesTarget {
			within++
		}
	}
	base, got := median(anchor), median(after)
	ratio := float64(got) / float64(base)
	frame := median(afterFrame)
	t.Logf("process start to balances on screen: best %s, median %s, worst %s; minimal program's first frame: median %s; ratio %.2f (first frame on the way: median %s, %.2f) (%d runs)",
		after[0].Round(time.Millisecond), got.Round(time.Millisecond), after[runs-1].Round(time.Millisecond), base.Round(time.Millisecond), ratio,
		frame.Round(time.Millisecond), float64(frame)/float64(base), runs)
	t.Logf("balances within %s of the process's start in %d of %d runs", balancesTarget, within, runs)
	if before != "" {
		b, bf := median(old), median(oldFrame)
		t.Logf("%s: balances median %s, ratio %.2f against the minimal program; this build takes %.2fx its time (first frame: median %s, %.2f; this build %.2fx)",
			before, b.Round(time.Millisecond), float64(b)/float64(base), float64(got)/float64(b), bf.Round(time.Millisecond), float64(bf)/float64(base), float64(frame)/float64(bf))
	}
	if ratio > balancesRatio {
		t.Errorf("median balances after %s, %.2fx the minimal program's first frame %s (at most %.1fx; all runs: %v)",
			got.Round(time.Millisecond), ratio, base.Round(time.Millisecond), balancesRatio, after)
	}
}
