package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to dir/name, owner-only, through a temporary file
// renamed at the end, so that a file under the final name is always whole.
// It returns the path written.
func WriteFile(dir, name string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", fmt.Errorf("create a file in %s: %w", dir, err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", f.Name(), err)
	}
	path := filepath.Join(dir, name)
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return path, nil
}
