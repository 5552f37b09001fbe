package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A service that never answers stops a command at its deadline, naming
// the request that did not answer, instead of four tries of 30 s.
func TestUnresponsiveServiceStopsAtTheDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	sb := startTestSandbox(t)
	creds := sb.Creds
	creds.BaseURL = srv.URL
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := creds.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	e := newProfileEnv(t)
	start := time.Now()
	code, _, errOut := e.run("", "--credentials", path, "--timeout", "1s", "balances")
	took := time.Since(start)
	if code != exitRuntime || !strings.Contains(errOut, "GET /v2/account/balances did not answer within 1s") || !strings.Contains(errOut, srv.URL) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if took > 5*time.Second {
		t.Errorf("took %s with --timeout 1s", took)
	}
	if code, _, errOut := e.run("", "--credentials", path, "--timeout", "-1s", "balances"); code != exitUsage || !strings.Contains(errOut, "--timeout") {
		t.Errorf("--timeout -1s: exit %d %s", code, errOut)
	}
}

func TestDeadlineStopsWhileAPersonAnswers(t *testing.T) {
	ctx, release := withDeadline(context.Background(), 150*time.Millisecond)
	defer release()
	resume := pauseDeadline(ctx)
	time.Sleep(300 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatal("the deadline passed while paused")
	}
	resume()
	select {
	case <-ctx.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("the deadline never passed after resuming")
	}
	var de *deadlineError
	if cause := context.Cause(ctx); cause == nil || !asDeadline(cause, &de) {
		t.Errorf("cause %v", cause)
	}
}

func asDeadline(err error, de **deadlineError) bool {
	d, ok := err.(*deadlineError)
	*de = d
	return ok
}

// The long-running commands have no deadline unless --timeout is given.
func TestLongRunningCommandsHaveNoDefaultDeadline(t *testing.T) {
	f := New(IOStreams{}, func(string) string { return "" }, Build{})
	root := NewCmdRoot(f)
	for _, path := range [][]string{{"batch", "run"}, {"tickets", "export"}} {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		if d := f.timeoutFor(cmd); d != 0 {
			t.Errorf("%v: deadline %s", path, d)
		}
	}
	cmd, _, _ := root.Find([]string{"balances"})
	if d := f.timeoutFor(cmd); d != DefaultTimeout {
		t.Errorf("balances: deadline %s", d)
	}
}
