package sandbox

import (
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
)

// faults injects failures into requests (--faults "latency=50ms,error500=0.1,
// drop=0.05,dropAfterCommit=0.1,ratelimit=0.02"). Probabilities are drawn
// from a generator seeded by the sandbox seed, so a run can be repeated.
type faults struct {
	latency                                    time.Duration
	error500, drop, dropAfterCommit, ratelimit float64

	mu  sync.Mutex
	rng *rand.Rand
}

// faultSet is what happens to one request.
type faultSet struct {
	latency                                    time.Duration
	error500, drop, dropAfterCommit, ratelimit bool
}

func parseFaults(spec string, seed int64) (*faults, error) {
	f := &faults{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
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

func (f *faults) active() bool {
	return f.latency > 0 || f.error500 > 0 || f.drop > 0 || f.dropAfterCommit > 0 || f.ratelimit > 0
}

// pick draws the faults of one request. At most one failure applies; the
// order of the draws is fixed so that a seed reproduces a run.
func (f *faults) pick() faultSet {
	if !f.active() {
		return faultSet{}
	}
	fs := faultSet{latency: f.latency}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.drop > 0 && f.rng.Float64() < f.drop:
		fs.drop = true
	case f.ratelimit > 0 && f.rng.Float64() < f.ratelimit:
		fs.ratelimit = true
	case f.error500 > 0 && f.rng.Float64() < f.error500:
		fs.error500 = true
	case f.dropAfterCommit > 0 && f.rng.Float64() < f.dropAfterCommit:
		fs.dropAfterCommit = true
	}
	return fs
}

// discardLogger silences net/http's log of aborted handlers (the drop
// faults abort on purpose).
func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }
