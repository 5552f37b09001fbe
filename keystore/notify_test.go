package keystore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotificationsAreOnUnlessTurnedOff reads the three keys as a user
// writes them, and keeps them through a save by "tesouro profile".
func TestNotificationsAreOnUnlessTurnedOff(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.Notifications; !n.ToastOn() || !n.BellOn() || !n.DesktopOn() {
		t.Fatalf("without a config every notification must be on: %+v", n)
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ConfigFile)); strings.Contains(string(b), "notifications") {
		t.Fatalf("an untouched config gained a notifications table:\n%s", b)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("[notifications]\nbell = false\ndesktop = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.Notifications; !n.ToastOn() || n.BellOn() || n.DesktopOn() {
		t.Fatalf("bell and desktop turned off, toast left on: got %+v", n)
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	if c, err = Load(dir); err != nil || c.Notifications.BellOn() || !c.Notifications.ToastOn() {
		t.Fatalf("a save lost the settings: %+v, %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("[notifications]\nsound = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "notifications.sound") {
		t.Fatalf("an unknown key is accepted: %v", err)
	}
}
