package main

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/ui"
)

// readmeSections cuts README.md's command reference into its sections by
// heading: "### `tesouro tickets cancel TICKET_ID`" is the section of
// "tesouro tickets cancel"; a word with | ("bash|zsh") names each command.
func readmeSections(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var cur []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			cur = nil
			if h, ok := strings.CutPrefix(line, "### `tesouro"); ok {
				paths := []string{"tesouro"}
				for _, w := range strings.Fields(strings.TrimSuffix(h, "`")) {
					if w == "" || w[0] < 'a' || w[0] > 'z' {
						break // arguments: TICKET_ID, [COMMAND], FILE
					}
					var next []string
					for _, p := range paths {
						for _, alt := range strings.Split(w, "|") {
							next = append(next, p+" "+alt)
						}
					}
					paths = next
				}
				cur = paths
			}
			continue
		}
		for _, p := range cur {
			out[p] += line + "\n"
		}
	}
	return out
}

func TestREADMEDocumentsEveryCommand(t *testing.T) {
	sections := readmeSections(t)
	root := cli.NewCmdRoot(testFactory(nil, io.Discard, io.Discard, func(string) string { return "" }))
	// The commands cobra and fang add when the tree runs.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	n := 0
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.Hidden {
			return
		}
		n++
		path := cmd.CommandPath()
		sec, ok := sections[path]
		if !ok {
			t.Errorf("README has no section \"### `%s ...`\" in its command reference", path)
		} else {
			cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "help" && f.Name != "version" && !strings.Contains(sec, "--"+f.Name) {
					t.Errorf("README's section on %s does not mention --%s", path, f.Name)
				}
			})
			if !cmd.HasSubCommands() && !strings.Contains(sec, "```sh\n") {
				t.Errorf("README's section on %s has no example", path)
			}
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if n < 40 {
		t.Fatalf("walked only %d commands", n)
	}
	all, _ := os.ReadFile("README.md")
	_, ref, _ := strings.Cut(string(all), "## Command reference")
	ref = strings.Join(strings.Fields(ref), " ")
	for _, code := range []string{"exits 0 when", "1 on a runtime error", "2 on a usage mistake", "130 after SIGINT", "143 after SIGTERM"} {
		if !strings.Contains(ref, code) {
			t.Errorf("README's command reference does not say %q", code)
		}
	}
}

func TestREADMENamesEveryRebindableAction(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, keys, ok := strings.Cut(string(b), "### Keys and colours")
	if !ok {
		t.Fatal("README has no Keys and colours section")
	}
	keys, _, _ = strings.Cut(keys, "\n## ")
	for screen, actions := range ui.Actions(screens(nil, nil)) {
		for name := range actions {
			if slices.Equal(actions[name], []string{"left", "h", "["}) {
				continue // the tabs inside a screen, named after their titles: not offered
			}
			if !strings.Contains(keys, "`"+name+"`") {
				t.Errorf("README's keys table does not name action %s (screen %q)", name, screen)
			}
		}
	}
}
