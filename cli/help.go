package cli

import (
	"strings"

	"github.com/spf13/cobra"
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
