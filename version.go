package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version, commit and date are set by release builds:
// -ldflags "-X main.version=1.2.0 -X main.commit=abc1234 -X main.date=2026-01-14T09:30:00Z".
// Left empty, they come from the build info Go embeds (go install
// module@version records the version; a build in a git checkout the commit
// and its time).
var version, commit, date string

// buildInfo returns the version, commit and date of this binary.
func buildInfo() (v, c, d string) {
	v, c, d = version, commit, date
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

// versionLine is what --version and "tesouro version" print after the
// program name: "1.2.0 (commit abc1234, built 2026-01-14T09:30:00Z)".
func versionLine() string {
	v, c, d := buildInfo()
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

// userAgent names this build to the service.
func userAgent() string {
	v, _, _ := buildInfo()
	return "github.com/tesouro-treasury/tesouro/" + v
}

func (c *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(c.stdout, "tesouro", versionLine())
			return nil
		},
	}
}
