package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"
)

// apiFields are the -f and -F fields of tesouro api, as gh api takes them:
// -f key=value is a string; -F key=value is typed (true, false and null,
// numbers kept exact, @FILE the file's content, @- stdin's); key[]=value
// appends to an array and key[sub]=value sets a member of an object.
type apiFields struct {
	raw, typed []string
}

// field is one parsed field: where it goes (key and its path of [] and
// [sub] parts) and its JSON value.
type field struct {
	key  string
	path []string // "" for [], a name for [name]
	val  any
}

var fieldKey = regexp.MustCompile(`^([^\[\]]+)((?:\[[^\[\]]*\])*)$`)

// parse reads every field, -f ones first (in their order), then -F ones.
func (a apiFields) parse(stdin io.Reader) ([]field, error) {
	var out []field
	for _, kv := range a.raw {
		f, err := parseField("-f", kv)
		if err != nil {
			return nil, err
		}
		f.val = strings.SplitN(kv, "=", 2)[1]
		out = append(out, f)
	}
	for _, kv := range a.typed {
		f, err := parseField("-F", kv)
		if err != nil {
			return nil, err
		}
		if f.val, err = typedValue(strings.SplitN(kv, "=", 2)[1], stdin); err != nil {
			return nil, Usagef("-F %s: %v", kv, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseField(flag, kv string) (field, error) {
	k, _, ok := strings.Cut(kv, "=")
	m := fieldKey.FindStringSubmatch(k)
	if !ok || m == nil {
		return field{}, Usagef("%s %q: give key=value (key[]=value appends to an array, key[name]=value sets a member)", flag, kv)
	}
	f := field{key: m[1]}
	for _, p := range strings.SplitAfter(m[2], "]") {
		if p != "" {
			f.path = append(f.path, strings.TrimSuffix(strings.TrimPrefix(p, "["), "]"))
		}
	}
	return f, nil
}

// typedValue is the JSON value of a -F field.
func typedValue(v string, stdin io.Reader) (any, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if name, ok := strings.CutPrefix(v, "@"); ok {
		var b []byte
		var err error
		if name == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(name)
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", v, err)
		}
		return string(b), nil
	}
	// A number keeps its exact digits: an amount is never rounded through
	// a float.
	var n json.Number
	if json.Unmarshal([]byte(v), &n) == nil {
		return n, nil
	}
	return v, nil
}

// body builds the JSON object the fields describe.
func body(fields []field) (map[string]any, error) {
	obj := map[string]any{}
	for _, f := range fields {
		if err := set(obj, f.key, f.path, f.val); err != nil {
			return nil, err
		}
	}
	return obj, nil
}

// set puts v at key and path inside obj, making arrays and objects on the way.
func set(obj map[string]any, key string, path []string, v any) error {
	if len(path) == 0 {
		obj[key] = v
		return nil
	}
	if path[0] == "" {
		arr, _ := obj[key].([]any)
		if _, isArr := obj[key].([]any); obj[key] != nil && !isArr {
			return Usagef("field %s[] is an array, but %s is already set to something else", key, key)
		}
		if len(path) == 1 {
			obj[key] = append(arr, v)
			return nil
		}
		// key[][name]=v: a member of the array's last object, or of a new
		// one when the last already has that member.
		var last map[string]any
		if n := len(arr); n > 0 {
			last, _ = arr[n-1].(map[string]any)
		}
		if last == nil || hasPath(last, path[1:]) {
			last = map[string]any{}
			arr = append(arr, last)
		}
		obj[key] = arr
		return set(last, path[1], path[2:], v)
	}
	inner, ok := obj[key].(map[string]any)
	if !ok {
		if obj[key] != nil {
			return Usagef("field %s[%s] sets a member, but %s is already set to something else", key, path[0], key)
		}
		inner = map[string]any{}
		obj[key] = inner
	}
	return set(inner, path[0], path[1:], v)
}

func hasPath(obj map[string]any, path []string) bool {
	v, ok := obj[path[0]]
	if !ok || len(path) == 1 {
		return ok
	}
	inner, isObj := v.(map[string]any)
	return isObj && hasPath(inner, path[1:])
}

// query adds the fields to a GET's query: an array's values repeat the
// key; objects cannot be a query.
func queryFields(q url.Values, fields []field) error {
	for _, f := range fields {
		if len(f.path) > 1 || (len(f.path) == 1 && f.path[0] != "") {
			return Usagef("field %s[%s]: a GET's fields are its query, which holds no objects", f.key, f.path[0])
		}
		s := ""
		switch v := f.val.(type) {
		case nil:
		case string:
			s = v
		default:
			s = fmt.Sprint(v)
		}
		q.Add(f.key, s)
	}
	return nil
}
