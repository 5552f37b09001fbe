package e2e

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Journeys of decisions taken on every fact: an approval at 40×12 that y
// does not approve before every line was read, a service stopped and
// started again under an open dashboard, a requester who finds a rejected
// request after a restart, and a CVU saved twice only on a second yes.

// saveConfirmed sends the open beneficiary form and answers yes to the
// confirmation of what it registers, which it returns.
func saveConfirmed(tm *Term) string {
	tm.t.Helper()
	tm.Send("C-s")
	s := tm.WaitFor("Register this", 10*time.Second)
	tm.Send("y")
	return s
}

// startTUISized is the dashboard as access of the sandbox of creds, in a
// pane of w×h from the start, with env added.
func startTUISized(t *testing.T, env []string, creds, as string, w, h int) *Term {
	t.Helper()
	tm := startTUIWith(t, env, func(tm *Term) { tm.width, tm.height = w, h }, "--credentials", creds, "--as", as)
	tm.WaitFor("SANDBOX", 15*time.Second)
	return tm
}

// TestE2EApprovalAt40x12WaitsForEveryLine: at 40×12 the approval box does
// not fit; an early y approves nothing, and after paging through every
// line y approves.
func TestE2EApprovalAt40x12WaitsForEveryLine(t *testing.T) {
	sb, creds := startSandbox(t)
	opID := parkForApproval(t, creds, "requester", "432")

	a1 := startTUISized(t, nil, creds, "approver1", 40, 12)
	inboxOn(a1, "432.00")
	a1.WaitFor("432.00", 10*time.Second)
	a1.Send("a")
	s := a1.WaitFor("to read before y", 15*time.Second)
	if !strings.Contains(s, "Approve") {
		t.Fatalf("no approval box:\n%s", s)
	}
	a1.Send("y")
	time.Sleep(time.Second)
	c := clientAs(t, sb, "approver1")
	op, err := c.GetOperation(context.Background(), uuid.MustParse(opID))
	if err != nil {
		t.Fatal(err)
	}
	if op.Approvals != 0 {
		t.Fatalf("an early y approved: %d approvals\n%s", op.Approvals, a1.Screen())
	}
	if !strings.Contains(a1.Screen(), "to read before y") {
		t.Fatalf("the early y closed the box:\n%s", a1.Screen())
	}
	for range 30 {
		if strings.Contains(a1.Screen(), "y confirm") {
			break
		}
		a1.Send("PageDown")
		time.Sleep(150 * time.Millisecond)
	}
	a1.WaitFor("y confirm", 5*time.Second)
	a1.Send("y")
	a1.WaitFor("Approved "+opID[:8], 15*time.Second)
	if op, err = c.GetOperation(context.Background(), uuid.MustParse(opID)); err != nil || op.Approvals != 1 {
		t.Fatalf("after reading every line, y did not approve: %+v %v", op, err)
	}
}

// sandboxProc is a `tesouro sandbox --state` process: Stop ends it, Start
// starts it again on the same address and state.
type sandboxProc struct {
	t                 *testing.T
	state, addr, home string
	creds             string
	cmd               *exec.Cmd
}

func newSandboxProc(t *testing.T) *sandboxProc {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	home := t.TempDir()
	p := &sandboxProc{t: t, state: filepath.Join(home, "sandbox.db"), addr: addr, home: home, creds: filepath.Join(home, "credentials.json")}
	p.Start()
	t.Cleanup(p.Stop)
	return p
}

// Start starts the process and waits until it answers.
func (p *sandboxProc) Start() {
	p.t.Helper()
	cmd := exec.Command(binary, "sandbox", "--state", p.state, "--addr", p.addr, "--credentials-out", p.creds)
	cmd.Env = []string{"HOME=" + p.home, "XDG_STATE_HOME=" + filepath.Join(p.home, "state"), "TESOURO_CONFIG_DIR=" + filepath.Join(p.home, "config"), "PATH=" + os.Getenv("PATH")}
	if err := cmd.Start(); err != nil {
		p.t.Fatalf("start the sandbox: %v", err)
	}
	p.cmd = cmd
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", p.addr, 200*time.Millisecond); err == nil {
			c.Close()
			if _, err := os.Stat(p.creds); err == nil {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatalf("the sandbox did not answer on %s", p.addr)
}

// Stop ends the process (as Ctrl-C does) and waits for it.
func (p *sandboxProc) Stop() {
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	p.cmd = nil
}

// TestE2EServiceStoppedAndRestartedUnderTheDashboard: the dashboard runs on
// a `tesouro sandbox --state` process that is stopped: within 10 s the
// footer says the service does not answer, and the balances stay on
// screen; the process starts again and the banner goes with no key
// pressed.
func TestE2EServiceStoppedAndRestartedUnderTheDashboard(t *testing.T) {
	p := newSandboxProc(t)
	tm := startTUISized(t, nil, p.creds, "operator", 100, 32)
	// The balances panel, not an earlier panel's "as of".
	before := tm.WaitUntil("the balances", 15*time.Second, func(s string) bool {
		_, ok := usdtShown(s)
		return ok
	})
	p.Stop()
	stopped := time.Now()
	s := tm.WaitFor("No answer from the service since", 10*time.Second)
	t.Logf("banner %s after the stop", time.Since(stopped).Round(100*time.Millisecond))
	if !strings.Contains(s, "BRLA") || !strings.Contains(s, "Balances") {
		t.Fatalf("the balances left the screen:\n%s", s)
	}
	if strings.Count(s, "\n") != strings.Count(before, "\n") {
		t.Fatalf("the layout changed:\n%s", s)
	}
	p.Start()
	tm.WaitGone("No answer from the service", 20*time.Second)
	if s := tm.Screen(); !strings.Contains(s, "BRLA") {
		t.Fatalf("the balances are gone after the recovery:\n%s", s)
	}
}

// TestE2ERequesterFindsARejectionAfterARestart: the requester parks a
// payment and quits; approver1 rejects it with a reason; the requester's
// dashboard, started again on the same state directory, shows it on
// Approvals, My requests, with who rejected it and why.
func TestE2ERequesterFindsARejectionAfterARestart(t *testing.T) {
	sb, creds := startSandbox(t)
	state := []string{"XDG_STATE_HOME=" + filepath.Join(t.TempDir(), "state")}
	tm := startTUISized(t, state, creds, "requester", 100, 32)
	tm.WaitFor("Overview", 15*time.Second)
	opID := parkOn(t, tm, "543")
	tm.Send("q")
	tm.WaitExit(10 * time.Second)

	c := clientAs(t, sb, "approver1")
	if _, err := c.RejectOperation(context.Background(), uuid.MustParse(opID), "the supplier changed its bank"); err != nil {
		t.Fatalf("reject: %v", err)
	}

	again := startTUISized(t, state, creds, "requester", 120, 32)
	again.WaitFor("Overview", 15*time.Second)
	again.Send("4")
	again.WaitFor("My requests", 10*time.Second)
	s := again.WaitFor("REJECTED", 15*time.Second)
	// The whole reason is under the table, wrapped to the width.
	if words := strings.Join(strings.Fields(s), " "); !strings.Contains(words, "REJECTED by approver1@") || !strings.Contains(words, "the supplier changed its bank") {
		t.Fatalf("the rejection and its reason are not found:\n%s", s)
	}
}

// TestE2EDuplicateCVUNeedsASecondYes: an ARS account whose CVU is already
// registered is named in the save's confirmation, which says it is
// permanent; the first yes saves nothing, the second saves it.
func TestE2EDuplicateCVUNeedsASecondYes(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	const cvu = "0000003100010000000009"
	if _, err := c.CreateARSAccount(context.Background(), uuid.Nil, api.CreateARSAccountRequest{Alias: "Proveedor BA", CVU: cvu}); err != nil {
		t.Fatalf("register the first: %v", err)
	}
	count := func() int {
		p, err := c.ListARSAccounts(context.Background(), api.BeneficiaryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range p.Items {
			if a.CVU == cvu {
				n++
			}
		}
		return n
	}
	tm := startTUISized(t, nil, creds, "operator", 100, 32)
	tm.WaitFor("Overview", 15*time.Second)
	tm.Send("5")
	tm.WaitFor("Wallets", 10*time.Second)
	for range 5 {
		tm.Send("Right")
	}
	tm.WaitFor("Proveedor BA", 10*time.Second)
	tm.Send("n")
	tm.WaitFor("New ARS account", 5*time.Second)
	tm.Type("Otro nombre")
	tm.Send("Tab")
	tm.Type(cvu)
	tm.Send("C-s")
	s := tm.WaitFor("ALREADY REGISTERED", 10*time.Second)
	if !strings.Contains(s, "Proveedor BA") || !strings.Contains(s, "PERMANENT") {
		t.Fatalf("the confirmation does not name the duplicate and say it is permanent:\n%s", s)
	}
	tm.Send("y")
	tm.WaitFor("Second yes", 10*time.Second)
	if n := count(); n != 1 {
		t.Fatalf("the first yes saved it: %d with that CVU", n)
	}
	tm.Send("y")
	tm.WaitFor(`"Otro nombre" registered`, 10*time.Second)
	if n := count(); n != 2 {
		t.Fatalf("the second yes did not save it: %d with that CVU", n)
	}
}
