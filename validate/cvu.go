package validate

import (
	"errors"
	"fmt"
	"strings"
)

// CVU checks an Argentine CVU (or CBU): 22 digits in two blocks, each
// ending in a check digit. The first block (8 digits: entity and branch)
// weighs its first 7 digits 7,1,3,9,7,1,3; the second (14 digits: the
// account) weighs its first 13 digits 3,9,7,1,... from the left; the check
// digit is (10 − sum mod 10) mod 10. Spaces and dashes are dropped.
func CVU(s string) (string, error) {
	t := strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s))
	if t == "" {
		return "", errors.New("required: type the 22-digit CVU")
	}
	if len(t) != 22 || !IsDigits(t) {
		return "", fmt.Errorf("a CVU has 22 digits, got %d characters", len(t))
	}
	check := func(block string, weights []int) bool {
		sum := 0
		for i, w := range weights {
			sum += int(block[i]-'0') * w
		}
		return int(block[len(weights)]-'0') == (10-sum%10)%10
	}
	if !check(t[:8], []int{7, 1, 3, 9, 7, 1, 3}) {
		return "", errors.New("the check digit of the first block (digit 8) does not match: a digit is mistyped")
	}
	if !check(t[8:], []int{3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3}) {
		return "", errors.New("the check digit of the second block (digit 22) does not match: a digit is mistyped")
	}
	return t, nil
}

// BIC checks a SWIFT/BIC code: 4 letters (institution), 2 letters
// (country), 2 letters or digits (location), and an optional branch of 3.
// It returns it in upper case.
func BIC(s string) (string, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "" {
		return "", errors.New("required: type the BIC (8 or 11 characters)")
	}
	if len(t) != 8 && len(t) != 11 {
		return "", fmt.Errorf("a BIC has 8 or 11 characters, got %d", len(t))
	}
	for i, r := range t {
		letter := r >= 'A' && r <= 'Z'
		digit := r >= '0' && r <= '9'
		if (i < 6 && !letter) || (i >= 6 && !letter && !digit) {
			return "", fmt.Errorf("character %d (%q) is not allowed there: 6 letters, then letters or digits", i+1, r)
		}
	}
	if _, err := CountryAlpha2(t[4:6]); err != nil {
		return "", fmt.Errorf("characters 5–6 (%s) are not a country code: %v", t[4:6], err)
	}
	return t, nil
}
