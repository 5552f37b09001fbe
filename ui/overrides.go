package ui

import (
	"fmt"
	"image/color"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// Overrides are the user's key bindings and colours from config.toml.
// Actions are named after what their binding's help says ("refresh",
// "export CSV" is export-csv), so one name rebinds that action on every
// screen that has it; colours are named by role (ThemeRoles).
//
// They are installed once, before the dashboard builds anything
// (SetOverrides): Binding and NewTheme read them, so no screen needs to know.
type Overrides struct {
	keys   map[string][]string
	colors map[string]color.Color
	// where names a setting for an error ("config.toml line 12: [keys] refresh").
	where func(table, name string) string
}

// ThemeRoles are the colours a theme can be given, by role.
var ThemeRoles = []string{"text", "muted", "accent", "sandbox", "danger", "good", "warn", "info", "subtle", "on-badge"}

// fixedActions cannot be rebound: ctrl+c always quits, and the number keys
// always select screens.
var fixedActions = map[string]string{"quit-now": "ctrl+c always quits", "go-to-screen": "the number keys always select screens"}

var installed atomic.Pointer[Overrides]

// SetOverrides installs o (nil: none) for the bindings and themes built
// from now on, and returns a function that puts back the previous ones.
func SetOverrides(o *Overrides) (restore func()) {
	prev := installed.Swap(o)
	return func() { installed.Store(prev) }
}

// ActionName is the name an action is rebound by in config.toml: its help
// text in lower case, words joined by "-".
func ActionName(desc string) string {
	f := strings.FieldsFunc(strings.ToLower(desc), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	return strings.Join(f, "-")
}

// rebind gives a binding the user's keys for its action, if any.
func (o *Overrides) rebind(help, desc string, keys []string) (string, []string) {
	if o == nil {
		return help, keys
	}
	if k, ok := o.keys[ActionName(desc)]; ok {
		return strings.Join(k, "/"), k
	}
	return help, keys
}

// color is the user's colour for role, else def.
func (o *Overrides) color(role string, def color.Color) color.Color {
	if o == nil {
		return def
	}
	if c, ok := o.colors[role]; ok {
		return c
	}
	return def
}

var (
	namedKeys = []string{"enter", "esc", "tab", "space", "backspace", "delete", "insert", "up", "down", "left", "right",
		"home", "end", "pgup", "pgdown", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12"}
	modifiers = []string{"ctrl", "alt", "shift"}
	colorRe   = regexp.MustCompile(`^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[0-9]{1,3})$`)
)

// validKey reports whether k is written as the terminal reports keys:
// modifiers then a key, "ctrl+r", "shift+tab", "G", "f5".
func validKey(k string) bool {
	if k == "+" {
		return true
	}
	parts := strings.Split(k, "+")
	last := parts[len(parts)-1]
	for _, m := range parts[:len(parts)-1] {
		if !slices.Contains(modifiers, m) {
			return false
		}
	}
	r := []rune(last)
	return slices.Contains(namedKeys, last) || len(r) == 1 && r[0] > ' ' && r[0] != 0x7f
}

// ParseOverrides checks the [keys] and [theme] tables as far as they can be
// checked without the screens: key and colour syntax, roles, fixed actions.
// where names a setting in errors. Check then checks the action names and
// the keys against the screens (one key may serve actions of different
// screens: refresh and reload never meet).
func ParseOverrides(keys map[string][]string, theme map[string]string, where func(table, name string) string) (*Overrides, error) {
	o := &Overrides{keys: map[string][]string{}, colors: map[string]color.Color{}, where: where}
	for _, name := range slices.Sorted(maps.Keys(keys)) {
		ks := keys[name]
		if why, ok := fixedActions[name]; ok {
			return nil, fmt.Errorf("%s: %s cannot be rebound (%s)", where("keys", name), name, why)
		}
		if len(ks) == 0 {
			return nil, fmt.Errorf("%s: give at least one key (such as \"ctrl+r\")", where("keys", name))
		}
		for _, k := range ks {
			if !validKey(k) {
				return nil, fmt.Errorf("%s: %q is not a key: write one character (\"R\"), a named key (%s) or modifiers and a key (\"ctrl+r\")",
					where("keys", name), k, strings.Join(namedKeys[:6], ", ")+", ...")
			}
			if k == "ctrl+c" || len(k) == 1 && k[0] >= '0' && k[0] <= '9' {
				return nil, fmt.Errorf("%s: %q is reserved (ctrl+c quits, the digits select screens)", where("keys", name), k)
			}
		}
		o.keys[name] = slices.Clone(ks)
	}
	for _, role := range slices.Sorted(maps.Keys(theme)) {
		v := strings.TrimSpace(theme[role])
		if !slices.Contains(ThemeRoles, role) {
			return nil, fmt.Errorf("%s: no colour role is called %q; the roles are %s", where("theme", role), role, strings.Join(ThemeRoles, ", "))
		}
		n, _ := strconv.Atoi(v) // an ANSI colour number, when v is one
		if !colorRe.MatchString(v) || len(v) <= 3 && v[0] != '#' && n > 255 {
			return nil, fmt.Errorf("%s: %q is not a colour: write \"#rrggbb\", \"#rgb\" or an ANSI number 0-255", where("theme", role), v)
		}
		o.colors[role] = lipgloss.Color(v)
	}
	return o, nil
}

// made is one binding recorded while the screens are built for Check.
type made struct {
	name string
	keys []string
}

// recorder collects the bindings Binding makes while Check builds the
// screens; it is off the rest of the time.
var recorder struct {
	sync.Mutex
	on   bool
	made []made
}

func record(desc string, keys []string) {
	recorder.Lock()
	defer recorder.Unlock()
	if recorder.on {
		recorder.made = append(recorder.made, made{ActionName(desc), keys})
	}
}

// scope is the bindings made while one screen was built ("" the global
// keys).
type scope struct {
	id       string
	bindings []made
}

// scopes builds every screen once with the overrides installed and records
// the bindings each makes; the global keys are in every screen's scope.
func (o *Overrides) scopes(factories []Factory) []scope {
	restore := SetOverrides(o)
	defer restore()
	collect := func(build func()) []made {
		recorder.Lock()
		recorder.on, recorder.made = true, nil
		recorder.Unlock()
		build()
		recorder.Lock()
		defer recorder.Unlock()
		recorder.on = false
		return recorder.made
	}
	global := collect(func() { DefaultGlobalKeys() })
	s := &Session{Env: EnvSandbox, Theme: NewTheme(true, false)}
	out := []scope{{"", global}}
	for _, f := range factories {
		bs := collect(func() {
			// A screen that cannot be built without a live session only
			// loses the check of its own actions, never the dashboard.
			defer func() { _ = recover() }()
			f.New(s)
		})
		out = append(out, scope{f.ID, append(slices.Clone(global), bs...)})
	}
	return out
}

// Actions are the dashboard's action names with their default keys, by
// screen ("" the global keys): what [keys] in config.toml may rebind.
func Actions(factories []Factory) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	scopes := (*Overrides)(nil).scopes(factories)
	nGlobal := len(scopes[0].bindings)
	for i, sc := range scopes {
		m := map[string][]string{}
		for j, b := range sc.bindings {
			if i > 0 && j < nGlobal {
				continue // the global keys, listed once
			}
			if _, fixed := fixedActions[b.name]; !fixed {
				m[b.name] = append(m[b.name], b.keys...)
			}
		}
		out[sc.id] = m
	}
	return out
}

// Check builds every screen once, with the overrides installed, to learn
// each screen's actions: an action name no screen has, or a key that two
// actions of one screen (or a screen and the global keys) would share
// because of an override, is an error naming its setting.
func (o *Overrides) Check(factories []Factory) error {
	scopes := o.scopes(factories)
	known := map[string]bool{}
	for i, sc := range scopes {
		for _, b := range sc.bindings {
			known[b.name] = true
		}
		if i == 0 {
			sc.id = "the global keys"
		} else {
			sc.id = "the " + sc.id + " screen"
		}
		scopes[i] = sc
	}
	for _, name := range slices.Sorted(maps.Keys(o.keys)) {
		if !known[name] {
			near := nearest(name, known)
			return fmt.Errorf("%s: no action is called %q%s (actions are named after their help: \"export CSV\" is export-csv)", o.where("keys", name), name, near)
		}
	}
	for _, sc := range scopes {
		for i, a := range sc.bindings {
			for _, b := range sc.bindings[i+1:] {
				_, ao := o.keys[a.name]
				_, bo := o.keys[b.name]
				if !ao && !bo || a.name == b.name && ao {
					continue
				}
				for _, k := range a.keys {
					if slices.Contains(b.keys, k) {
						name := b.name
						if ao {
							name = a.name
						}
						return fmt.Errorf("%s: %q is bound twice on %s: to %s and to %s", o.where("keys", name), k, sc.id, a.name, b.name)
					}
				}
			}
		}
	}
	return nil
}

// nearest suggests a known action close to name.
func nearest(name string, known map[string]bool) string {
	for _, k := range slices.Sorted(maps.Keys(known)) {
		if strings.Contains(k, name) || strings.Contains(name, k) {
			return fmt.Sprintf("; did you mean %q?", k)
		}
	}
	return ""
}

// newBinding makes a binding with the user's keys for its action.
func newBinding(help, desc string, keys []string) key.Binding {
	help, keys = installed.Load().rebind(help, desc, keys)
	record(desc, keys)
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}
