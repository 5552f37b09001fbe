package sandbox

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// A ticket still live when the sandbox stops goes on with its lifecycle
// after a restart on the same state file: the start-up finds it (per
// account, on the status index) and schedules what is due.
func TestRestartResumesLiveTickets(t *testing.T) {
	var at atomic.Int64
	at.Store(time.Now().UTC().UnixNano())
	clock := func() time.Time { return time.Unix(0, at.Load()).UTC() }
	cfg := Config{Seed: 1, Now: clock, StatePath: filepath.Join(t.TempDir(), "state.db")}

	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := r.client(t, "operator")
	var q struct{ QuoteToken string }
	c.json("GET", benchQuote, nil, 200, &q)
	var created struct {
		Ticket struct{ ID, Status string }
	}
	c.json("POST", "/v2/account/tickets/", map[string]string{"quoteToken": q.QuoteToken}, 201, &created)
	if created.Ticket.Status != "UNPAID" {
		t.Fatalf("a PIX ticket starts %s, want UNPAID", created.Ticket.Status)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	// Past the PIX funding delay, on a new sandbox over the same file.
	at.Add(int64(engine.PIXFundDelay + time.Second))
	r, err = Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c = r.client(t, "operator")
	var got struct {
		Ticket struct{ Status string }
	}
	c.json("GET", "/v2/account/tickets/"+created.Ticket.ID, nil, 200, &got)
	if got.Ticket.Status == "UNPAID" {
		t.Fatal("the ticket stayed UNPAID after the restart: its funding was not scheduled again")
	}
}

// The rails an account may use (§8.7) are kept in the state file: the
// demo's locked USD rail is still locked after a restart.
func TestRestartKeepsTheLockedRails(t *testing.T) {
	cfg := Config{Seed: 1, StatePath: filepath.Join(t.TempDir(), "state.db")}
	read := func() string {
		r, err := Start(cfg, "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var m struct{ UsdUnlocked, BrlUnlocked bool }
		r.client(t, "operator").json("GET", "/v2/account/metadata?subAccountId="+r.Creds.SubAccounts[1].ID, nil, 200, &m)
		return fmt.Sprintf("usd %v brl %v", m.UsdUnlocked, m.BrlUnlocked)
	}
	if first := read(); first != "usd false brl true" {
		t.Fatalf("Acme Brokerage before the restart: %s, want USD locked", first)
	}
	if again := read(); again != "usd false brl true" {
		t.Fatalf("Acme Brokerage after the restart: %s, want USD still locked", again)
	}
}
