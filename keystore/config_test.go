package keystore

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestConfigDirOrder(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TESOURO_CONFIG_DIR": "/a", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/a"},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/tesouro"},
		{map[string]string{"HOME": "/h"}, "/h/.config/tesouro"},
	}
	for _, tc := range cases {
		got, err := ConfigDir(env(tc.env))
		if err != nil || got != tc.want {
			t.Errorf("ConfigDir(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
	if got, _ := StateDir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); got != "/s/tesouro" {
		t.Errorf("StateDir with XDG_STATE_HOME = %q", got)
	}
	if got, _ := StateDir(env(map[string]string{"HOME": "/h"})); got != "/h/.local/state/tesouro" {
		t.Errorf("StateDir with HOME only = %q", got)
	}
}

func TestConfigSaveLoadRoundTripMode0600(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "tesouro")
	c, err := Load(dir)
	if err != nil || len(c.Profiles) != 0 {
		t.Fatalf("Load of a missing file = %+v, %v; want an empty config", c, err)
	}
	must(t, c.Put(Profile{Name: "prod", BaseURL: "https://api.example.com", Env: EnvProduction, Auth: AuthAPIKey,
		Email: "ops@example.com", SubAccount: "Treasury BR", ReadOnly: true}, false))
	must(t, c.Put(Profile{Name: "sb", BaseURL: "http://127.0.0.1:8443", Env: EnvSandbox, Auth: AuthJWT, Email: "j@example.com"}, false))
	must(t, c.Save(dir))

	path := filepath.Join(dir, ConfigFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("config.toml mode = %v, want 0600", fi.Mode().Perm())
	}
	if di, _ := os.Stat(dir); di.Mode().Perm() != 0o700 {
		t.Fatalf("config directory mode = %v, want 0700", di.Mode().Perm())
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Fatalf("round trip changed the config:\n got %+v\nwant %+v", got, c)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("Save left temporary files behind: %v", entries)
	}
	// Saving over a file that someone made world-readable makes it private again.
	must(t, os.Chmod(path, 0o644))
	must(t, got.Save(dir))
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("after re-save mode = %v, want 0600", fi.Mode().Perm())
	}
}

func TestLoadRefusesBrokenOrUnknownConfig(t *testing.T) {
	cases := map[string]string{
		"not toml":        "active = ",
		"unknown setting": "[[profile]]\nname='a'\nbase_url='https://x.io'\nenv='sandbox'\nauth='api-key'\napi_key='oops'\n",
		"bad env":         "[[profile]]\nname='a'\nbase_url='https://x.io'\nenv='prod'\nauth='api-key'\n",
		"http production": "[[profile]]\nname='a'\nbase_url='http://x.io'\nenv='production'\nauth='api-key'\n",
		"duplicate":       "[[profile]]\nname='a'\nbase_url='https://x.io'\nenv='sandbox'\nauth='api-key'\n[[profile]]\nname='a'\nbase_url='https://x.io'\nenv='sandbox'\nauth='api-key'\n",
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			must(t, os.WriteFile(filepath.Join(dir, ConfigFile), []byte(body), 0o600))
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), ConfigFile) {
				t.Fatalf("Load = %v, want an error naming the file", err)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
