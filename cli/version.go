package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Build names a binary. Release builds set its parts with -ldflags (see
// main.go); those left empty come from the build info Go embeds (go
// install module@version records the version; a build in a git checkout
// the commit and its time).
type Build struct {
	Version, Commit, Date string
}

// resolved returns the version, commit and date of this binary.
func (b Build) resolved() (v, c, d string) {
	v, c, d = b.Version, b.Commit, b.Date
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && c == "":
				c = s.Value
			case s.Key == "vcs.time" && d == "":
				d = s.Value
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	if len(c) > 12 {
		c = c[:12]
	}
	return v, c, d
}

// Line is what --version and "tesouro version" print after the program
// name: "1.2.0 (commit abc1234, built 2026-01-14T09:30:00Z)".
func (b Build) Line() string {
	v, c, d := b.resolved()
	switch {
	case c != "" && d != "":
		return fmt.Sprintf("%s (commit %s, built %s)", v, c, d)
	case c != "":
		return fmt.Sprintf("%s (commit %s)", v, c)
	case d != "":
		return fmt.Sprintf("%s (built %s)", v, d)
	}
	return v
}

// UserAgent names this build to the service.
func (b Build) UserAgent() string {
	v, _, _ := b.resolved()
	return "github.com/tesouro-treasury/tesouro/" + v
}

func newCmdVersion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date",
		Example: `  tesouro version`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(f.Stdout, "tesouro", f.Build.Line())
			return nil
		},
	}
}

// setVersion gives every command --version: cobra only adds the flag to
// commands whose Version is set.
func setVersion(cmd *cobra.Command, v string) {
	cmd.Version = v
	for _, sub := range cmd.Commands() {
		setVersion(sub, v)
	}
}
