package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/ui"
)

// TestDashboardTakesTheNotificationSettings reads config.toml's
// [notifications] and the terminal's desktop notification protocol.
func TestDashboardTakesTheNotificationSettings(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"TESOURO_CONFIG_DIR": dir, "TERM_PROGRAM": "WezTerm"}
	// A process reads config.toml once: each reading is a new factory.
	c := func() *Factory { return New(IOStreams{}, func(k string) string { return env[k] }, Build{}) }
	if got := c().notifyOptions(); got != (ui.NotifyOptions{Protocol: "osc9"}) {
		t.Fatalf("without a config: %+v, want everything on over OSC 9", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[notifications]\ntoast = false\ndesktop = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := c().notifyOptions(); got != (ui.NotifyOptions{NoToast: true, NoDesktop: true, Protocol: "osc9"}) {
		t.Fatalf("toast and desktop turned off: %+v", got)
	}
}

// With --debug the dashboard's log file in the state directory gets the
// trace every command prints on stderr: each exchange with its headers and
// bodies, secrets redacted.
func TestDashboardDebugLogGetsTheRedactedTrace(t *testing.T) {
	_, creds := sandboxCredentials(t, 1)
	op, _ := creds.Access("operator")
	state := t.TempDir()
	f := New(IOStreams{}, func(string) string { return "" }, Build{})
	f.G.Debug = true
	path, closeLog, err := f.setupLog(state)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := f.demoConn(creds.BaseURL, op, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Client.AccessInfo(context.Background()); err != nil {
		t.Fatal(err)
	}
	closeLog()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	trace := string(b)
	for _, want := range []string{"msg=http", "method=GET url=" + creds.BaseURL + "/v2/account/access-info status=200", "request.header.X-Api-Key=REDACTED",
		"request.header.X-Api-Signature=REDACTED", `response.body="{`, op.Email} {
		if !strings.Contains(trace, want) {
			t.Errorf("debug.log lacks %s:\n%s", want, trace)
		}
	}
	for _, secret := range []string{op.APIKey, "PRIVATE KEY"} {
		if strings.Contains(trace, secret) {
			t.Errorf("debug.log holds a secret (%.8s...)", secret)
		}
	}
}
