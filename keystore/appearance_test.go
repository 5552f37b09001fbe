package keystore

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestKeysAndThemeSurviveASaveAndKnowTheirLines(t *testing.T) {
	dir := t.TempDir()
	text := "active = \"\"\n\n[keys]\nrefresh = \"R\"\n\"next-screen\" = [\"ctrl+n\", \"tab\"]\n\n[theme]\n# orange\naccent = \"#ff8800\"\n"
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Keys["refresh"], KeyList{"R"}) || !slices.Equal(c.Keys["next-screen"], KeyList{"ctrl+n", "tab"}) || c.Theme["accent"] != "#ff8800" {
		t.Fatalf("decoded %v %v", c.Keys, c.Theme)
	}
	if c.Line("keys", "refresh") != 4 || c.Line("keys", "next-screen") != 5 || c.Line("theme", "accent") != 9 || c.Line("theme", "refresh") != 0 {
		t.Errorf("lines: refresh %d, next-screen %d, accent %d", c.Line("keys", "refresh"), c.Line("keys", "next-screen"), c.Line("theme", "accent"))
	}
	// A profile added later rewrites the file: the overrides stay.
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	again, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Keys["next-screen"], KeyList{"ctrl+n", "tab"}) || again.Theme["accent"] != "#ff8800" {
		t.Errorf("after Save: %v %v", again.Keys, again.Theme)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("[keys]\nrefresh = 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("a key given as a number was accepted")
	}
}
