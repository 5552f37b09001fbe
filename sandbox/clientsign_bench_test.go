package sandbox_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// The ...ClientSign benchmarks are the presigned BenchmarkServer... ones
// with the real api client signing every request as it goes, sharing the
// two cores with the sandbox the way a user's dashboard does. The
// presigned figure is the sandbox's capacity; this one is what a signing
// client gets out of it. Same sandbox (seed 1, clock frozen at start, so
// that one quote token serves every creation), same accesses, same
// parallelism, so that the two rates divide into the cost of signing.
//
// They use only what the sandbox exports (Start, its credentials, the
// HTTP API) so that they survive a rewrite of its internals.

// startClientSign serves a sandbox on loopback whose clock stands still and
// returns it with an api client of the named demo access. The client signs
// with the real clock: a run lasts far less than the 30 s the sandbox
// allows between a request's timestamp and its own time.
func startClientSign(b *testing.B, access string) (*sandbox.Running, *api.Client) {
	b.Helper()
	frozen := time.Now()
	r, err := sandbox.Start(sandbox.Config{Seed: 1, Now: func() time.Time { return frozen }}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	cred, ok := r.Creds.Access(access)
	if !ok {
		b.Fatalf("no demo access %q", access)
	}
	auth, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		b.Fatalf("%s: %v", access, err)
	}
	// As many idle connections as the presigned benchmark's transport, so
	// that neither side pays for new connections the other does not.
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	b.Cleanup(tr.CloseIdleConnections)
	c, err := api.New(r.BaseURL, auth, api.WithTimeout(10*time.Second), api.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		b.Fatal(err)
	}
	return r, c
}

// runClientSign calls do from 4 goroutines per core (the presigned
// benchmark's parallelism) and returns the rate per second.
func runClientSign(b *testing.B, do func(context.Context) error) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b.SetParallelism(4)
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := do(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
	return float64(b.N) / time.Since(start).Seconds()
}

// BenchmarkServerSignedReadsClientSign: BenchmarkServerSignedReads (GET
// /v2/account/balances) with the api client signing each read, per key
// type (target: ≥ 10,000 reads/s on 2 cores).
func BenchmarkServerSignedReadsClientSign(b *testing.B) {
	for _, a := range []struct{ key, access string }{{"rsa", "viewer"}, {"ecdsa", "approver1"}, {"ed25519", "operator"}} {
		b.Run(a.key, func(b *testing.B) {
			_, c := startClientSign(b, a.access)
			b.ReportMetric(runClientSign(b, func(ctx context.Context) error {
				_, err := c.Balances(ctx, uuid.Nil)
				return err
			}), "reads/s")
		})
	}
}

// BenchmarkServerTicketCreationsStrippedClientSign: BenchmarkServerTicketCreationsStripped
// (POST /v2/account/tickets/ on an account without webhooks, as operator,
// Ed25519) with the api client signing each creation (target: ≥ 3,000
// creations/s on 2 cores).
//
// Stripped: this is not the sandbox as shipped (webhooks, the running
// lifecycle, the replay guard, a quote per ticket), which
// BenchmarkCreationsAsShipped measures; it is kept to tell the costs apart.
func BenchmarkServerTicketCreationsStrippedClientSign(b *testing.B) {
	r, c := startClientSign(b, "operator")
	dropMainWebhooks(b, c)
	sub := uuid.MustParse(r.Creds.SubAccounts[1].ID)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	q, err := c.Quote(ctx, api.QuoteRequest{
		SubAccountID:  sub,
		InputCurrency: "BRL", InputPaymentMethod: "PIX",
		OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL",
		InputAmount: decimal.NewNullDecimal(decimal.RequireFromString("100")),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(runClientSign(b, func(ctx context.Context) error {
		res, err := c.CreateTicket(ctx, sub, api.CreateTicketRequest{QuoteToken: q.QuoteToken})
		if err == nil && res.Ticket == nil {
			b.Errorf("creation answered without a ticket: %+v", res)
		}
		return err
	}), "creations/s")
}
