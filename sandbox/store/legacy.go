package store

import (
	"encoding/json"
	"fmt"
	"os"
)

// Earlier sandboxes saved --state as one JSON document ({"version": 1,
// "accounts": [...]}), rewritten on every change. Such a file is refused,
// not imported: it was written without any guarantee (a kill could leave
// it seconds behind what was acknowledged, and nothing checked what it
// held), so carrying it into the database would pass off unchecked data as
// checked. Its demo data comes back from the same --seed; the message says
// so and how to keep the old file.

func isLegacyState(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var head struct {
		Version  *int            `json:"version"`
		Accounts json.RawMessage `json:"accounts"`
	}
	return json.Unmarshal(data, &head) == nil && head.Version != nil && head.Accounts != nil
}

func errLegacyState(path string) error {
	return fmt.Errorf("sandbox state %s is a JSON state file of an older tesouro; this sandbox keeps its state in a SQLite database and does not import it. "+
		"Keep it with `mv %s %s.json` (or name a new path with --state), then start again: the demo data is rebuilt from the same --seed", path, path, path)
}

func describeCheckError(path string, err error) error {
	if path == "" {
		return fmt.Errorf("sandbox database: %w", err)
	}
	return fmt.Errorf("sandbox state %s is refused: %w (fix it with sqlite3, or move it away to start afresh)", path, err)
}
