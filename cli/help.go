package cli

import (
	"fmt"
	"io"
	"strings"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newCmdHelp is "tesouro help [COMMAND]": the help of a command, as
// COMMAND --help prints it. A topic it does not know is a usage mistake
// (cobra's own printed "Unknown help topic" and exited 0).
func newCmdHelp(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Show the help of a command",
		Long:  "Shows the help of a command, the same as COMMAND --help; alone, the list of commands.",
		Example: `  tesouro help tickets export
  tesouro help api`,
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			cmd, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, sub.Name()+"\t"+sub.Short)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				return Usagef("tesouro help: no command %q (see tesouro help for the list)", strings.Join(args, " "))
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}

// Command groups of the root's help, in order.
var helpGroups = []*cobra.Group{
	{ID: "service", Title: "Scripting commands"},
	{ID: "setup", Title: "Set-up and sandbox"},
	{ID: "other", Title: "Help and shell"},
}

// groupOf places each command of the root in its group.
var groupOf = map[string]string{
	"balances": "service", "accounts": "service", "tickets": "service", "ticket": "service", "transfer": "service", "quote": "service",
	"approvals": "service", "beneficiaries": "service", "statement": "service", "webhooks": "service",
	"batch": "service", "api": "service", "access": "service", "apikey": "service",
	"profile": "setup", "keygen": "setup", "login": "setup", "logout": "setup", "sandbox": "setup",
	"version": "other", "completion": "other", "help": "other", "man": "other",
}

// groupCommands sorts the root's commands into helpGroups.
func groupCommands(root *cobra.Command) {
	root.AddGroup(helpGroups...)
	for _, c := range root.Commands() {
		if g, ok := groupOf[c.Name()]; ok {
			c.GroupID = g
		}
	}
	root.SetHelpCommandGroupID("other")
	root.SetCompletionCommandGroupID("other")
}

// helpOnce is the help of every command but the root: fang's page with the
// command's own flags, then the global flags named once, on one line; the
// root's help is where each is explained. (fang lists every inherited flag
// again with each command.)
func helpOnce(c *cobra.Command, args []string) {
	root := c.Root()
	var globals []string
	var hidden []*pflag.Flag
	root.PersistentFlags().VisitAll(func(fl *pflag.Flag) {
		if fl.Hidden {
			return
		}
		globals = append(globals, "--"+fl.Name)
		fl.Hidden = true
		hidden = append(hidden, fl)
	})
	defer func() {
		for _, fl := range hidden {
			fl.Hidden = false
		}
	}()
	if w := c.OutOrStdout(); !isTerminal(w) {
		// Completion commands write to stdout as is; their help is
		// trimmed as every other.
		c.SetOut(&trimWriter{w: w})
		defer c.SetOut(w)
	}
	root.HelpFunc()(c, args)
	if len(globals) == 0 {
		return
	}
	w := c.OutOrStdout()
	title := lipgloss.NewStyle()
	if isTerminal(w) {
		title = title.Bold(true).Foreground(fang.DefaultColorScheme(lipgloss.LightDark(true)).Title)
	}
	fmt.Fprintln(w, "  "+title.Render("GLOBAL FLAGS"))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "    "+strings.Join(globals, ", "))
	fmt.Fprintln(w, "    (before or after the command; tesouro --help says what each does)")
	fmt.Fprintln(w)
}

// setHelp gives every command but the root helpOnce.
func setHelp(c *cobra.Command) {
	for _, sub := range c.Commands() {
		sub.SetHelpFunc(helpOnce)
		setHelp(sub)
	}
}

// trimWriter drops the blanks at the end of each line: fang pads its help
// to the terminal's width, which only clutters a file or a pipe.
type trimWriter struct {
	w      io.Writer
	spaces int
}

func (t *trimWriter) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p))
	for _, b := range p {
		switch b {
		case ' ':
			t.spaces++
			continue
		case '\n':
			t.spaces = 0
		default:
			for ; t.spaces > 0; t.spaces-- {
				out = append(out, ' ')
			}
		}
		out = append(out, b)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
