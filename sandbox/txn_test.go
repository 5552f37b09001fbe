package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// In memory, writers queued on the store lock share one transaction, and a
// reader that comes between two of them waits for its commit (memdb refuses
// a reader while a write transaction is open; before, such a reader held
// its lock while SQLite made it wait, so the batch could not commit, and it
// got 500 after the 10 s busy timeout). Every ticket whose creation was
// answered is readable at once.
func TestInMemoryBatchedWritersAndReadersBetweenThem(t *testing.T) {
	r, err := Start(Config{Seed: 1, Now: benchClock()}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	c := r.client(t, "operator")
	c.hc = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
	sub := r.Creds.SubAccounts[1].ID
	dropWebhooks(c, "", "?subAccountId="+sub)
	var q struct{ QuoteToken string }
	c.json("GET", benchQuote+"&subAccountId="+sub, nil, 200, &q)

	var last atomic.Value // the id of a ticket whose creation was answered
	var writersDone atomic.Bool
	var reads atomic.Int64
	errs := make(chan string, 32)
	var writers, readers sync.WaitGroup
	for w := range 8 {
		writers.Go(func() {
			for i := range 120 {
				body := map[string]string{"quoteToken": q.QuoteToken, "externalId": fmt.Sprintf("w%d-%d", w, i)}
				code, out := c.do("POST", "/v2/account/tickets/?subAccountId="+sub, body)
				if code != 201 {
					errs <- fmt.Sprintf("creation: %d %s", code, out)
					return
				}
				var got struct{ ID string }
				if err := json.Unmarshal(out, &got); err != nil || got.ID == "" {
					errs <- fmt.Sprintf("creation answer without id: %s", out)
					return
				}
				last.Store(got.ID)
			}
		})
	}
	for range 4 {
		readers.Go(func() {
			for !writersDone.Load() {
				id, _ := last.Load().(string)
				if id == "" {
					continue
				}
				code, out := c.do("GET", "/v2/account/tickets/"+id+"?subAccountId="+sub, nil)
				if code != 200 {
					errs <- fmt.Sprintf("reading answered ticket %s: %d %s", id, code, out)
					return
				}
				reads.Add(1)
			}
		})
	}
	writers.Wait()
	writersDone.Store(true)
	readers.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	commits, writes := r.Server.db.Commits()
	t.Logf("%d writers in %d commits, %d reads", writes, commits, reads.Load())
	if commits >= writes {
		t.Errorf("%d writers took %d commits: no transaction carried two writers", writes, commits)
	}
	if reads.Load() == 0 {
		t.Error("no read ran while the writers did")
	}
}

// A creation's quote token is read before the store lock, yet a request
// wrong in both its sub-account and its token is still answered about the
// sub-account first, as before.
func TestCreationNamesTheSubAccountBeforeTheQuote(t *testing.T) {
	r, err := Start(Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	c := r.client(t, "operator")
	body := map[string]string{"quoteToken": "not-a-token"}
	code, out := c.do("POST", "/v2/account/tickets/?subAccountId=00000000-0000-4000-8000-000000000001", body)
	if code != http.StatusNotFound || !strings.Contains(string(out), "sub-account") {
		t.Errorf("unknown sub-account and bad token: %d %s, want 404 naming the sub-account", code, out)
	}
	code, out = c.do("POST", "/v2/account/tickets/", body)
	if code != http.StatusBadRequest || !strings.Contains(string(out), engine.CodeQuoteInvalid) {
		t.Errorf("bad token: %d %s, want 400 %s", code, out, engine.CodeQuoteInvalid)
	}
}

// The in-memory database keeps no rollback journal, yet a bulk fill's
// template, made in a savepoint rolled back, still leaves nothing behind:
// the journal is on for that one transaction, and off again after it.
func TestInMemoryBulkTemplateRollsBackWithoutAJournal(t *testing.T) {
	r, err := Start(Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	s := r.Server
	mode := func() string {
		m, err := s.db.JournalMode()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mode(); m != "off" {
		t.Fatalf("in-memory journal mode %q, want off", m)
	}
	have, err := s.countTickets()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.bulkTickets(100, 5); err != nil {
		t.Fatal(err)
	}
	got, err := s.countTickets()
	if err != nil {
		t.Fatal(err)
	}
	if got != have+100 {
		t.Errorf("%d tickets after adding 100 to %d: the template was kept", got, have)
	}
	if m := mode(); m != "off" {
		t.Errorf("journal mode %q after the fill, want off again", m)
	}
}
