// Package faults injects the failures of spec/service.md §6 into the
// requests a sandbox serves (--faults "latency=50ms,error500=0.1,drop=0.05,
// dropAfterCommit=0.1,ratelimit=0.02"), for the reliability tests of a
// client. Probabilities are drawn from a generator seeded by the sandbox
// seed, so a run can be repeated. The zero Faults injects nothing.
package faults

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults is what failures to inject, and how often.
type Faults struct {
	latency                                    time.Duration
	error500, drop, dropAfterCommit, ratelimit float64

	mu  sync.Mutex
	rng *rand.Rand
}

// Set is what happens to one request: a delay, and at most one failure
// (a 500, the connection closed before or after the work, a 429).
type Set struct {
	Latency                                    time.Duration
	Error500, Drop, DropAfterCommit, RateLimit bool
}

// Parse reads a --faults spec (comma-separated kind=value), its draws
// seeded by seed.
func Parse(spec string, seed int64) (*Faults, error) {
	f := &Faults{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return f, nil
	}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("faults: %q is not kind=value (kinds: latency, error500, drop, dropAfterCommit, ratelimit)", part)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "latency" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return nil, fmt.Errorf("faults: latency %q is not a duration such as 50ms", v)
			}
			f.latency = d
			continue
		}
		p, err := strconv.ParseFloat(v, 64)
		if err != nil || p < 0 || p > 1 {
			return nil, fmt.Errorf("faults: %s=%q must be a probability between 0 and 1", k, v)
		}
		switch k {
		case "error500":
			f.error500 = p
		case "drop":
			f.drop = p
		case "dropAfterCommit":
			f.dropAfterCommit = p
		case "ratelimit":
			f.ratelimit = p
		default:
			return nil, fmt.Errorf("faults: unknown kind %q (kinds: latency, error500, drop, dropAfterCommit, ratelimit)", k)
		}
	}
	return f, nil
}

func (f *Faults) active() bool {
	return f.latency > 0 || f.error500 > 0 || f.drop > 0 || f.dropAfterCommit > 0 || f.ratelimit > 0
}

// Pick draws the faults of one request. At most one failure applies; the
// order of the draws is fixed so that a seed reproduces a run.
func (f *Faults) Pick() Set {
	if !f.active() {
		return Set{}
	}
	fs := Set{Latency: f.latency}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.drop > 0 && f.rng.Float64() < f.drop:
		fs.Drop = true
	case f.ratelimit > 0 && f.rng.Float64() < f.ratelimit:
		fs.RateLimit = true
	case f.error500 > 0 && f.rng.Float64() < f.error500:
		fs.Error500 = true
	case f.dropAfterCommit > 0 && f.rng.Float64() < f.dropAfterCommit:
		fs.DropAfterCommit = true
	}
	return fs
}
