package sandbox

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// BenchmarkProcessCreationsStripped measures a running `tesouro sandbox` (the
// default, in memory, on the demo data) as an integrator's program meets
// it: signed ticket creations over loopback on 8 connections, from this
// process, with the dashboard's client (the target's own measure, the
// sandbox's cost alone, is BenchmarkServerTicketCreationsStripped). The sandbox is
// its own process with its own Go scheduler, as it is in use; client and
// sandbox share the machine's cores, and the CPU each spends per creation
// is reported apart.
//
// The binary is built from this module, or is TESOURO_BENCH_BIN (to
// measure another build on the same harness). Its clock is real, so each
// connection asks a new quote before its last is 10 s old; the tickets
// are PIX inputs above the auto-fund limit (5,000 BRL), which wait for
// their payer, so no lifecycle work mixes into the creations. The main
// account's webhooks, which hear every sub-account, are deleted first (see
// benchCreations).
//
// Stripped: this is not the sandbox as shipped (webhooks, the running
// lifecycle, the replay guard, a quote per ticket), which
// BenchmarkCreationsAsShipped measures; it is kept to tell the costs apart.
func BenchmarkProcessCreationsStripped(b *testing.B) {
	dir := b.TempDir()
	bin := os.Getenv("TESOURO_BENCH_BIN")
	if bin == "" {
		bin = buildTesouro(b, dir)
	}
	credsPath := filepath.Join(dir, "credentials.json")
	proc, base := startSandboxProcess(b, bin, credsPath)
	creds, err := ReadCredentials(credsPath)
	if err != nil {
		b.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}
	b.Cleanup(tr.CloseIdleConnections)
	c := operatorClient(b, base, creds, api.WithHTTPClient(&http.Client{Transport: tr}))
	ctx := context.Background()
	hooks, err := c.ListWebhooks(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range hooks {
		if err := c.DeleteWebhook(ctx, w.ID); err != nil {
			b.Fatal(err)
		}
	}
	sub := uuid.MustParse(creds.SubAccounts[1].ID)
	quote := api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA",
		OutputPaymentMethod: "INTERNAL", InputAmount: decimal.NewNullDecimal(decimal.NewFromInt(5000)), SubAccountID: sub}
	pid := proc.Process.Pid
	// Each run's externalIds are new: a sandbox keeps serving across the
	// runs of one benchmark.
	var seq atomic.Int64
	b.Run("connections=8", func(b *testing.B) {
		b.SetParallelism(4) // 8 connections on 2 cores
		start, cpu0, srvCPU0 := time.Now(), processCPU(), processCPUOf(pid)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			var token string
			var asked time.Time
			for pb.Next() {
				if time.Since(asked) > 10*time.Second {
					q, err := c.Quote(ctx, quote)
					if err != nil {
						b.Error(err)
						return
					}
					token, asked = q.QuoteToken, time.Now()
				}
				req := api.CreateTicketRequest{QuoteToken: token, ExternalID: "bench-" + strconv.FormatInt(seq.Add(1), 10)}
				if res, err := c.CreateTicket(ctx, sub, req); err != nil || res.Ticket == nil {
					b.Errorf("creation: %v", err)
					return
				}
			}
		})
		elapsed := time.Since(start)
		b.ReportMetric(float64(b.N)/elapsed.Seconds(), "creations/s")
		b.ReportMetric(float64((processCPUOf(pid)-srvCPU0).Microseconds())/float64(b.N), "sandbox-cpu-µs/op")
		b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "client-cpu-µs/op")
	})
}

// BenchmarkProcessStartup1M measures a `tesouro sandbox --state FILE`
// process starting on a file of TESOURO_BENCH_TICKETS stored tickets
// (default 1,000,000) until its first signed answer (GET
// /v2/account/balances by the demo operator): the time an integrator
// waits after restarting it. The file is built once (a minute or more
// at 1M) in a temporary directory, or kept in TESOURO_SCALE_DIR between
// runs. Each op is one start; the median is reported, beside its anchor
// measured in the same loop: the same binary started and ended without a
// sandbox (`tesouro --version`), the floor of any start on this machine.
func BenchmarkProcessStartup1M(b *testing.B) {
	n := envInt(b, "TESOURO_BENCH_TICKETS", 1_000_000)
	dir := os.Getenv("TESOURO_SCALE_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("state-%d.db", n))
	buildStateFile(b, path, n)
	bin := os.Getenv("TESOURO_BENCH_BIN")
	if bin == "" {
		bin = buildTesouro(b, b.TempDir())
	}
	var took, floor []time.Duration
	for b.Loop() {
		b.StopTimer()
		f0 := time.Now()
		if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil {
			b.Fatalf("%s --version: %v\n%s", bin, err, out)
		}
		floor = append(floor, time.Since(f0))
		b.StartTimer()
		credsPath := filepath.Join(b.TempDir(), "creds.json")
		t0 := time.Now()
		proc, base := startSandboxProcess(b, bin, credsPath, "--state", path)
		creds, err := ReadCredentials(credsPath)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = operatorClient(b, base, creds).Balances(ctx, uuid.Nil)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
		b.StopTimer()
		_ = proc.Process.Signal(os.Interrupt)
		_ = proc.Wait()
		b.StartTimer()
	}
	slices.Sort(took)
	slices.Sort(floor)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(floor[len(floor)/2].Microseconds())/1000, "anchor-ms")
}

// buildStateFile makes path a state file (seed 1) holding at least n
// tickets, unless it already does.
func buildStateFile(tb testing.TB, path string, n int) {
	tb.Helper()
	s, err := New(Config{Seed: 1, StatePath: path})
	if err != nil {
		tb.Fatal(err)
	}
	s.cancel() // no lifecycle work while the file is built
	if err := s.seeded(); err != nil {
		tb.Fatal(err)
	}
	have, err := s.countTickets()
	if err != nil {
		tb.Fatal(err)
	}
	if n > have {
		if err := s.bulkTickets(n-have, 99); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
}
