package keystore

import (
	"errors"
	"strings"
	"testing"
)

func validProfile(name string) Profile {
	return Profile{Name: name, BaseURL: "https://api.example.com", Env: EnvProduction, Auth: AuthAPIKey}
}

func TestProfileValidateRefusesUnsafeOrIncomplete(t *testing.T) {
	cases := []struct {
		name    string
		mutate  func(*Profile)
		wantErr string // "" means valid
	}{
		{"production https", func(p *Profile) {}, ""},
		{"sandbox on loopback http", func(p *Profile) { p.Env = EnvSandbox; p.BaseURL = "http://127.0.0.1:8443" }, ""},
		{"sandbox on localhost http", func(p *Profile) { p.Env = EnvSandbox; p.BaseURL = "http://localhost:8443/" }, ""},
		{"sandbox on ipv6 loopback", func(p *Profile) { p.Env = EnvSandbox; p.BaseURL = "http://[::1]:8443" }, ""},
		{"production plain http even on loopback", func(p *Profile) { p.BaseURL = "http://127.0.0.1:8443" }, "production profile must use https"},
		{"sandbox plain http over the network", func(p *Profile) { p.Env = EnvSandbox; p.BaseURL = "http://sandbox.example.com" }, "non-local host"},
		{"no scheme", func(p *Profile) { p.BaseURL = "api.example.com" }, "not an http(s) address"},
		{"ftp", func(p *Profile) { p.BaseURL = "ftp://api.example.com" }, "not an http(s) address"},
		{"query", func(p *Profile) { p.BaseURL = "https://api.example.com/?k=1" }, "query"},
		{"credentials in url", func(p *Profile) { p.BaseURL = "https://me:pw@api.example.com" }, "user name"},
		{"unknown env", func(p *Profile) { p.Env = "staging" }, "not sandbox or production"},
		{"unknown auth", func(p *Profile) { p.Auth = "basic" }, "not api-key or jwt"},
		{"jwt without email", func(p *Profile) { p.Auth = AuthJWT }, "e-mail"},
		{"bad name", func(p *Profile) { p.Name = "my prod" }, "may only hold"},
		{"name starting with dash", func(p *Profile) { p.Name = "-x" }, "may only hold"},
		{"empty name", func(p *Profile) { p.Name = "" }, "empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := validProfile("prod")
			tc.mutate(&p)
			err := p.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestLookupActiveUnknownAndNone(t *testing.T) {
	var c Config
	if _, err := c.Lookup(""); !errors.Is(err, ErrNoProfile) {
		t.Fatalf("empty config: Lookup(\"\") = %v, want ErrNoProfile", err)
	}
	if err := c.Put(validProfile("prod"), false); err != nil {
		t.Fatal(err)
	}
	if c.Active != "prod" {
		t.Fatalf("first profile added is not active: Active = %q", c.Active)
	}
	sb := Profile{Name: "sb", BaseURL: "http://127.0.0.1:1", Env: EnvSandbox, Auth: AuthJWT, Email: "a@b.co"}
	if err := c.Put(sb, false); err != nil {
		t.Fatal(err)
	}
	if c.Active != "prod" {
		t.Fatalf("adding a second profile changed the active one to %q", c.Active)
	}
	p, err := c.Lookup("")
	if err != nil || p.Name != "prod" {
		t.Fatalf("Lookup(\"\") = %v, %v; want the active profile prod", p.Name, err)
	}
	if p, err = c.Lookup("sb"); err != nil || p.Email != "a@b.co" {
		t.Fatalf("Lookup(sb) = %+v, %v", p, err)
	}
	_, err = c.Lookup("prdo")
	if !errors.Is(err, ErrUnknownProfile) || errors.Is(err, ErrNoProfile) {
		t.Fatalf("a mistyped name must be ErrUnknownProfile and never ErrNoProfile (which falls back to the sandbox): %v", err)
	}
	if err := c.Put(validProfile("prod"), false); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("adding a duplicate: %v", err)
	}
	if err := c.Remove("prod"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Lookup(""); !errors.Is(err, ErrNoProfile) || !strings.Contains(err.Error(), "profile use") {
		t.Fatalf("after removing the active profile: %v, want ErrNoProfile telling to run profile use", err)
	}
	if err := c.Use("nope"); !errors.Is(err, ErrUnknownProfile) {
		t.Fatalf("Use(nope) = %v", err)
	}
	if err := c.Use("sb"); err != nil || c.Active != "sb" {
		t.Fatalf("Use(sb) = %v, active %q", err, c.Active)
	}
}
