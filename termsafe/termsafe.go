// Package termsafe owns what may reach a terminal from outside: every string
// the service, a file or another person wrote (a beneficiary's alias, a
// sub-account's name, a webhook's URL, an answer's body) passes through it
// before it is printed or drawn. Control characters, escape sequences (CSI
// such as ESC[2J, OSC such as ESC]0;title BEL or ESC]52;c;... that writes the
// clipboard) and the bidirectional overrides and isolates (U+202E and the
// like, which reorder what a line seems to say) are shown visibly escaped
// (\x1b, \u202e), never interpreted. Everything else is left as it came.
//
// Three strengths, by where the text goes:
//   - Line: one line of a table or a summary; tabs and newlines are escaped
//     too, so a cell can never break its row.
//   - Text: a block of text (a CSV cell, a body); newlines and tabs stay.
//   - Styled: a frame the program drew itself; its own colours (SGR
//     sequences, ESC[...m) and newlines stay, any other escape is shown.
//
// JSON output does not pass through here: it is exact, and its encoder
// escapes control characters itself.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line makes s safe as one line: every control character, tab and newline
// included, is escaped.
func Line(s string) string { return clean(s, modeLine) }

// Text makes s safe as a block of text: newlines and tabs stay, every
// other control character is escaped.
func Text(s string) string { return clean(s, modeText) }

// Styled makes a frame drawn by this program safe: newlines and its own
// SGR colour sequences stay, every other escape sequence, control
// character and bidirectional control is escaped.
func Styled(s string) string { return clean(s, modeStyled) }

type mode int

const (
	modeLine mode = iota
	modeText
	modeStyled
)

// Unsafe reports whether r is never written to a terminal as is: C0 and C1
// controls, DEL, the bidirectional marks, embeddings, overrides and
// isolates, and the line and paragraph separators.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

func clean(s string, m mode) string {
	// The common case, plain text with nothing to escape, costs one scan
	// and no allocation.
	i := firstUnsafe(s, m)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		if m == modeStyled && s[i] == 0x1b {
			if n := sgrLen(s[i:]); n > 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keep(r, m):
			b.WriteString(s[i : i+size])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// keep reports whether r is written as is in mode m.
func keep(r rune, m mode) bool {
	if !Unsafe(r) {
		return true
	}
	switch m {
	case modeText:
		return r == '\n' || r == '\t'
	case modeStyled:
		return r == '\n'
	}
	return false
}

// firstUnsafe is the index of the first byte that needs escaping, or -1.
func firstUnsafe(s string, m mode) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if m == modeStyled && c == 0x1b {
			if n := sgrLen(s[i:]); n > 0 {
				i += n
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || !keep(r, m) {
			return i
		}
		i += size
	}
	return -1
}

// sgrLen is the length of the SGR sequence (ESC [ params m) s starts with,
// or 0 when s starts with anything else.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// Find returns the first thing in s a terminal would act on (an escape
// sequence's introducer, a control character other than newline and tab, a
// bidirectional control, an invalid byte), or "" when there is none. Our
// own SGR colours count as harmless. Tests read every surface with it.
func Find(s string) string {
	for i := 0; i < len(s); {
		if n := sgrLen(s[i:]); n > 0 {
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || (Unsafe(r) && r != '\n' && r != '\t') {
			return s[i : i+size]
		}
		i += size
	}
	return ""
}
