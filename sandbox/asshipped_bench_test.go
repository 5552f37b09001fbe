package sandbox

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// BenchmarkCreationsAsShipped measures ticket creations against the
// sandbox as it ships: the demo's webhooks on (the main account's hears
// the sub-account created on, and its deliveries are signed and served by
// the sandbox's own receiver, in this process, so they count), the real
// clock (the lifecycle funds and pays each ticket 3 s and 5 s after it is
// created, each transition an event and a delivery), the replay guard on,
// and a fresh quote for each ticket, asked and signed by the dashboard's
// api client (Ed25519) from 8 goroutines over loopback: a ticket is a
// signed quote and a signed creation. memory is the default sandbox;
// state100k runs with --state on a file of 100,000 stored tickets.
//
// Reported: tickets/s over the run; cpu-µs/ticket, the CPU of the whole
// process (client, sandbox, deliveries) per ticket over the run;
// backlog, the deliveries still waiting for the receiver when the run
// ends; settled-s, how long after the run the last ticket was paid and
// the last delivery answered; all-cpu-µs/ticket, the CPU per ticket
// until then (2 cores divided by it is the rate the machine sustains
// with every delivery signed and sent); dropped, deliveries given up for
// a full queue (none, or the receiver missed events); writers/commit, the
// creations and transitions each commit of the run carried; and
// wal-frames/ticket, the pages written to the WAL per ticket (files only).
func BenchmarkCreationsAsShipped(b *testing.B) {
	for _, v := range []struct {
		name   string
		stored int
	}{{"memory", 0}, {"state100k", 100_000}} {
		b.Run(v.name, func(b *testing.B) {
			cfg := Config{Seed: 1}
			if v.stored > 0 {
				cfg.StatePath = filepath.Join(b.TempDir(), "state.db")
			}
			r := startFilled(b, cfg, v.stored)
			if err := r.Server.seeded(); err != nil {
				b.Fatal(err)
			}
			<-r.Server.db.Checked()
			benchAsShipped(b, r)
		})
	}
}

func benchAsShipped(b *testing.B, r *Running) {
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}
	b.Cleanup(tr.CloseIdleConnections)
	c := operatorClient(b, r.BaseURL, r.Creds, api.WithHTTPClient(&http.Client{Transport: tr}))
	ctx := context.Background()
	hooks, err := c.ListWebhooks(ctx)
	if err != nil || len(hooks) == 0 {
		b.Fatalf("the demo's webhook is not there: %v %v", hooks, err)
	}
	sub := uuid.MustParse(r.Creds.SubAccounts[1].ID)
	quote := api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA",
		OutputPaymentMethod: "INTERNAL", InputAmount: decimal.NewNullDecimal(decimal.NewFromInt(100)), SubAccountID: sub}
	_, dropped0 := r.Server.sender.Waiting()
	var seq atomic.Int64
	b.SetParallelism(4) // 8 clients on 2 cores
	commits0, writers0 := r.Server.db.Commits()
	frames0 := r.Server.db.WALFrames()
	start, cpu0 := time.Now(), processCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			// Each ticket's amount is its own, as a payer's are: the
			// service takes a signed message once, so a client stamps
			// identical quotes a millisecond apart, and one amount asked
			// by every client would be a thousand a second at most.
			n := seq.Add(1)
			quote := quote
			quote.InputAmount = decimal.NewNullDecimal(decimal.New(10_000+n%9_000, -2))
			q, err := c.Quote(ctx, quote)
			if err != nil {
				b.Errorf("quote: %v", err)
				return
			}
			req := api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: "shipped-" + strconv.FormatInt(n, 10)}
			if res, err := c.CreateTicket(ctx, sub, req); err != nil || res.Ticket == nil {
				b.Errorf("creation: %v", err)
				return
			}
		}
	})
	elapsed, cpu := time.Since(start), processCPU()-cpu0
	commits, writers := r.Server.db.Commits()
	b.StopTimer()
	end := time.Now()
	waiting := func() int {
		most, _ := r.Server.sender.Waiting()
		return most + r.Server.eng.Outbox().Len()
	}
	backlog := waiting()
	// Then every ticket's lifecycle runs out (funded, paid) and every
	// delivery is sent: the CPU of it all, per ticket, is what a ticket
	// costs the machine, its three signed deliveries included.
	for time.Since(end) < settleAfter || waiting() > 0 {
		if time.Since(end) > time.Minute {
			b.Fatalf("%d deliveries still wait a minute after the run", waiting())
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, dropped := r.Server.sender.Waiting()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "tickets/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/ticket")
	b.ReportMetric(float64(backlog), "backlog")
	b.ReportMetric(time.Since(end).Seconds(), "settled-s")
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "all-cpu-µs/ticket")
	b.ReportMetric(float64(dropped-dropped0), "dropped")
	if commits > commits0 {
		b.ReportMetric(float64(writers-writers0)/float64(commits-commits0), "writers/commit")
	}
	if frames := r.Server.db.WALFrames() - frames0; frames > 0 {
		b.ReportMetric(float64(frames)/float64(b.N), "wal-frames/ticket")
	}
}

// settleAfter is how long after its creation a ticket of the as-shipped
// benchmark is paid (PIX funding, then delivery), with a margin.
const settleAfter = 5500 * time.Millisecond

// BenchmarkCreationsAnchor is the yardstick the creation figures are read
// against, measured on the same machine in the same run: a minimal signed
// HTTP server (net/http, each request's Ed25519 signature over timestamp,
// method, path and body verified, its timestamp checked) that stores each
// creation as one row of a SQLite table (the driver the sandbox uses)
// and answers it as JSON, called by 8 goroutines signing each request.
// memory keeps the table in memory; state keeps it in a WAL file with
// synchronous=NORMAL, as --state does.
func BenchmarkCreationsAnchor(b *testing.B) {
	for _, onDisk := range []bool{false, true} {
		name := "memory"
		if onDisk {
			name = "state"
		}
		b.Run(name, func(b *testing.B) {
			dsn := "file:/anchor-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "?vfs=memdb&_pragma=journal_mode(OFF)"
			if onDisk {
				dsn = "file:" + filepath.Join(b.TempDir(), "anchor.db") + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)"
			}
			benchAnchor(b, dsn)
		})
	}
}

func benchAnchor(b *testing.B, dsn string) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one writer, as SQLite has
	if _, err := db.Exec(`CREATE TABLE tickets (id TEXT PRIMARY KEY, external_id TEXT, amount TEXT, created_at INTEGER)`); err != nil {
		b.Fatal(err)
	}
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		ts := r.Header.Get("X-API-Timestamp")
		sig, err2 := base64.StdEncoding.DecodeString(r.Header.Get("X-API-Signature"))
		ms, err3 := strconv.ParseInt(ts, 10, 64)
		if err != nil || err2 != nil || err3 != nil || time.Since(time.UnixMilli(ms)).Abs() > 30*time.Second ||
			!ed25519.Verify(pub, append([]byte(ts+r.Method+r.URL.RequestURI()), body...), sig) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var in struct{ ExternalID, Amount string }
		if json.Unmarshal(body, &in) != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		id, now := uuid.NewString(), time.Now()
		if _, err := db.Exec(`INSERT INTO tickets VALUES (?, ?, ?, ?)`, id, in.ExternalID, in.Amount, now.UnixNano()); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]string{"id": id, "externalId": in.ExternalID, "amount": in.Amount, "createdAt": now.UTC().Format(time.RFC3339Nano)})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/v2/account/tickets/"
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}}
	var seq atomic.Int64
	b.SetParallelism(4)
	start, cpu0 := time.Now(), processCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := []byte(`{"externalId":"anchor-` + strconv.FormatInt(seq.Add(1), 10) + `","amount":"100"}`)
			ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
			sig := ed25519.Sign(priv, append([]byte(ts+"POST/v2/account/tickets/"), body...))
			req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
			req.Header.Set("X-API-Timestamp", ts)
			req.Header.Set("X-API-Signature", base64.StdEncoding.EncodeToString(sig))
			resp, err := hc.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Error(fmt.Errorf("status %d", resp.StatusCode))
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "tickets/s")
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/ticket")
}
