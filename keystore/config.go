package keystore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// ConfigFile is the name of the profiles file inside the config directory.
const ConfigFile = "config.toml"

// ConfigDir is where config.toml lives: $TESOURO_CONFIG_DIR, else
// $XDG_CONFIG_HOME/tesouro, else ~/.config/tesouro.
func ConfigDir(getenv func(string) string) (string, error) {
	if d := getenv("TESOURO_CONFIG_DIR"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "tesouro"), nil
	}
	home, err := homeDir(getenv)
	if err != nil {
		return "", fmt.Errorf("cannot find the config directory: %w; set TESOURO_CONFIG_DIR", err)
	}
	return filepath.Join(home, ".config", "tesouro"), nil
}

// StateDir is where logs, the journal and exports go: $XDG_STATE_HOME/tesouro,
// else ~/.local/state/tesouro.
func StateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "tesouro"), nil
	}
	home, err := homeDir(getenv)
	if err != nil {
		return "", fmt.Errorf("cannot find the state directory: %w; set XDG_STATE_HOME", err)
	}
	return filepath.Join(home, ".local", "state", "tesouro"), nil
}

func homeDir(getenv func(string) string) (string, error) {
	if h := getenv("HOME"); h != "" {
		return h, nil
	}
	return os.UserHomeDir()
}

// Load reads dir/config.toml. A missing file is an empty config.
func Load(dir string) (*Config, error) {
	path := filepath.Join(dir, ConfigFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var c Config
	md, err := toml.Decode(string(b), &c)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid TOML: %w; fix or delete the file", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown setting %q: remove it (see \"tesouro profile --help\")", path, und[0].String())
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.lines = settingLines(string(b))
	return &c, nil
}

// Save writes dir/config.toml with mode 0600, atomically: a reader sees the
// old file or the new one, never half of it.
func (c *Config) Save(dir string) error {
	if err := c.validate(); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString("# Tesouro profiles. No secret is ever stored here: they live in the OS keyring\n# under the service \"tesouro:<profile>\". Edit with \"tesouro profile ...\".\n\n")
	if err := toml.NewEncoder(&buf).Encode(c); err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create config directory: %w", err)
	}
	return writeFileAtomic(filepath.Join(dir, ConfigFile), buf.Bytes())
}

func writeFileAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// CreateTemp already uses 0600; Chmod makes it independent of that detail.
	if err = f.Chmod(0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
