package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every leaf command has examples, every command's help lists the global
// flags once (on one line, not among its own), and help into a file has
// no padding at the ends of its lines.
func TestHelpOfEveryCommand(t *testing.T) {
	e := newProfileEnv(t)
	root := NewCmdRoot(New(IOStreams{}, func(string) string { return "" }, Build{}))
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		path := strings.Fields(c.CommandPath())[1:]
		if !c.HasAvailableSubCommands() && strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no examples", c.CommandPath())
		}
		code, out, errOut := e.run("", append(path, "--help")...)
		if code != 0 {
			t.Errorf("%s --help: exit %d %s", c.CommandPath(), code, errOut)
		}
		for i, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, " ") {
				t.Errorf("%s --help: line %d ends in blanks: %q", c.CommandPath(), i+1, line)
				break
			}
		}
		if c != root {
			if regexp.MustCompile(`(?m)^\s+--profile\s{2,}`).MatchString(out) || !strings.Contains(out, "GLOBAL FLAGS") {
				t.Errorf("%s --help lists --profile among its own flags, or has no GLOBAL FLAGS:\n%s", c.CommandPath(), out)
			}
		}
		n++
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if n < 40 {
		t.Fatalf("read the help of only %d commands", n)
	}
	out := e.mustRun("", "--help")
	for _, g := range helpGroups {
		if !strings.Contains(out, strings.ToUpper(g.Title)) {
			t.Errorf("the root's help has no group %q", g.Title)
		}
	}
}

// Flags that take a value from a known set complete it, never file names.
func TestFlagValuesComplete(t *testing.T) {
	e := newProfileEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tickets", "list", "--status", ""}, "PARTIAL-FAILED"},
		{[]string{"tickets", "export", "--output-currency", ""}, "USDC"},
		{[]string{"quote", "--from", "BRL", "--from-method", ""}, "PIX"},
		{[]string{"ticket", "create", "--to-method", ""}, "SEPA"},
		{[]string{"beneficiaries", "list", "--kind", ""}, "ars"},
		{[]string{"statement", "--format", ""}, "csv"},
		{[]string{"profile", "add", "x", "--env", ""}, "production"},
		{[]string{"keygen", "--type", ""}, "ed25519"},
		{[]string{"beneficiaries", "add", "--chain", ""}, "POLYGON"},
		{[]string{"--as", ""}, "approver1"},
		{[]string{"api", "-X", ""}, "PATCH"},
		{[]string{"tickets", "list", "--since", ""}, ""},
	} {
		out := e.mustRun("", append([]string{"__complete"}, tc.args...)...)
		if !strings.Contains(out, tc.want) || !strings.HasSuffix(strings.TrimSpace(out), ":4") {
			t.Errorf("complete %v: %q, want %q and no file names (:4)", tc.args, out, tc.want)
		}
	}
}
