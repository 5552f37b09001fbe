package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// TestE2EExportStoppedBySwitchOrQuitLeavesNothing: a Tickets export is
// held on its second page (the sandbox keeps every ticket page after the
// first waiting). Switching account asks first, then says the export was
// stopped, and the export directory holds no partial file; back on the
// main account, quitting during an export asks first and leaves nothing
// either.
func TestE2EExportStoppedBySwitchOrQuitLeavesNothing(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	r, err := sandbox.Start(sandbox.Config{Seed: 1, Wrap: func(next http.Handler, _ sandbox.Credentials) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.Method == http.MethodGet && strings.HasPrefix(req.URL.Path, "/v2/account/tickets") && req.URL.Query().Get("cursor") != "" {
				select {
				case <-release:
				case <-req.Context().Done():
					return
				}
			}
			next.ServeHTTP(w, req)
		})
	}}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() {
		once.Do(func() { close(release) })
		r.Close()
	})
	creds := filepath.Join(t.TempDir(), "credentials.json")
	if err := r.Creds.WriteFile(creds); err != nil {
		t.Fatal(err)
	}
	exports := filepath.Join(t.TempDir(), "exports")
	if err := os.MkdirAll(exports, 0o700); err != nil {
		t.Fatal(err)
	}
	left := func() []string {
		entries, err := os.ReadDir(exports)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	exporting := func(tm *Term) {
		t.Helper()
		tm.Send("e")
		tm.WaitFor("exporting: 50 tickets, 1 pages so far", 15*time.Second)
		if names := left(); len(names) != 1 || !strings.HasSuffix(names[0], ".part") {
			t.Fatalf("while exporting the directory holds %q, want one partial file", names)
		}
	}

	tm := startTUIExporting(t, exports, creds, "operator", 140, 40)
	tm.Send("3")
	tm.WaitFor("loaded", 10*time.Second)
	exporting(tm)

	tm.Send(":")
	tm.Type("sub Acme Payments")
	tm.Send("Enter")
	tm.WaitFor("Switch to Acme Payments?", 10*time.Second)
	if names := left(); len(names) != 1 {
		t.Fatalf("the export was stopped before the switch was confirmed: %q", names)
	}
	tm.Send("y")
	// The footer may cut the toast's end beside the requests in flight.
	tm.WaitFor("Now operating Acme Payments · Tickets export stopped after 50 tickets; nothing was", 10*time.Second)
	if names := left(); len(names) != 0 {
		t.Fatalf("after the switch the export directory holds %q", names)
	}

	// Back to the main account, whose tickets take more than one page.
	tm.Send(":")
	tm.Type("sub main")
	tm.Send("Enter")
	tm.WaitFor("account Acme Treasury Ltda (main)", 10*time.Second)
	tm.WaitFor("loaded", 10*time.Second)
	exporting(tm)
	tm.Send("q")
	tm.WaitFor("Quit Tesouro?", 10*time.Second)
	tm.Send("y")
	if code := tm.WaitExit(15 * time.Second); code != 0 {
		t.Fatalf("exit status %d after quitting", code)
	}
	if names := left(); len(names) != 0 {
		t.Fatalf("after quitting the export directory holds %q", names)
	}
}
