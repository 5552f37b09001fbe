package main

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/accesses"
)

// withConfig is a factory on a config directory holding text as config.toml.
func withConfig(t *testing.T, text string) *cli.Factory {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ui.SetOverrides(nil))
	return testFactory(nil, io.Discard, io.Discard, func(k string) string {
		if k == "TESOURO_CONFIG_DIR" {
			return dir
		}
		return ""
	})
}

// countingAccesses answers the accesses screen's list and counts its
// loads; the access it serves has no administration to offer.
type countingAccesses struct {
	accesses.Service
	mu    sync.Mutex
	loads int
}

func (f *countingAccesses) ListAccesses(context.Context, api.AccessFilter) ([]api.Access, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loads++
	return []api.Access{{ID: "a1", Email: "viewer@demo.test", AccessPermission: api.Permissions{ViewOnly: true}}}, nil
}

func (f *countingAccesses) n() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.loads
}

func TestTheExampleConfigLoads(t *testing.T) {
	b, err := os.ReadFile("config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := withConfig(t, string(b)).LoadOverrides(); err != nil {
		t.Fatalf("config.example.toml: %v", err)
	}
}

func TestConfigRebindsAnActionOnTheScreens(t *testing.T) {
	c := withConfig(t, "export_dir = \"/tmp\"\n\n[keys]\n# R reloads, so that r is free\nrefresh = \"R\"\n\n[theme]\naccent = \"#ff8800\"\n")
	if err := c.LoadOverrides(); err != nil {
		t.Fatal(err)
	}
	f := &countingAccesses{}
	s := &ui.Session{Env: ui.EnvSandbox, Time: screentest.NewClock(screentest.Epoch), Theme: ui.NewTheme(true, false),
		Access: &api.AccessInfo{Email: "operator@demo.test", AccountPermissions: api.Permissions{PayIn: true}}}
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return accesses.New(s, f, nil) }, 110, 20)
	if !strings.Contains(d.PlainView(), "viewer@demo.test") || f.n() != 1 {
		t.Fatalf("the screen did not load (%d loads):\n%s", f.n(), d.PlainView())
	}
	d.Key("R")
	if f.n() != 2 {
		t.Fatalf("R (refresh, rebound in config.toml) did not reload: %d loads", f.n())
	}
	d.Key("r")
	if f.n() != 2 {
		t.Errorf("r still reloads after refresh was rebound to R: %d loads", f.n())
	}
	var help []string
	for _, b := range d.Screen.KeyMap() {
		help = append(help, b.Help().Key+" "+b.Help().Desc)
	}
	if !slices.Contains(help, "R refresh") {
		t.Errorf("help does not offer the new key: %v", help)
	}
	if got := ui.NewTheme(true, false).Title.GetForeground(); got == nil || colorHex(got) != "#ff8800" {
		t.Errorf("the accent colour is %v, want the configured #ff8800", got)
	}
}

func TestBadKeyOrThemeConfigStopsTheStartNamingTheLine(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{"[keys]\nrefresh = \"R\"\nrefrseh = \"x\"\n", `line 3 of .*config.toml: \[keys\] refrseh: no action is called "refrseh"`},
		{"[keys]\n\nreload = \"z\"\nexport-csv = \"z\"\n", `line 3 of .*: \[keys\] reload: "z" is bound twice on the tickets screen: to reload and to export-csv`},
		{"[keys]\nnext-screen = \"n\"\n", `line 2 of .*: \[keys\] next-screen: "n" is bound twice on the beneficiaries screen`},
		{"[keys]\nquit = \"ctrl+banana\"\n", `line 2 of .*: \[keys\] quit: "ctrl\+banana" is not a key`},
		{"[keys]\nquit-now = \"x\"\n", `quit-now cannot be rebound`},
		{"[theme]\naccent = \"#ff8800\"\nbackground = \"#000000\"\n", `line 3 of .*: \[theme\] background: no colour role is called "background"`},
		{"[theme]\n\naccent = \"orange\"\n", `line 3 of .*: \[theme\] accent: "orange" is not a colour`},
	} {
		c := withConfig(t, tc.config)
		err := c.LoadOverrides()
		if err == nil {
			t.Errorf("%q: accepted", tc.config)
			continue
		}
		if !regexp.MustCompile(tc.want).MatchString(err.Error()) || !cli.IsUsage(err) {
			t.Errorf("%q:\n got %v\nwant %s (a usage error, exit 2)", tc.config, err, tc.want)
		}
	}
}

func colorHex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
