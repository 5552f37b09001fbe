package cli

import (
	"fmt"
	"path/filepath"

	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/ui"
)

// LoadOverrides reads the [keys] and [theme] tables of config.toml, checks
// them against every screen's actions and installs them for the dashboard.
// Any mistake stops the start (exit 2) naming its line: a key silently
// ignored or bound twice would be found only when it fails to act.
func (f *Factory) LoadOverrides() error {
	cfg, err := f.Config()
	if err != nil {
		return Usagef("%v", err)
	}
	if len(cfg.Keys) == 0 && len(cfg.Theme) == 0 {
		return nil
	}
	path := filepath.Join(cfg.Dir, keystore.ConfigFile)
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
		return Usagef("%v", err)
	}
	// The screens are built once, without a client, only to learn their
	// actions; none of them runs.
	if err := o.Check(f.Screens(nil)); err != nil {
		return Usagef("%v", err)
	}
	ui.SetOverrides(o)
	return nil
}
