package sandbox

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// BenchmarkProcessCreations measures a running `tesouro sandbox` (the
// default, in memory, on the demo data) as an integrator's program meets
// it: signed ticket creations over loopback on 8 connections, from this
// process, with the dashboard's client (target ≥ 5,000/s). The sandbox is
// its own process with its own Go scheduler, as it is in use; client and
// sandbox share the machine's cores, and the CPU each spends per creation
// is reported apart.
//
// The binary is built from this module, or is TESOURO_BENCH_BIN (to
// measure another build on the same harness). Its clock is real, so each
// connection asks a new quote before its last is 10 s old; the tickets
// are PIX inputs above the auto-fund limit (5,000 BRL), which wait for
// their payer, so no lifecycle work mixes into the creations. No webhook
// hears the account (dropMainWebhooks).
func BenchmarkProcessCreations(b *testing.B) {
	bin := os.Getenv("TESOURO_BENCH_BIN")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "tesouro")
		build := exec.Command("go", "build", "-o", bin, "..")
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	srv := startProcess(b, bin)
	cred, ok := srv.creds.Access("operator")
	if !ok {
		b.Fatal("no operator access in the credentials")
	}
	auth, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		b.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}
	b.Cleanup(tr.CloseIdleConnections)
	c, err := api.New(srv.creds.BaseURL, auth, api.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		b.Fatal(err)
	}
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
	sub := uuid.MustParse(srv.creds.SubAccounts[1].ID)
	quote := api.QuoteRequest{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA",
		OutputPaymentMethod: "INTERNAL", InputAmount: decimal.NewNullDecimal(decimal.NewFromInt(5000)), SubAccountID: sub}
	// Each run's externalIds are new: a sandbox keeps serving across the
	// runs of one benchmark.
	var seq atomic.Int64
	b.Run("connections=8", func(b *testing.B) {
		b.SetParallelism(4) // 8 connections on 2 cores
		start, cpu0, srvCPU0 := time.Now(), processCPU(), srv.cpu()
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
		b.ReportMetric(float64((srv.cpu()-srvCPU0).Microseconds())/float64(b.N), "sandbox-cpu-µs/op")
		b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "client-cpu-µs/op")
	})
}

type sandboxProcess struct {
	cmd   *exec.Cmd
	creds Credentials
}

// startProcess runs `bin sandbox` on a free loopback port with its files
// (credentials, state directory) in a temporary directory, and waits until
// it answers.
func startProcess(b *testing.B, bin string) *sandboxProcess {
	dir := b.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	credPath := filepath.Join(dir, "credentials.json")
	cmd := exec.Command(bin, "sandbox", "--addr", addr, "--credentials-out", credPath)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	p := &sandboxProcess{cmd: cmd}
	b.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		if c, err := ReadCredentials(credPath); err == nil {
			if conn, err := net.Dial("tcp", addr); err == nil {
				conn.Close()
				p.creds = c
				return p
			}
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			b.Fatalf("the sandbox did not start: %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cpu is the CPU time the sandbox process used so far (Linux: from
// /proc; 0 elsewhere, where the figure is not reported as meaningful).
func (p *sandboxProcess) cpu() time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces) start
	// after its closing parenthesis; utime and stime are the 14th and
	// 15th fields, in clock ticks (USER_HZ, 100 on Linux).
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0
	}
	return time.Duration(u+s) * 10 * time.Millisecond
}
