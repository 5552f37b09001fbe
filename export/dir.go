package export

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tesouro-treasury/tesouro/keystore"
)

// Dir is where every export and receipt goes: export_dir from
// config.toml ("~/" meaning the home directory), else the exports folder
// of the state directory, created if missing; the current directory only
// when neither is known. The dashboard and the command line resolve it
// alike, so that an export is found in the same place whichever made it.
func Dir(getenv func(string) string) (string, error) {
	var d string
	if cdir, err := keystore.ConfigDir(getenv); err == nil {
		cfg, err := keystore.Load(cdir)
		if err != nil {
			return "", err
		}
		d = cfg.ExportDir
	}
	if d == "" {
		state, err := keystore.StateDir(getenv)
		if err != nil {
			return ".", nil
		}
		d = filepath.Join(state, "exports")
	}
	if home := getenv("HOME"); home != "" && strings.HasPrefix(d, "~/") {
		d = filepath.Join(home, d[2:])
	}
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("export_dir: %w", err)
	}
	return d, nil
}
