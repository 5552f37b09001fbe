package cli

import (
	"context"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes. A signal ends the process with 128 + its number (130 for
// SIGINT, 143 for SIGTERM), as shells report it: main decides those.
const (
	exitOK      = 0
	exitRuntime = 1
	exitUsage   = 2
)

// ExitCode is the exit code of a command that returned err: 0, 2 for a
// usage mistake, 1 for anything else.
func ExitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case IsUsage(err):
		return exitUsage
	}
	return exitRuntime
}

// NewCmdRoot builds the whole command tree on f: the dashboard is the root
// itself, every other command hangs from it.
func NewCmdRoot(f *Factory) *cobra.Command {
	root := newCmdDashboard(f)
	pf := root.PersistentFlags()
	pf.StringVar(&f.G.Profile, "profile", "", "use profile NAME instead of the active one (or set TESOURO_PROFILE)")
	pf.StringVar(&f.G.SubAccount, "sub-account", "", "operate sub-account ID|NAME (default: the profile's, else the main account)")
	pf.BoolVar(&f.G.ReadOnly, "readonly", false, "no write action is possible (shown in the header)")
	pf.BoolVar(&f.G.Debug, "debug", false, "trace every HTTP exchange with headers and bodies, secrets redacted (dashboard: to a file in the state directory; commands: to stderr); also TESOURO_DEBUG=api")
	pf.BoolVar(&f.G.Sandbox, "sandbox", false, "use a fresh embedded sandbox")
	pf.StringVar(&f.G.As, "as", "", "demo access NAME for --sandbox or --credentials (default operator)")
	pf.StringVar(&f.G.Credentials, "credentials", "", "credentials FILE written by a running 'tesouro sandbox' (loopback only)")
	pf.DurationVar(&f.G.Timeout, "timeout", DefaultTimeout, "the command's overall DURATION for the service to answer, retries included (0: no limit; the dashboard and tesouro sandbox have none)")
	_ = root.RegisterFlagCompletionFunc("as", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return DemoAccesses, cobra.ShellCompDirectiveNoFileComp
	})
	_ = root.RegisterFlagCompletionFunc("profile", f.completeProfiles)
	_ = root.RegisterFlagCompletionFunc("sub-account", noFiles)
	_ = root.RegisterFlagCompletionFunc("timeout", fixed("30s", "60s", "5m", "0"))

	root.AddCommand(newCmdSandbox(f), newCmdProfile(f), newCmdKeygen(f), newCmdLogin(f), newCmdLogout(f), newCmdVersion(f), newCmdMan(f))
	root.AddCommand(scriptingCommands(f)...)
	root.SetFlagErrorFunc(flagError)
	root.SetHelpCommand(newCmdHelp(root))
	// cobra's completion command keeps the writer the root has when it is
	// made: the streams are set first, so that scripts go to f.Stdout as
	// generated.
	root.SetIn(f.Stdin)
	root.SetOut(f.Stdout)
	root.SetErr(f.Stderr)
	// The completion command cobra adds: a shell it does not know is a
	// usage mistake (it printed the help and exited 0).
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Args = cobra.ArbitraryArgs
		c.RunE = GroupRunE("bash, zsh, fish or powershell")
	}
	root.SetVersionTemplate("tesouro {{.Version}}\n")
	setVersion(root, f.Build.Line())
	groupCommands(root)
	setHelp(root)
	if !f.StdoutTTY() {
		// Help into a file or a pipe: no padding to the terminal's width.
		root.SetOut(&trimWriter{w: f.Stdout})
	}
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Example = "  tesouro completion bash > tesouro.bash\n  source tesouro.bash"
		for _, sh := range c.Commands() {
			sh.Example = map[string]string{
				"bash":       "  tesouro completion bash > tesouro.bash\n  tesouro completion bash --no-descriptions > tesouro.bash",
				"zsh":        "  tesouro completion zsh > _tesouro",
				"fish":       "  tesouro completion fish > tesouro.fish",
				"powershell": "  tesouro completion powershell > tesouro.ps1",
			}[sh.Name()]
		}
	}
	return root
}

// Execute runs the command tree on args with fang: its styled help and
// completions, our error handler (PrintError) and our manual (tesouro
// man); the version is ours too (--version on every command).
func (f *Factory) Execute(ctx context.Context, args []string) error {
	root := NewCmdRoot(f)
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		// Only a shell's completion request asks for the flags' values:
		// registering them walks every command's flags, 2 ms that
		// every other start (the dashboard's first frame) would pay.
		completeFlags(root)
	}
	root.SetArgs(args)
	return fang.Execute(ctx, root, fang.WithoutVersion(), fang.WithoutManpage(), fang.WithErrorHandler(f.PrintError))
}

// completeProfiles completes --profile with the configured profile names.
func (f *Factory) completeProfiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	cfg, err := f.Config()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := make([]string, len(cfg.Profiles))
	for i, p := range cfg.Profiles {
		names[i] = p.Name
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// flagChanged reports whether a flag was given on the command line.
func flagChanged(fs *pflag.FlagSet, name string) bool {
	fl := fs.Lookup(name)
	return fl != nil && fl.Changed
}
