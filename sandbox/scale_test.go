package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestScaleOfTheStateFile measures the real `tesouro sandbox --state`
// process on a file of TESOURO_SCALE_TICKETS tickets (for the measured
// figure: 1000000) against one of 1,000: time from start to the first
// answered request, filtered list pages (p50, p99) and the resident
// memory. It runs only when the variable is set (building a million
// tickets takes a minute or two).
func TestScaleOfTheStateFile(t *testing.T) {
	if os.Getenv("TESOURO_SCALE_TICKETS") == "" {
		t.Skip("set TESOURO_SCALE_TICKETS=1000000 to measure")
	}
	big := envInt(t, "TESOURO_SCALE_TICKETS", 1_000_000)
	// TESOURO_SCALE_DIR keeps the state files between runs (they take a
	// while to build); by default they go with the test.
	dir := os.Getenv("TESOURO_SCALE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	bin := buildTesouro(t, dir)
	for _, n := range []int{1_000, big} {
		path := filepath.Join(dir, fmt.Sprintf("state-%d.db", n))
		start := time.Now()
		s, err := New(Config{Seed: 1, StatePath: path})
		if err != nil {
			t.Fatal(err)
		}
		s.cancel() // no lifecycle work while the file is built
		if err := s.seeded(); err != nil {
			t.Fatal(err)
		}
		have, err := s.countTickets()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.bulkTickets(n-have, 99); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(path)
		t.Logf("stored=%d: file built in %v, %d MB", n, time.Since(start).Round(time.Millisecond), info.Size()>>20)

		credsPath := filepath.Join(dir, "creds.json")
		t0 := time.Now()
		proc, base := startSandboxProcess(t, bin, credsPath, "--state", path, "--speed", "20")
		creds, err := ReadCredentials(credsPath)
		if err != nil {
			t.Fatal(err)
		}
		c := operatorClient(t, base, creds)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if _, err := c.Balances(ctx, uuid.Nil); err != nil {
			t.Fatal(err)
		}
		cancel()
		startup := time.Since(t0)

		// Once right after start (while the whole-file check of a big file runs in
		// the background), once when the process is idle again.
		for _, when := range []string{"just after start", "idle"} {
			if when == "idle" {
				waitIdle(t, proc.Process.Pid)
			}
			listLatencies(t, n, when, base, creds)
		}
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", proc.Process.Pid))
		var rss, hwm string
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				rss = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				hwm = strings.TrimSpace(v)
			}
		}
		t.Logf("stored=%d: start-up to first answer %v, RSS %s (peak %s)", n, startup.Round(time.Millisecond), rss, hwm)
		_ = proc.Process.Signal(os.Interrupt)
		_ = proc.Wait()
	}
}

func credAccess(t *testing.T, creds Credentials, name string) AccessCredential {
	a, ok := creds.Access(name)
	if !ok {
		t.Fatalf("no access %q", name)
	}
	return a
}

func listLatencies(t *testing.T, n int, when, base string, creds Credentials) {
	now := time.Now().UTC()
	raw := newRawClient(t, base, credAccess(t, creds, "operator"), time.Now)
	for _, q := range []string{
		"status=FAILED",
		"externalId=erp-00000000",
		"createdAfter=" + now.Add(-50*24*time.Hour).Format(time.RFC3339) + "&createdBefore=" + now.Add(-40*24*time.Hour).Format(time.RFC3339),
	} {
		var lat []time.Duration
		for i := 0; i < 300; i++ {
			t1 := time.Now()
			if code, out := raw.do("GET", "/v2/account/tickets/?"+q, nil); code != 200 {
				t.Fatalf("%d %s", code, out)
			}
			lat = append(lat, time.Since(t1))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		name, _, _ := strings.Cut(q, "=")
		t.Logf("stored=%d %s, %s: p50 %v, p99 %v", n, when, name, lat[len(lat)/2], lat[len(lat)*99/100])
	}
}

// waitIdle waits until the process has used no CPU for a second (at most
// five minutes).
func waitIdle(t *testing.T, pid int) {
	start := time.Now()
	last := processCPUOf(pid)
	for time.Since(start) < 5*time.Minute {
		time.Sleep(time.Second)
		now := processCPUOf(pid)
		if now-last <= 20*time.Millisecond {
			t.Logf("idle after %v", time.Since(start).Round(time.Second))
			return
		}
		last = now
	}
}
