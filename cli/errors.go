package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tesouro-treasury/tesouro/termsafe"
)

// UsageError is a mistake on the command line: the process exits 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// IsUsage reports whether err is a usage mistake: one of ours (the parser's
// are turned into ours by flagError, the missing or unknown commands by
// GroupRunE and the help command), or one cobra still reports as a plain
// error.
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

// usageHint follows every usage mistake.
const usageHint = "Run 'tesouro help' or 'tesouro COMMAND --help' for usage."

// PrintError is the error handler given to fang: the message as the
// command wrote it (never reworded, capitalised or given a full stop), made
// safe for the terminal (it may quote the service), under fang's ERROR
// badge at a terminal and as one "tesouro: ..." line otherwise, which
// scripts grep; a usage mistake is followed by where the usage is.
func (f *Factory) PrintError(w io.Writer, styles fang.Styles, err error) {
	if errors.Is(err, context.Canceled) {
		return // a signal: the exit code says it
	}
	msg := termsafe.Text(err.Error())
	if f.StderrTTY() {
		fmt.Fprintln(w, styles.ErrorHeader.String())
		body := lipgloss.NewStyle().MarginLeft(2)
		if width := f.StderrWidth(); width > 20 {
			// Wrapped between words, not where the terminal cuts.
			body = body.Width(width - 3) // the margin is outside the width
		}
		fmt.Fprintln(w, body.Render(msg))
		if IsUsage(err) {
			fmt.Fprintln(w)
			fmt.Fprintln(w, lipgloss.NewStyle().MarginLeft(2).Faint(true).Render(usageHint))
		}
		fmt.Fprintln(w)
		return
	}
	if strings.HasPrefix(msg, "tesouro ") {
		fmt.Fprintln(f.Stderr, msg) // it names the command already
	} else {
		fmt.Fprintln(f.Stderr, "tesouro:", msg)
	}
	if IsUsage(err) {
		fmt.Fprintln(f.Stderr, usageHint)
	}
}

// flagError says a mistake in the flags in the project's words: which
// flag, what was given, and what it takes.
func flagError(cmd *cobra.Command, err error) error {
	var (
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	path := cmd.CommandPath()
	switch {
	case errors.As(err, &invalid):
		fl := invalid.GetFlag()
		return Usagef("%s: --%s %q: give %s", path, fl.Name, invalid.GetValue(), valueKind(fl))
	case errors.As(err, &required):
		name := required.GetSpecifiedName()
		fl := cmd.Flags().Lookup(name)
		if fl == nil {
			fl = cmd.Flags().ShorthandLookup(name)
		}
		if fl != nil {
			return Usagef("%s: --%s needs a value: %s", path, fl.Name, valueKind(fl))
		}
		return Usagef("%s: %s needs a value", path, name)
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if s := notExist.GetSpecifiedShortnames(); len(s) > 1 {
			return Usagef("%s: unknown flag -%s (in -%s); see %s --help", path, name[:1], s, path)
		}
		msg := fmt.Sprintf("%s: unknown flag --%s", path, name)
		if near := nearFlags(cmd, name); len(near) > 0 {
			msg += "; did you mean --" + strings.Join(near, " or --") + "?"
		}
		return Usagef("%s (see %s --help)", msg, path)
	case errors.As(err, &syntax):
		return Usagef("%s: %s is not a flag: flags are written --name or -n", path, syntax.GetSpecifiedFlag())
	}
	return UsageError{Msg: path + ": " + err.Error()}
}

// valueKind says what a flag takes, by its type.
func valueKind(fl *pflag.Flag) string {
	switch fl.Value.Type() {
	case "int", "int64", "int32", "uint":
		return "a whole number, such as 10"
	case "duration":
		return "a duration, such as 5s, 2m or 1m30s"
	case "float64", "float32":
		return "a number, such as 1.5"
	case "bool":
		return "true or false (or the flag alone)"
	}
	return "a value (" + fl.Usage + ")"
}

// nearFlags are the command's flags whose names are close to name.
func nearFlags(cmd *cobra.Command, name string) []string {
	var out []string
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		if !fl.Hidden && (strings.HasPrefix(fl.Name, name) || strings.HasPrefix(name, fl.Name) || distance(fl.Name, name) <= 2) {
			out = append(out, fl.Name)
		}
	})
	return out
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
