package validate

import (
	"errors"
	"fmt"
	"strings"
)

// ABA checks a US routing number: 9 digits whose sum weighted 3, 7, 1
// (repeated) is a multiple of 10.
func ABA(s string) (string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return "", errors.New("required: type the 9-digit routing number")
	}
	if !IsDigits(t) {
		return "", errors.New("a routing number has digits only: type its 9 digits without spaces")
	}
	if len(t) != 9 {
		return "", fmt.Errorf("has %d digits, a routing number has 9: re-type it", len(t))
	}
	if t == "000000000" {
		return "", errors.New("is all zeros: type the bank's 9-digit routing number")
	}
	w := [3]int{3, 7, 1}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(t[i]-'0') * w[i%3]
	}
	if sum%10 != 0 {
		return "", errors.New("check digit does not match: re-type the 9-digit routing number")
	}
	return t, nil
}
