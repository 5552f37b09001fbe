package api

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy bounds how idempotent reads are retried on 5xx, 429 and
// transport failures. Writes are never retried by this policy.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt (0: none).
	MaxRetries int
	// BaseDelay is the first backoff; each retry doubles it, with jitter.
	BaseDelay time.Duration
	// MaxDelay caps one backoff.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the client waits for; a
	// longer one ends the retries and the error carries the wait asked for.
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy is what New uses: three retries from 250 ms to 4 s,
// waiting at most 10 s for a Retry-After.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, BaseDelay: 250 * time.Millisecond, MaxDelay: 4 * time.Second, MaxRetryAfter: 10 * time.Second}

// backoff is the jittered wait before retry n (0-based): uniformly in
// [d/2, d] where d = BaseDelay·2ⁿ capped at MaxDelay.
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	for i := 0; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// retryable reports whether a read that got this status may be retried.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// parseRetryAfter reads a Retry-After header: delay seconds or an HTTP date.
// Zero means absent or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		if n > 86400 {
			n = 86400
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
