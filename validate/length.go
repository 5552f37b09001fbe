package validate

import (
	"fmt"
	"unicode/utf8"
)

// Chars is the length of s in characters (Unicode code points), the unit
// every length limit of the service and of the forms is stated in: "é" is
// one character, two bytes.
func Chars(s string) int { return utf8.RuneCountInString(s) }

// MaxChars refuses a value longer than max characters (counted by Chars,
// never in bytes).
func MaxChars(s string, max int) error {
	if n := Chars(s); n > max {
		return fmt.Errorf("at most %d characters, got %d: shorten it", max, n)
	}
	return nil
}
