package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Every boolean of Permissions is reached by its wire name, and setting
// it through Flag sets that very field.
func TestPermissionFlagReachesEveryField(t *testing.T) {
	typ := reflect.TypeOf(Permissions{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Bool {
			continue
		}
		name := f.Tag.Get("json")
		var p Permissions
		ptr := p.Flag(name)
		if ptr == nil {
			t.Errorf("Flag(%q) is nil", name)
			continue
		}
		*ptr = true
		b, _ := json.Marshal(p)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		for k, v := range m {
			if on, ok := v.(bool); ok && on != (k == name) {
				t.Errorf("Flag(%q) set %s", name, k)
			}
		}
	}
	if (&Permissions{}).Flag("nope") != nil {
		t.Error("an unknown name has a field")
	}
}
