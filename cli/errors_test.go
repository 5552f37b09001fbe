package cli

import (
	"strings"
	"testing"
)

// Usage mistakes exit 2 in the project's words, never the parser's or
// cobra's; a help topic or a shell that does not exist is one too.
func TestUsageMistakesInOurWords(t *testing.T) {
	e := newProfileEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tickets", "list", "--limit", "abc"}, `tesouro tickets list: --limit "abc": give a whole number`},
		{[]string{"quote", "--from", "BRL", "--to", "USDC", "--amount", "1", "--watch", "soon"}, `--watch "soon": give a duration, such as 5s`},
		{[]string{"tickets", "list", "--limt", "3"}, "unknown flag --limt; did you mean --limit?"},
		{[]string{"tickets", "list", "--limit"}, "--limit needs a value: a whole number"},
		{[]string{"help", "bogus"}, `tesouro help: no command "bogus"`},
		{[]string{"completion", "tcsh"}, `unknown command "tcsh" for "tesouro completion": use bash, zsh, fish or powershell`},
		{[]string{"tickets", "get"}, "tesouro tickets get takes 1 argument(s)"},
	} {
		code, out, errOut := e.run("", tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, usageHint) {
			t.Errorf("tesouro %s: exit %d, stderr %q, want exit 2 saying %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
		for _, raw := range []string{"strconv.", "Unknown help topic", "invalid argument", "time: invalid duration", "tesouro: tesouro"} {
			if strings.Contains(errOut+out, raw) {
				t.Errorf("tesouro %s says %q", strings.Join(tc.args, " "), raw)
			}
		}
	}
}
