package ui

import (
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/termsafe"
)

// A name from the service that carries an escape sequence or a
// bidirectional override reaches the window escaped, whichever part of the
// frame draws it; the screen's own colours stay.
func TestFrameShowsHostileTextEscaped(t *testing.T) {
	name := "Acme \u202etxt.exe\x1b]52;c;cHduZWQ=\x07\x1b[2J"
	styled := NewTheme(true, false).Title.Render("Sub-account") + " " + name
	for what, got := range map[string]string{
		"Fit":      Fit(styled+"\nsecond line", 200, 3),
		"Truncate": Truncate(styled, 200),
		"Spread":   Spread(styled, name, 400),
	} {
		if bad := termsafe.Find(got); bad != "" {
			t.Errorf("%s let %q through: %q", what, bad, got)
		}
		if !strings.Contains(got, `\u202e`) || !strings.Contains(got, `\x1b]52`) {
			t.Errorf("%s does not show the escapes: %q", what, got)
		}
	}
}
