package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FuzzyMatch reports whether every rune of pattern appears in s in order
// (case-insensitive) and scores the match: higher is better. Consecutive
// runs, word starts and a match at the very start score more, so "acme"
// ranks "Acme Ltda" above "a Cool Mega Exchange". An empty pattern matches
// everything with score 0.
func FuzzyMatch(pattern, s string) (score int, ok bool) {
	pattern = strings.ToLower(strings.TrimSpace(pattern))
	if pattern == "" {
		return 0, true
	}
	ls := strings.ToLower(s)
	pi := 0
	pr, _ := utf8.DecodeRuneInString(pattern)
	prev := ' '
	run := 0
	for i, r := range ls {
		if pi >= len(pattern) {
			break
		}
		if r == pr {
			score++
			if i == 0 {
				score += 3
			}
			if !unicode.IsLetter(prev) && !unicode.IsDigit(prev) {
				score += 2
			}
			run++
			score += run
			pi += utf8.RuneLen(pr)
			if pi < len(pattern) {
				pr, _ = utf8.DecodeRuneInString(pattern[pi:])
			}
		} else {
			run = 0
		}
		prev = r
	}
	if pi < len(pattern) {
		return 0, false
	}
	return score, true
}
