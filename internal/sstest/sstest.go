// Package sstest gives tests a real Secret Service without touching the
// user's own session: a private D-Bus session bus (dbus-daemon with a
// throwaway config and socket) and an unlocked throwaway gnome-keyring, in
// temporary XDG directories with no display, as reference/keyring-ci.md
// describes. It also starts the broken set-ups a user can meet: a bus with
// no Secret Service, and one whose Secret Service never answers.
package sstest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Service is a private session bus, with a Secret Service or not.
type Service struct {
	Dir       string
	Addr      string   // DBUS_SESSION_BUS_ADDRESS
	Env       []string // for child processes: the bus, throwaway XDG dirs and HOME, PATH, no display
	DaemonPID int      // gnome-keyring-daemon, 0 when there is none
	busPID    int
}

// Kind is what the bus offers.
type Kind int

// Kinds of bus.
const (
	None         Kind = iota // no Secret Service at all
	GnomeKeyring             // an unlocked gnome-keyring
	Hangs                    // a Secret Service that is activated and never answers
)

// Password unlocks the throwaway keyring; it must not be empty, or no
// "login" collection is created.
const Password = "throwaway-test-password"

// ErrMissingProgram marks a set-up that cannot start because a program is
// not installed: a skip outside CI, a failure in CI.
var ErrMissingProgram = errors.New("missing program")

var (
	shared    *Service
	sharedErr error
	base      string
)

// Run is the body of a TestMain: it starts the shared Secret Service and
// points this process at it before any keyring call (godbus caches the
// session connection for the life of the process), runs the tests, and
// stops everything it started.
func Run(m *testing.M) int {
	// No unlock dialog may ever appear.
	os.Unsetenv("DISPLAY")
	os.Unsetenv("WAYLAND_DISPLAY")
	var err error
	base, err = os.MkdirTemp("", "tesouro-keyring-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(base)
	shared, sharedErr = Start(filepath.Join(base, "shared"), GnomeKeyring)
	if shared != nil {
		os.Setenv("DBUS_SESSION_BUS_ADDRESS", shared.Addr)
		defer shared.Stop()
	} else {
		// Never let a test fall through to the user's own keyring.
		os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(base, "no-bus"))
	}
	return m.Run()
}

// Base is a temporary directory that lives as long as Run.
func Base() string { return base }

// Need returns the shared Secret Service, or skips the test with the
// reason, or fails it when CI is set.
func Need(t testing.TB) *Service {
	t.Helper()
	if shared == nil {
		Missing(t, sharedErr)
	}
	return shared
}

// Missing ends a test that has no Secret Service: skipped when a program is
// not installed and CI is not set, failed otherwise.
func Missing(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		err = errors.New("sstest.Run did not run (call it from TestMain)")
	}
	if errors.Is(err, ErrMissingProgram) && os.Getenv("CI") == "" {
		t.Skipf("no Secret Service for this test: %v (install dbus and gnome-keyring; with CI set this fails)", err)
	}
	t.Fatalf("no Secret Service for this test: %v", err)
}

// Start starts a private bus in dir (created), offering kind.
func Start(dir string, kind Kind) (*Service, error) {
	progs := []string{"dbus-daemon", "dbus-send"}
	if kind == GnomeKeyring {
		progs = append(progs, "gnome-keyring-daemon")
	}
	for _, prog := range progs {
		if _, err := exec.LookPath(prog); err != nil {
			return nil, fmt.Errorf("%w: %s is not installed", ErrMissingProgram, prog)
		}
	}
	s := &Service{Dir: dir}
	dirs := [][2]string{{"XDG_RUNTIME_DIR", "run"}, {"XDG_DATA_HOME", "data"}, {"XDG_CONFIG_HOME", "config"}, {"XDG_CACHE_HOME", "cache"}, {"HOME", "home"}}
	for _, sub := range append([][2]string{{"", "services"}}, dirs...) {
		if err := os.MkdirAll(filepath.Join(dir, sub[1]), 0o700); err != nil {
			return nil, err
		}
	}
	if kind == Hangs {
		// The bus does not keep activated services as children, so the
		// fake one records its pid for Stop.
		script := filepath.Join(dir, "fake-secret-service")
		body := "#!/bin/sh\necho $$ > " + filepath.Join(dir, "fake.pid") + "\nexec sleep 600\n"
		if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
			return nil, err
		}
		unit := "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=" + script + "\n"
		if err := os.WriteFile(filepath.Join(dir, "services", "org.freedesktop.secrets.service"), []byte(unit), 0o600); err != nil {
			return nil, err
		}
	}
	conf := fmt.Sprintf(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <servicedir>%s</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`, filepath.Join(dir, "bus"), filepath.Join(dir, "services"))
	confPath := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		return nil, err
	}
	out, err := exec.Command("dbus-daemon", "--config-file="+confPath, "--fork", "--print-address=1", "--print-pid=1").Output()
	if err != nil {
		return nil, fmt.Errorf("start dbus-daemon: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return nil, fmt.Errorf("dbus-daemon printed %q, want an address and a pid", out)
	}
	s.Addr = f[0]
	s.busPID, _ = strconv.Atoi(f[1])
	s.Env = []string{"DBUS_SESSION_BUS_ADDRESS=" + s.Addr, "PATH=" + os.Getenv("PATH")}
	for _, d := range dirs {
		s.Env = append(s.Env, d[0]+"="+filepath.Join(dir, d[1]))
	}
	if kind != GnomeKeyring {
		return s, nil
	}
	// --unlock creates and unlocks the "login" collection; --start then
	// claims org.freedesktop.secrets on the bus.
	unlock := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets")
	unlock.Env, unlock.Stdin = s.Env, strings.NewReader(Password)
	if out, err := unlock.CombinedOutput(); err != nil {
		s.Stop()
		return nil, fmt.Errorf("gnome-keyring-daemon --unlock: %v: %s", err, out)
	}
	start := exec.Command("gnome-keyring-daemon", "--start", "--components=secrets")
	start.Env = s.Env
	if out, err := start.CombinedOutput(); err != nil {
		s.Stop()
		return nil, fmt.Errorf("gnome-keyring-daemon --start: %v: %s", err, out)
	}
	if err := s.waitReady(10 * time.Second); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Send runs dbus-send on this bus: a separate process, so the test
// process's cached connection is not involved.
func (s *Service) Send(args ...string) (string, error) {
	cmd := exec.Command("dbus-send", append([]string{"--session", "--print-reply", "--reply-timeout=2000"}, args...)...)
	cmd.Env = s.Env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// Lock locks the login collection, as a screen lock or a timeout would.
func (s *Service) Lock() error {
	out, err := s.Send("--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
		"org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login")
	if err != nil {
		return fmt.Errorf("lock the collection: %v: %s", err, out)
	}
	return nil
}

// Tool runs secret-tool on this bus (libsecret-tools, optional: the error
// wraps exec.ErrNotFound when it is not installed).
func (s *Service) Tool(args ...string) (string, error) {
	if _, err := exec.LookPath("secret-tool"); err != nil {
		return "", err
	}
	cmd := exec.Command("secret-tool", args...)
	cmd.Env = s.Env
	out, err := cmd.Output()
	return string(out), err
}

// waitReady polls until the login collection answers unlocked (the
// readiness check of keyring-ci.md), then records the daemon's pid.
func (s *Service) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	var last string
	for time.Now().Before(deadline) {
		out, err := s.Send("--dest=org.freedesktop.secrets", "/org/freedesktop/secrets/collection/login",
			"org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Collection", "string:Locked")
		if err == nil && strings.Contains(out, "boolean false") {
			pidOut, err := s.Send("--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
				"org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets")
			if f := strings.Fields(pidOut); err == nil && len(f) > 0 {
				s.DaemonPID, _ = strconv.Atoi(f[len(f)-1])
			}
			if s.DaemonPID == 0 {
				return fmt.Errorf("cannot find the pid of the Secret Service: %s", pidOut)
			}
			return nil
		}
		last = out
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the Secret Service was not ready within %s: %s", limit, last)
}

// Stop ends every process this Service started.
func (s *Service) Stop() {
	if s == nil {
		return
	}
	if s.DaemonPID > 0 {
		syscall.Kill(s.DaemonPID, syscall.SIGCONT) // in case a test left it stopped
		syscall.Kill(s.DaemonPID, syscall.SIGTERM)
	}
	if s.busPID > 0 {
		syscall.Kill(s.busPID, syscall.SIGTERM)
	}
	if b, err := os.ReadFile(filepath.Join(s.Dir, "fake.pid")); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}

// UseBus points this process's keyring calls at addr for the rest of the
// test, and back at the shared bus afterwards. The test must not run in
// parallel with others that use the keyring.
func UseBus(t testing.TB, addr string) {
	t.Helper()
	resetSessionBus()
	t.Cleanup(resetSessionBus)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
}

// resetSessionBus closes godbus's cached session connection, so that the
// next keyring call dials DBUS_SESSION_BUS_ADDRESS afresh.
func resetSessionBus() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if c, err := dbus.SessionBus(); err == nil {
			c.Close()
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}
