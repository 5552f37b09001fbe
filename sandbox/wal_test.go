package sandbox

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// walLimit is the most the WAL may hold beside the database while writers
// keep it busy (issue: 8 writers for 20–30 s left 0.5–1 GB).
const walLimit = 128 << 20

// TestWALStaysBounded keeps 8 writers creating tickets on a --state
// sandbox and samples the size of its -wal file all along: it must stay
// under walLimit. TESOURO_WAL_SECONDS sets how long (default 25 s, 5 s
// under -short or the race detector; the figure of record is 60 s).
func TestWALStaysBounded(t *testing.T) {
	t.Parallel() // a measure of size, not of speed: it may share the machine
	secs := envInt(t, "TESOURO_WAL_SECONDS", 25)
	if os.Getenv("TESOURO_WAL_SECONDS") == "" && (testing.Short() || raceEnabled) {
		secs = 5
	}
	path := filepath.Join(t.TempDir(), "state.db")
	r, err := Start(Config{Seed: 1, Now: benchClock(), StatePath: path}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.seeded(); err != nil {
		t.Fatal(err)
	}
	c := r.client(t, "operator")
	c.hc = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	sub := "?subAccountId=" + r.Creds.SubAccounts[1].ID
	dropWebhooks(c, "", sub)
	var q struct{ QuoteToken string }
	c.json("GET", benchQuote+"&subAccountId="+r.Creds.SubAccounts[1].ID, nil, 200, &q)

	var (
		created atomic.Int64
		seq     atomic.Int64
		failed  atomic.Value
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) && failed.Load() == nil {
				body := map[string]string{"quoteToken": q.QuoteToken, "externalId": "wal-" + strconv.FormatInt(seq.Add(1), 10)}
				if code, out := c.do("POST", "/v2/account/tickets/"+sub, body); code != 201 {
					failed.Store(strconv.Itoa(code) + " " + string(out))
					return
				}
				created.Add(1)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var most, last int64
	sample := time.NewTicker(50 * time.Millisecond)
	defer sample.Stop()
loop:
	for {
		select {
		case <-done:
			break loop
		case <-sample.C:
			if fi, err := os.Stat(path + "-wal"); err == nil {
				last = fi.Size()
				most = max(most, last)
			}
		}
	}
	if f := failed.Load(); f != nil {
		t.Fatalf("a creation failed: %v", f)
	}
	db, _ := os.Stat(path)
	t.Logf("%d s, 8 writers: %d tickets created; WAL at most %.1f MB (last %.1f MB) beside a %.1f MB database",
		secs, created.Load(), float64(most)/(1<<20), float64(last)/(1<<20), float64(db.Size())/(1<<20))
	if created.Load() == 0 || most == 0 {
		t.Fatal("nothing was written: the measure proves nothing")
	}
	if most >= walLimit {
		t.Fatalf("the WAL reached %.1f MB during sustained writes, over the %d MB limit", float64(most)/(1<<20), walLimit>>20)
	}
}
