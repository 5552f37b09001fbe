package main

import (
	"fmt"
	"path/filepath"

	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/ui"
)

// loadOverrides reads the [keys] and [theme] tables of config.toml, checks
// them against every screen's actions and installs them for the dashboard.
// Any mistake stops the start (exit 2) naming its line: a key silently
// ignored or bound twice would be found only when it fails to act.
func (c *app) loadOverrides() error {
	dir, cfg, err := c.loadConfig()
	if err != nil {
		return usagef("%v", err)
	}
	if len(cfg.Keys) == 0 && len(cfg.Theme) == 0 {
		return nil
	}
	path := filepath.Join(dir, keystore.ConfigFile)
	where := func(table, name string) string {
		if n := cfg.Line(table, name); n > 0 {
			return fmt.Sprintf("line %d of %s: [%s] %s", n, path, table, name)
		}
		return fmt.Sprintf("%s: [%s] %s", path, table, name)
	}
	keys := make(map[string][]string, len(cfg.Keys))
	for k, v := range cfg.Keys {
		keys[k] = v
	}
	o, err := ui.ParseOverrides(keys, cfg.Theme, where)
	if err != nil {
		return usagef("%v", err)
	}
	// The screens are built once, without a client, only to learn their
	// actions; none of them runs.
	if err := o.Check(screens(nil)); err != nil {
		return usagef("%v", err)
	}
	ui.SetOverrides(o)
	return nil
}
