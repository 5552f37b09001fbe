// Package e2e drives the real tesouro binary in a real terminal (tmux)
// against the sandbox: it sends keys, captures the pane as plain text and
// asserts on what a user would read. Every test is named TestE2E...; they
// need tmux and skip with the reason when it is missing, except under CI
// (CI set), where a missing tmux fails them.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// binary is the tesouro executable built once by TestMain.
var binary string

// sessions numbers the tmux servers of this process so that each TUI gets its
// own socket.
var sessions atomic.Int64

// Default terminal size of startTUI.
const (
	defaultWidth  = 100
	defaultHeight = 32
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "tesouro-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: temp dir for the binary:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	name := "tesouro"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	binary = filepath.Join(dir, name)
	// The package directory is e2e/; the main package is its parent.
	cmd := exec.Command("go", "build", "-o", binary, ".")
	cmd.Dir = ".."
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build of tesouro failed: %v\n%s", err, out.String())
		return 1
	}
	return m.Run()
}

// needTmux skips the test when tmux is missing, or fails it under CI.
func needTmux(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tmux is required for end-to-end tests under CI and was not found: %v", err)
		}
		t.Skip("tmux not found: install tmux to run the end-to-end tests")
	}
	return path
}

// startSandbox serves a fresh sandbox (seed 1) on loopback for the test and
// writes its credentials file; both go away at cleanup.
func startSandbox(t *testing.T) (*sandbox.Running, string) {
	t.Helper()
	return startSandboxWith(t, sandbox.Config{Seed: 1})
}

// startSandboxWith is startSandbox with a configuration of the journey's
// (faults, say).
func startSandboxWith(t *testing.T, cfg sandbox.Config) (*sandbox.Running, string) {
	t.Helper()
	r, err := sandbox.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	path := filepath.Join(t.TempDir(), "credentials.json")
	if err := r.Creds.WriteFile(path); err != nil {
		t.Fatalf("write sandbox credentials: %v", err)
	}
	return r, path
}

// clientAs is an API client of the sandbox signed as its demo access name,
// for a journey to arrange state or learn what the screens should show.
func clientAs(t *testing.T, sb *sandbox.Running, name string) *api.Client {
	t.Helper()
	acc, ok := sb.Creds.Access(name)
	if !ok {
		t.Fatalf("no %s in the sandbox credentials", name)
	}
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(sb.BaseURL, auth)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Term is one tesouro process running in its own tmux server.
type Term struct {
	t      *testing.T
	tmux   string
	socket string
	// Home is the throwaway home directory; Config and State are the
	// tesouro config and state directories inside it.
	Home, Config, State string
	started             time.Time
	status              string // file the exit status is written to
	gated               bool   // the program waits for Launch
	// width and height are the pane's size at start (defaultWidth and
	// defaultHeight when zero).
	width, height int
	// program is the executable run (binary when empty).
	program string
}

// startTUI runs the built binary with args in a fresh tmux server (100x32),
// with a throwaway HOME, XDG directories and TESOURO_CONFIG_DIR, so that no
// profile of the machine is seen. The server is killed at cleanup.
func startTUI(t *testing.T, args ...string) *Term {
	t.Helper()
	return startTUIEnv(t, nil, args...)
}

// openAs is the dashboard as the named demo access of the sandbox whose
// credentials file is creds, on its first screen.
func openAs(t *testing.T, creds, as string) *Term {
	t.Helper()
	tm := startTUI(t, "--credentials", creds, "--as", as)
	tm.WaitFor("Overview", 15*time.Second)
	return tm
}

// startTUIEnv is startTUI with extra environment variables ("NO_COLOR=1").
func startTUIEnv(t *testing.T, env []string, args ...string) *Term {
	t.Helper()
	return startTUIWith(t, env, nil, args...)
}

// startTUIWith is startTUI with extra environment variables and a prepare
// step that runs before the program starts (to write a config file into
// tm.Config, say).
func startTUIWith(t *testing.T, env []string, prepare func(tm *Term), args ...string) *Term {
	t.Helper()
	return startTerm(t, env, prepare, false, args...)
}

// startTUIExporting is startTUI as the named demo access of the sandbox
// whose credentials file is creds, with config.toml's export_dir set to
// dir, on the Overview, in a pane of width×height from the start. A resize
// right after start can reach the program before tmux has resized its own
// screen: the program's first frame at the new height then scrolls the
// pane, and its header is lost above it.
func startTUIExporting(t *testing.T, dir, creds, as string, width, height int) *Term {
	t.Helper()
	tm := startTUIWith(t, nil, func(tm *Term) {
		tm.width, tm.height = width, height
		if err := (&keystore.Config{ExportDir: dir}).Save(tm.Config); err != nil {
			t.Fatalf("write config: %v", err)
		}
	}, "--credentials", creds, "--as", as)
	tm.WaitFor("Overview", 15*time.Second)
	return tm
}

// startTUIGated is startTUI with the program held back until Launch: the
// tmux server and the shell are up first, so that Since measures the
// program alone.
func startTUIGated(t *testing.T, args ...string) *Term {
	t.Helper()
	return startTerm(t, nil, nil, true, args...)
}

// startProgramGated is startTUIGated for another executable.
func startProgramGated(t *testing.T, program string) *Term {
	t.Helper()
	return startTerm(t, nil, func(tm *Term) { tm.program = program }, true)
}

// Launch starts the program of a Term made by startTUIGated, and the clock
// of Since with it.
func (tm *Term) Launch() {
	tm.t.Helper()
	if !tm.gated {
		tm.t.Fatal("Launch of a Term that was not started gated")
	}
	tm.gated = false
	tm.started = time.Now()
	tm.Send("Enter")
}

func startTerm(t *testing.T, env []string, prepare func(tm *Term), gated bool, args ...string) *Term {
	t.Helper()
	tmuxPath := needTmux(t)
	home := t.TempDir()
	tm := &Term{
		t:      t,
		tmux:   tmuxPath,
		socket: fmt.Sprintf("tesouro-e2e-%d-%d", os.Getpid(), sessions.Add(1)),
		Home:   home,
		Config: filepath.Join(home, "config", "tesouro"),
		State:  filepath.Join(home, "state", "tesouro"),
	}
	conf := filepath.Join(home, "tmux.conf")
	// remain-on-exit keeps the pane after the program ends, so a test can
	// read what it printed at exit; escape-time 0 sends a lone Escape at once.
	if err := os.WriteFile(conf, []byte("set -g remain-on-exit on\nset -s escape-time 0\nset -g status off\nset -g history-limit 5000\n"), 0o600); err != nil {
		t.Fatalf("write tmux config: %v", err)
	}
	vars := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"TESOURO_CONFIG_DIR=" + tm.Config,
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"PATH=" + os.Getenv("PATH"),
	}
	vars = append(vars, env...)
	if prepare != nil {
		prepare(tm)
	}
	// A shell around the program records its exit status in a file: tmux
	// does not always learn the status of a pane's process.
	tm.status = filepath.Join(home, "exit-status")
	script := `"$@"; echo $? > '` + tm.status + `'`
	if gated {
		// The shell waits for a line (Launch's Enter) before it runs the
		// program.
		script = "read _; " + script
		tm.gated = true
	}
	cmdline := []string{"sh", "-c", script, "sh", "env", "-i"}
	cmdline = append(cmdline, vars...)
	if tm.program == "" {
		tm.program = binary
	}
	cmdline = append(cmdline, tm.program)
	cmdline = append(cmdline, args...)
	if tm.width == 0 {
		tm.width, tm.height = defaultWidth, defaultHeight
	}
	newSession := append([]string{"-f", conf, "new-session", "-d", "-s", "main",
		"-x", strconv.Itoa(tm.width), "-y", strconv.Itoa(tm.height), "--"}, cmdline...)
	tm.started = time.Now()
	if out, err := tm.run(newSession...); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// tmux leaves its socket file behind when the server is killed.
	sock, _ := tm.run("display-message", "-p", "#{socket_path}")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen of %s:\n%s", strings.Join(args, " "), tm.capture())
		}
		tm.run("kill-server")
		if sock = strings.TrimSpace(sock); strings.Contains(sock, tm.socket) {
			os.Remove(sock)
		}
	})
	return tm
}

// run runs a tmux command against this Term's server.
func (tm *Term) run(args ...string) (string, error) {
	cmd := exec.Command(tm.tmux, append([]string{"-L", tm.socket}, args...)...)
	cmd.Env = withoutTmux(os.Environ())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// withoutTmux drops TMUX and TMUX_PANE so that tests run from inside a tmux
// session still talk to their own server.
func withoutTmux(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Send sends tmux key names ("Enter", "Escape", "Tab", "C-c", "Up", "q").
func (tm *Term) Send(keys ...string) {
	tm.t.Helper()
	if out, err := tm.run(append([]string{"send-keys", "-t", "main"}, keys...)...); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// Type sends text literally, character by character as typed.
func (tm *Term) Type(text string) {
	tm.t.Helper()
	if out, err := tm.run("send-keys", "-t", "main", "-l", text); err != nil {
		tm.t.Fatalf("tmux send-keys -l %q: %v\n%s", text, err, out)
	}
}

// Screen returns the visible pane as plain text (no colour).
func (tm *Term) Screen() string {
	tm.t.Helper()
	return tm.capture()
}

func (tm *Term) capture() string {
	out, err := tm.run("capture-pane", "-p", "-t", "main")
	if err != nil {
		return fmt.Sprintf("(capture-pane failed: %v: %s)", err, out)
	}
	return out
}

// ScreenANSI returns the visible pane with its colours and attributes as
// escape sequences, for tests about how things are drawn (NO_COLOR).
func (tm *Term) ScreenANSI() string {
	tm.t.Helper()
	out, err := tm.run("capture-pane", "-p", "-e", "-t", "main")
	if err != nil {
		tm.t.Fatalf("tmux capture-pane -e: %v\n%s", err, out)
	}
	return out
}

// Scrollback returns everything the pane printed, history included, with
// wrapped lines joined: what a program printed after leaving the alternate
// screen (an exit message) is read here.
func (tm *Term) Scrollback() string {
	tm.t.Helper()
	out, err := tm.run("capture-pane", "-p", "-J", "-S", "-", "-t", "main")
	if err != nil {
		tm.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return out
}

// WaitFor polls the screen until it contains text and returns that screen;
// on timeout it fails the test, showing the last screen.
func (tm *Term) WaitFor(text string, timeout time.Duration) string {
	tm.t.Helper()
	return tm.WaitUntil(fmt.Sprintf("%q", text), timeout, func(s string) bool { return strings.Contains(s, text) })
}

// WaitGone polls the screen until text is no longer on it; on timeout it
// fails the test, showing the last screen.
func (tm *Term) WaitGone(text string, timeout time.Duration) {
	tm.t.Helper()
	tm.WaitUntil(fmt.Sprintf("%q to go away", text), timeout, func(s string) bool { return !strings.Contains(s, text) })
}

// syncs numbers the markers of Synced so that no two are alike.
var syncs atomic.Int64

// Synced proves that the dashboard has handled every key sent before it and
// returns the screen drawn after them: it opens the command line, types a
// marker no screen shows, waits for the marker to be drawn, closes the line
// and waits for the marker to go. Keys are handled in the order they are
// typed, so an absence asserted on the returned screen is not a race with
// a slow frame. It needs a screen that is not capturing text (the command
// line is the shell's); if an earlier key opened a prompt, the prompt takes
// the keys instead and Synced fails, showing it.
func (tm *Term) Synced() string {
	tm.t.Helper()
	marker := fmt.Sprintf("e2e-sync-%d", syncs.Add(1))
	tm.Send(":")
	tm.Type(marker)
	tm.WaitFor(marker, 5*time.Second)
	tm.Send("Escape")
	tm.WaitGone(marker, 5*time.Second)
	return tm.capture()
}

// WaitUntil polls the screen until ok accepts it and returns that screen;
// on timeout it fails the test with what, showing the last screen.
func (tm *Term) WaitUntil(what string, timeout time.Duration, ok func(screen string) bool) string {
	tm.t.Helper()
	timeout *= patience()
	deadline := time.Now().Add(timeout)
	for {
		s := tm.capture()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waited %s for %s; the screen is:\n%s", timeout, what, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// patience stretches every wait under CI: there the journeys share two cores
// with the race-instrumented suites of every other package, and an approval
// that answers in 200 ms alone was seen to take over 10 s. A wait only ends
// early when its screen appears, so a longer bound costs nothing when the
// machine is fast. TESOURO_E2E_PATIENCE overrides the factor.
func patience() time.Duration {
	if v, err := strconv.Atoi(os.Getenv("TESOURO_E2E_PATIENCE")); err == nil && v > 0 {
		return time.Duration(v)
	}
	if os.Getenv("CI") != "" {
		return 3
	}
	return 1
}

// Resize changes the terminal size.
func (tm *Term) Resize(w, h int) {
	tm.t.Helper()
	if out, err := tm.run("resize-window", "-t", "main", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h)); err != nil {
		tm.t.Fatalf("tmux resize-window %dx%d: %v\n%s", w, h, err, out)
	}
}

// Size returns the pane's current size.
func (tm *Term) Size() (w, h int) {
	tm.t.Helper()
	out, err := tm.run("display-message", "-p", "-t", "main", "#{pane_width} #{pane_height}")
	if err != nil {
		tm.t.Fatalf("tmux display-message: %v\n%s", err, out)
	}
	if _, err := fmt.Sscan(out, &w, &h); err != nil {
		tm.t.Fatalf("pane size %q: %v", out, err)
	}
	return w, h
}

// Exited reports whether the program has ended, and its exit status.
func (tm *Term) Exited() (bool, int) {
	tm.t.Helper()
	data, err := os.ReadFile(tm.status)
	if err != nil {
		return false, 0
	}
	text := strings.TrimSpace(string(data))
	if text == "" {
		return false, 0 // being written
	}
	code, err := strconv.Atoi(text)
	if err != nil {
		tm.t.Fatalf("exit status file %s holds %q", tm.status, text)
	}
	return true, code
}

// WaitExit waits for the program to end and returns its exit status; on
// timeout it fails the test, showing the screen.
func (tm *Term) WaitExit(timeout time.Duration) int {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if dead, status := tm.Exited(); dead {
			return status
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waited %s for the program to exit; the screen is:\n%s", timeout, tm.capture())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// Since is the time elapsed since the process was started.
func (tm *Term) Since() time.Duration { return time.Since(tm.started) }
