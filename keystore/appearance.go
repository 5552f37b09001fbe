package keystore

import (
	"bufio"
	"fmt"
	"strings"
)

// KeyList is the keys of one action in config.toml's [keys] table: one key
// ("ctrl+r") or several (["R", "f5"]).
type KeyList []string

// UnmarshalTOML accepts a string or an array of strings.
func (k *KeyList) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*k = KeyList{v}
		return nil
	case []any:
		out := make(KeyList, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("a key is a string such as \"ctrl+r\", not %v", e)
			}
			out = append(out, s)
		}
		*k = out
		return nil
	}
	return fmt.Errorf("give a key as a string (\"ctrl+r\") or a list of strings ([\"R\", \"f5\"]), not %v", v)
}

// Line is where a setting is written in config.toml (1-based), 0 when it
// is not there: errors about a setting name its line.
func (c *Config) Line(table, key string) int { return c.lines[table+"."+key] }

// settingLines finds, for each key of the [keys] and [theme] tables, the
// line it is written on. It reads just enough TOML for the flat [keys] and [theme]
// tables: headers and "key = value" lines, bare or quoted keys.
func settingLines(text string) map[string]int {
	var lines map[string]int // nil when the file has neither table
	table := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "[[") || strings.HasPrefix(l, "["):
			table = strings.Trim(strings.SplitN(l, "#", 2)[0], "[] \t")
			continue
		}
		k, _, ok := strings.Cut(l, "=")
		if !ok || table != "keys" && table != "theme" {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `"'`)
		if lines == nil {
			lines = map[string]int{}
		}
		if _, seen := lines[table+"."+k]; !seen {
			lines[table+"."+k] = n
		}
	}
	return lines
}
