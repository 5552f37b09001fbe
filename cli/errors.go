package cli

import (
	"errors"
	"fmt"
	"strings"
)

// UsageError is a mistake on the command line: the process exits 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// IsUsage reports whether err is a usage mistake: one of ours, or one of
// the parser's (unknown command or flag, bad flag value, wrong number of
// arguments), which cobra reports as plain errors.
func IsUsage(err error) bool {
	if errors.As(err, new(UsageError)) {
		return true
	}
	msg := err.Error()
	for _, p := range []string{"unknown command ", "unknown flag: ", "unknown shorthand flag: ", "invalid argument ",
		"flag needs an argument", "accepts ", "requires at least ", "requires at most ", "required flag(s) ", "if any flags in the group"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
