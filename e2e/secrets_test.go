package e2e

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/internal/sstest"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// sessionWait bounds every wait of the session: generous, for a loaded
// two-core machine running with -race.
const sessionWait = 30 * time.Second

// shiftedClock is the sandbox's clock: real time plus an offset the test
// moves forward, so that an access token can expire without waiting for it.
type shiftedClock struct{ offset atomic.Int64 }

func (c *shiftedClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// secretSet names every secret of a session, with the patterns that would
// betray each one.
type secretSet map[string][]*regexp.Regexp

// shortSecret is the length under which a secret (the six-digit e-mailed
// token) is only a match standing on its own: six digits in a row occur by
// chance in timestamps, amounts and ids.
const shortSecret = 12

// add records a secret; a JWT is also looked for by its signature alone, a
// PEM by each line of its body (the armour lines are not secret).
func (s secretSet) add(name, value string) {
	value = strings.TrimSpace(value)
	if value == "" {
		return
	}
	literal := func(v string) {
		s[name] = append(s[name], regexp.MustCompile(regexp.QuoteMeta(v)))
	}
	if block, _ := pem.Decode([]byte(value)); block != nil {
		var body []string
		for _, line := range strings.Split(value, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "-----") || strings.Contains(line, ":") {
				continue
			}
			// A short last line ("AQ==") would match by chance.
			if len(line) >= 16 {
				literal(line)
			}
			body = append(body, line)
		}
		if joined := strings.Join(body, ""); len(joined) >= 16 {
			literal(joined)
		}
		return
	}
	if len(value) < shortSecret {
		const edge = `[^0-9A-Za-z.,:]`
		s[name] = append(s[name], regexp.MustCompile(`(?:^|`+edge+`)`+regexp.QuoteMeta(value)+`(?:$|`+edge+`)`))
		return
	}
	literal(value)
	if parts := strings.Split(value, "."); len(parts) == 3 && len(parts[2]) >= 16 {
		literal(parts[2])
	}
}

// leaks lists the secrets found in content.
func (s secretSet) leaks(content string) []string {
	var found []string
	for name, patterns := range s {
		for _, p := range patterns {
			if p.MatchString(content) {
				found = append(found, name)
				break
			}
		}
	}
	return found
}

// session is one user's machine: throwaway home, config and state
// directories and a private Secret Service, shared by every process the
// user runs.
type session struct {
	t                   *testing.T
	home, config, state string
	env                 []string // the session's variables, no PATH, no DISPLAY
	output              bytes.Buffer
	screens             []string
}

// run runs `tesouro args...` with stdin and returns its stdout; a non-zero
// exit fails the test. Everything printed is kept for the leak scan.
func (s *session) run(stdin string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, s.env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start tesouro %s: %v", strings.Join(args, " "), err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		err = errors.New("no exit within 60s")
	}
	s.output.WriteString(out.String())
	s.output.WriteString(errOut.String())
	if err != nil {
		s.t.Fatalf("tesouro %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String()
}

// waitFor is Term.WaitFor that keeps the screen for the leak scan.
func (s *session) waitFor(tm *Term, text string, timeout time.Duration) string {
	s.t.Helper()
	screen := tm.WaitFor(text, timeout)
	s.screens = append(s.screens, screen)
	return screen
}

// waitBalances polls the screen until the Overview shows balance amounts:
// requests got through. On timeout it fails the test, showing the screen.
func (s *session) waitBalances(tm *Term, timeout time.Duration) {
	s.t.Helper()
	screen := tm.WaitUntil("balances (the requests getting through)", timeout, func(screen string) bool {
		return amountRe.MatchString(balancesBlock(screen))
	})
	s.screens = append(s.screens, screen)
}

// quit leaves the dashboard with q (confirming when a flow is under way)
// and keeps what the terminal shows at exit.
func (s *session) quit(tm *Term) {
	s.t.Helper()
	tm.Send("q")
	deadline := time.Now().Add(sessionWait)
	confirmed := false
	for {
		if dead, code := tm.Exited(); dead {
			if code != 0 {
				s.t.Fatalf("the dashboard exited with %d:\n%s", code, tm.Scrollback())
			}
			break
		}
		if screen := tm.Screen(); !confirmed && strings.Contains(screen, "Quit Tesouro?") {
			s.screens = append(s.screens, screen)
			tm.Send("y")
			confirmed = true
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the dashboard did not quit on q; the screen is:\n%s", tm.Screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.screens = append(s.screens, tm.Screen(), tm.Scrollback())
}

// TestE2ESecretsNeverLeaveTheKeyring runs one full session as a user would,
// against a private Secret Service: an API-key profile and a JWT profile
// added, a login, the dashboard with --debug making a ticket (a journal
// entry), then the dashboard on the JWT profile after its access token has
// expired (a refresh, the new pair written back). Afterwards every file the
// session wrote, every screen and everything the commands printed is
// searched for every secret: none may appear outside the keyring.
func TestE2ESecretsNeverLeaveTheKeyring(t *testing.T) {
	needTmux(t)
	ss, err := sstest.Start(filepath.Join(t.TempDir(), "keyring"), sstest.GnomeKeyring)
	if err != nil {
		sstest.Missing(t, err) // skip outside CI when a program is missing
	}
	t.Cleanup(ss.Stop)
	// This process reads the keyring back on the same bus.
	sstest.UseBus(t, ss.Addr)
	kr := keystore.OSKeyring()

	clock := &shiftedClock{}
	sb, err := sandbox.Start(sandbox.Config{Seed: 1, Now: clock.now}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	registerWallet(t, "E2E Cold Wallet")(sb)
	op, ok1 := sb.Creds.Access("operator")
	jw, ok2 := sb.Creds.Access("approver1")
	if !ok1 || !ok2 || op.APIKey == "" || op.PrivateKeyPEM == "" || jw.Password == "" || jw.EmailToken == "" {
		t.Fatal("the sandbox credentials lack the operator's key or approver1's password and e-mailed token")
	}

	home := t.TempDir()
	s := &session{t: t, home: home, config: filepath.Join(home, "config", "tesouro"), state: filepath.Join(home, "state", "tesouro")}
	s.env = []string{
		"DBUS_SESSION_BUS_ADDRESS=" + ss.Addr,
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
		"TESOURO_CONFIG_DIR=" + s.config,
	}
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o700); err != nil {
		t.Fatal(err)
	}

	secrets := secretSet{}
	secrets.add("operator API key", op.APIKey)
	secrets.add("operator private key", op.PrivateKeyPEM)
	secrets.add("approver1 password", jw.Password)
	secrets.add("approver1 e-mailed token", jw.EmailToken)

	// The key files a user downloaded, outside the config and state
	// directories; removed before the search, as a careful user would.
	keys := t.TempDir()
	apiKeyFile, pemFile := filepath.Join(keys, "api-key"), filepath.Join(keys, "private-key.pem")
	for path, content := range map[string]string{apiKeyFile: op.APIKey, pemFile: op.PrivateKeyPEM} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		// The search must be able to find what it looks for.
		if len(secrets.leaks(content)) == 0 {
			t.Fatalf("the search does not recognise the secret in %s", path)
		}
	}

	// Profiles: the operator's API key, approver1 by e-mail login.
	out := s.run("", "profile", "add", "ops", "--base-url", sb.BaseURL, "--env", "sandbox",
		"--api-key-file", apiKeyFile, "--private-key-file", pemFile)
	if !strings.Contains(out, op.Email) {
		t.Fatalf("profile add ops did not check the key against the service: %s", out)
	}
	login := jw.Password + "\n" + jw.EmailToken + "\n"
	for _, leak := range []string{jw.Password + "\n", "\n" + jw.EmailToken + "\n", "token=" + jw.EmailToken + "\n", `"emailToken":"` + jw.EmailToken + `"`} {
		if len(secrets.leaks(leak)) == 0 {
			t.Fatal("the search does not recognise the password or the e-mailed token")
		}
	}
	s.run(login, "profile", "add", "jwtuser", "--base-url", sb.BaseURL, "--env", "sandbox", "--jwt", "--email", jw.Email)
	firstAccess, firstRefresh := readTokens(t, kr, "jwtuser")
	secrets.add("first access token", firstAccess)
	secrets.add("first refresh token", firstRefresh)
	out = s.run(login, "login", "--profile", "jwtuser")
	if !strings.Contains(out, "Logged in") {
		t.Fatalf("login --profile jwtuser: %s", out)
	}
	loginAccess, loginRefresh := readTokens(t, kr, "jwtuser")
	if loginRefresh == firstRefresh {
		t.Fatal("login did not store a new refresh token")
	}
	secrets.add("login access token", loginAccess)
	secrets.add("login refresh token", loginRefresh)
	s.run("", "profile", "use", "ops")
	for _, f := range []string{apiKeyFile, pemFile} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}

	// The keyring holds the operator's secrets exactly as given.
	if v, err := kr.Get("ops", keystore.KeyAPIKey); err != nil || strings.TrimSpace(v) != strings.TrimSpace(op.APIKey) {
		t.Fatalf("the keyring does not hold the operator's API key under tesouro:ops: %v", err)
	}
	if v, err := kr.Get("ops", keystore.KeyPrivateKey); err != nil || strings.TrimSpace(v) != strings.TrimSpace(op.PrivateKeyPEM) {
		t.Fatalf("the keyring does not hold the operator's private key under tesouro:ops: %v", err)
	}

	// The dashboard on the active profile, with --debug: quote BRL/PIX →
	// BRLA/POLYGON 500, confirmed into a ticket to a wallet.
	var terms []*Term
	tm := startTUIEnv(t, s.env, "--debug")
	terms = append(terms, tm)
	s.waitFor(tm, "profile ops", sessionWait)
	s.waitFor(tm, "Your access", sessionWait)
	tm.Send("2")
	s.waitFor(tm, "Quote builder", sessionWait)
	tm.Send("e")
	down(tm, 3)      // output method
	tm.Send("Right") // INTERNAL → POLYGON
	s.waitFor(tm, "POLYGON", sessionWait)
	down(tm, 2) // amount
	tm.Type("500")
	s.waitFor(tm, "understood: 500.00 BRL you send", sessionWait)
	tm.Send("Enter")
	s.waitFor(tm, "They receive", sessionWait)
	tm.Send("c")
	s.waitFor(tm, "Ticket details", sessionWait)
	tm.Send("Tab", "Tab", "Tab") // externalId → remitter → PIX data → wallet picker
	s.waitFor(tm, "E2E Cold Wallet", sessionWait)
	tm.Type("cold")
	tm.WaitGone("Own service wallet", sessionWait)
	tm.Send("Enter")
	s.waitFor(tm, "Confirm the ticket", sessionWait)
	tm.Send("y")
	s.waitFor(tm, "Ticket created", sessionWait)
	s.quit(tm)

	// Sixteen minutes later the access token has expired: the dashboard on
	// the JWT profile must refresh it and store the new pair.
	clock.offset.Store(int64(16 * time.Minute))
	tm = startTUIEnv(t, s.env, "--profile", "jwtuser", "--debug")
	terms = append(terms, tm)
	s.waitFor(tm, "profile jwtuser", sessionWait)
	s.waitFor(tm, jw.Email, sessionWait)
	s.waitBalances(tm, sessionWait)
	// Quit at once: the refreshed pair may still be on its way to the
	// keyring, and the dashboard must finish storing it before it exits (the
	// old refresh token is spent; losing the new one means logging in again).
	s.quit(tm)
	newAccess, newRefresh := readTokens(t, kr, "jwtuser")
	if newAccess == loginAccess || newRefresh == loginRefresh {
		t.Fatalf("the dashboard exited without storing the refreshed token pair (refresh token renewed: %v, access token renewed: %v)",
			newRefresh != loginRefresh, newAccess != loginAccess)
	}
	secrets.add("refreshed access token", newAccess)
	secrets.add("refreshed refresh token", newRefresh)

	// What the session left: the journal has the ticket, the debug log both
	// runs.
	entries, err := journal.ReadFile(filepath.Join(s.state, journal.FileName))
	if err != nil {
		t.Fatalf("journal: %v", err)
	}
	created := false
	for _, e := range entries {
		created = created || (e.Action == "create-ticket" && e.Profile == "ops" && e.Outcome == "created")
	}
	if !created {
		t.Fatalf("the journal has no created ticket of profile ops: %+v", entries)
	}
	debugLog, err := os.ReadFile(filepath.Join(s.state, "debug.log"))
	if err != nil || len(debugLog) == 0 {
		t.Fatalf("debug.log missing or empty: %v", err)
	}
	for _, want := range []string{"profile=ops", "profile=jwtuser"} {
		if !bytes.Contains(debugLog, []byte(want)) {
			t.Errorf("debug.log has no run with %s:\n%s", want, debugLog)
		}
	}
	// Both runs traced their exchanges, headers and bodies (secrets
	// redacted): the ticket's creation, and the expired session's refresh.
	for _, want := range []string{"method=POST url=" + sb.BaseURL + "/v2/account/tickets/ status=201", "request.header.X-Api-Key=REDACTED",
		"method=POST url=" + sb.BaseURL + "/v2/auth/refresh", `\"refreshToken\":\"REDACTED\"`, "request.header.Authorization=REDACTED"} {
		if !bytes.Contains(debugLog, []byte(want)) {
			t.Errorf("debug.log does not trace %s:\n%s", want, debugLog)
		}
	}
	if _, err := os.Stat(filepath.Join(s.config, keystore.ConfigFile)); err != nil {
		t.Fatalf("config.toml: %v", err)
	}
	// Every process used the session's directories, none the terminal's own.
	for _, tm := range terms {
		for _, dir := range []string{tm.Config, tm.State} {
			if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the dashboard wrote outside the session's directories: %s exists (%v)", dir, err)
			}
		}
	}
	for _, f := range []string{apiKeyFile, pemFile} {
		if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s is still there: %v", f, err)
		}
	}

	// The search: every file of the session's home (config, state, data,
	// cache, runtime) and of each terminal's own directory, every screen,
	// everything printed.
	scan := func(where, content string) {
		for _, name := range secrets.leaks(content) {
			t.Errorf("the %s appears in %s", name, where)
		}
	}
	files := 0
	roots := []string{home}
	for _, tm := range terms {
		roots = append(roots, tm.Home)
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				files++
				scan(path, string(b))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walk %s: %v", root, err)
		}
	}
	if files < 3 {
		t.Fatalf("only %d files were found: config, journal and debug log are expected", files)
	}
	for i, screen := range s.screens {
		scan(fmt.Sprintf("captured screen %d (%s)", i+1, firstLine(screen)), screen)
	}
	scan("what the commands printed", s.output.String())
	t.Logf("searched %d files, %d screens and %d bytes of command output for %d secrets", files, len(s.screens), s.output.Len(), len(secrets))
}

// readTokens reads a JWT profile's token pair from the keyring.
func readTokens(t *testing.T, kr keystore.Secrets, profile string) (access, refresh string) {
	t.Helper()
	access, err1 := kr.Get(profile, keystore.KeyAccessToken)
	refresh, err2 := kr.Get(profile, keystore.KeyRefreshToken)
	if err1 != nil || err2 != nil || access == "" || refresh == "" {
		t.Fatalf("the keyring does not hold the tokens of profile %s: %v, %v", profile, err1, err2)
	}
	return access, refresh
}

// firstLine is the first line of a screen, trimmed, to name it.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
