package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tesouro-treasury/tesouro/termsafe/termsafetest"
)

func TestNoPayloadSurvives(t *testing.T) {
	for name, p := range termsafetest.Payloads {
		p = "Acme" + p + " Ltd"
		for mode, f := range map[string]func(string) string{"Line": Line, "Text": Text, "Styled": Styled} {
			got := f(p)
			if bad := Find(got); bad != "" {
				t.Errorf("%s(%s) = %q still holds %q", mode, name, got, bad)
			}
			if !strings.HasPrefix(got, "Acme") || !utf8.ValidString(got) {
				t.Errorf("%s(%s) = %q", mode, name, got)
			}
		}
	}
}

func TestEscapesAreVisible(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b]52;c;x\x07b": `a\x1b]52;c;x\x07b`,
		"a\u202eb":          `a\u202eb`,
		"a\tb\nc":           `a\x09b\x0ac`,
		"a\xffb":            `a\xffb`,
		"São Paulo — ok ✓":  "São Paulo — ok ✓",
		"family 👨‍👩‍👧":      "family 👨‍👩‍👧",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Text("a\tb\nc\x1b[2J"); got != "a\tb\nc\\x1b[2J" {
		t.Errorf("Text keeps tabs and newlines only: %q", got)
	}
}

func TestStyledKeepsOwnColoursOnly(t *testing.T) {
	in := "\x1b[1;38;2;255;0;0mbold\x1b[m\n\x1b[2Jx\x1b]0;t\x07"
	want := "\x1b[1;38;2;255;0;0mbold\x1b[m\n\\x1b[2Jx\\x1b]0;t\\x07"
	if got := Styled(in); got != want {
		t.Errorf("Styled = %q, want %q", got, want)
	}
}

func TestCleanTextIsReturnedAsIs(t *testing.T) {
	s := strings.Repeat("plain ascii, acentuação 123 ", 10)
	if got := Line(s); got != s {
		t.Fatal("changed clean text")
	}
	if n := testing.AllocsPerRun(100, func() { Styled("\x1b[1m" + "x" + "\x1b[0m") }); n > 1 {
		t.Errorf("clean styled text allocates %v times", n)
	}
}

func TestIdempotent(t *testing.T) {
	for _, p := range termsafetest.Payloads {
		once := Line(p)
		if Line(once) != once {
			t.Errorf("Line is not idempotent on %q", p)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, p := range termsafetest.Payloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Text(s), Styled(s)} {
			if bad := Find(out); bad != "" {
				t.Fatalf("%q left %q", s, bad)
			}
		}
	})
}
