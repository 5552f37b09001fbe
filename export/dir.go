package export

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tesouro-treasury/tesouro/keystore"
)

// Dir is where an export goes: export_dir from config.toml ("~/" meaning
// the home directory), created if missing, else the current directory.
// The dashboard and the command line resolve it alike, so that an export
// is found in the same place whichever made it.
func Dir(getenv func(string) string) (string, error) {
	cdir, err := keystore.ConfigDir(getenv)
	if err != nil {
		return ".", nil
	}
	cfg, err := keystore.Load(cdir)
	if err != nil {
		return "", err
	}
	d := cfg.ExportDir
	if d == "" {
		return ".", nil
	}
	if home := getenv("HOME"); home != "" && strings.HasPrefix(d, "~/") {
		d = filepath.Join(home, d[2:])
	}
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("export_dir: %w", err)
	}
	return d, nil
}
