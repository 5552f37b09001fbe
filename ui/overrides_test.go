package ui

import (
	"image/color"
	"testing"
)

func TestEveryThemeRoleRecoloursThePalette(t *testing.T) {
	where := func(table, name string) string { return table + "." + name }
	want := color.RGBA{0x12, 0x34, 0x56, 0xff}
	for _, role := range ThemeRoles {
		o, err := ParseOverrides(nil, map[string]string{role: "#123456"}, where)
		if err != nil {
			t.Fatal(err)
		}
		restore := SetOverrides(o)
		p := paletteFor(true)
		restore()
		found := false
		for _, c := range []color.Color{p.fg, p.muted, p.accent, p.amber, p.red, p.green, p.yellow, p.blue, p.subtle, p.onBadge} {
			r, g, b, a := c.RGBA()
			wr, wg, wb, wa := want.RGBA()
			found = found || r == wr && g == wg && b == wb && a == wa
		}
		if !found {
			t.Errorf("theme role %q changes no colour of the palette", role)
		}
	}
}

func TestActionNamesAndKeys(t *testing.T) {
	for desc, want := range map[string]string{"export CSV": "export-csv", "back to the list": "back-to-the-list", "quit": "quit"} {
		if got := ActionName(desc); got != want {
			t.Errorf("ActionName(%q) = %q, want %q", desc, got, want)
		}
	}
	for k, ok := range map[string]bool{"R": true, "ctrl+r": true, "shift+tab": true, "f5": true, "+": true, "ctrl+": false, "hyper+r": false, "enterr": false, "": false, " ": false} {
		if validKey(k) != ok {
			t.Errorf("validKey(%q) = %v", k, !ok)
		}
	}
}
