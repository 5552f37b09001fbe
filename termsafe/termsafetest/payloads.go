// Package termsafetest holds the hostile strings the tests of termsafe and
// of every surface that uses it plant: each would act on a terminal if it
// were printed as is.
package termsafetest

// Payloads are named by what they would do.
var Payloads = map[string]string{
	"title":     "\x1b]0;owned\x07",
	"clipboard": "\x1b]52;c;ZWNobyBvd25lZA==\x07",
	"st":        "\x1b]0;owned\x1b\\",
	"clear":     "\x1b[2J\x1b[H",
	"rlo":       "\u202etxt.exe",
	"isolate":   "\u2067evil\u2069",
	"c1":        "\u009b2J",
	"bell":      "\a\b\r",
	"invalid":   "\xff\xfe",
}
