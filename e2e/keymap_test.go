package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeConfig writes config.toml into the Term's config directory.
func writeConfig(t *testing.T, text string) func(tm *Term) {
	return func(tm *Term) {
		if err := os.MkdirAll(tm.Config, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tm.Config, "config.toml"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestE2EConfigRebindsKeys(t *testing.T) {
	tm := startTUIWith(t, nil, writeConfig(t, "[keys]\nnext-screen = \"ctrl+n\"\nrefresh = \"R\"\n"), "--sandbox")
	tm.WaitFor("R refresh", 10*time.Second*patience())
	tm.Send("Tab")
	tm.Send("C-n")
	tm.WaitUntil("the Quote screen after ctrl+n", 10*time.Second*patience(), func(s string) bool {
		return strings.Contains(s, "Quote builder")
	})
	// Tab was pressed first and did nothing: ctrl+n moved one screen on.
	if s := tm.Screen(); strings.Contains(s, "Tickets ·") {
		t.Errorf("tab still moves on after next-screen was rebound:\n%s", s)
	}
	tm.Send("?")
	tm.WaitFor("ctrl+n", 10*time.Second*patience())
}

func TestE2EBadKeyConfigStopsTheStart(t *testing.T) {
	tm := startTUIWith(t, nil, writeConfig(t, "[keys]\n\nrefresh = \"R\"\nnext-screen = \"n\"\n"), "--sandbox")
	if code := tm.WaitExit(10 * time.Second * patience()); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	s := tm.WaitFor("bound twice", 5*time.Second)
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "config.toml: [keys] next-screen") || !strings.Contains(s, "ine 4") {
		t.Errorf("the error does not name the line and the setting:\n%s", s)
	}
}
