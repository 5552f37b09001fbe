package cli

import (
	"os"
	"path/filepath"
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
