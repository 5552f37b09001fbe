package team

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

func TestRaisedNamesEveryGrantAndLiftedRestriction(t *testing.T) {
	from := records.Permissions{PayIn: true, ViewOnly: true, EnforceAllowedBeneficiaries: true}
	if got := raised(from, records.Permissions{PayIn: true, ViewOnly: true, EnforceAllowedBeneficiaries: true}); len(got) != 0 {
		t.Errorf("the same flags raised %v", got)
	}
	if got := raised(from, records.Permissions{ViewOnly: true, EnforceAllowedBeneficiaries: true}); len(got) != 0 {
		t.Errorf("giving up payIn raised %v", got)
	}
	got := raised(from, records.Permissions{PayIn: true, PayOut: true, ManageAccesses: true})
	for _, want := range []string{"payOut", "manageAccesses", "viewOnly lifted", "enforceAllowedBeneficiaries lifted"} {
		if !slices.Contains(got, want) {
			t.Errorf("raised = %v, lacks %s", got, want)
		}
	}
}

func TestAllowList(t *testing.T) {
	clean, nets, err := parseAllowList([]string{" 203.0.113.7 ", "10.1.2.3/8", "2001:db8::/32"})
	if err != nil || len(clean) != 3 || clean[0] != "203.0.113.7" {
		t.Fatalf("parse = %v, %v", clean, err)
	}
	k := &Key{IPs: clean, nets: nets}
	for ip, want := range map[string]bool{
		"203.0.113.7": true, "::ffff:203.0.113.7": true, "203.0.113.8": false,
		"10.200.0.1": true, "11.0.0.1": false, "2001:db8::1": true, "2001:db9::1": false,
	} {
		if got := k.Allows(netip.MustParseAddr(ip)); got != want {
			t.Errorf("Allows(%s) = %v, want %v", ip, got, want)
		}
	}
	if !(&Key{}).Allows(netip.MustParseAddr("198.51.100.1")) {
		t.Error("an empty allow-list refused an IP")
	}
	for _, bad := range [][]string{{"10.0.0.300"}, {""}, {"10.0.0.0/33"}, {"host.example"}} {
		if _, _, err := parseAllowList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	many := make([]string, MaxAllowList+1)
	for i := range many {
		many[i] = "10.0.0.1"
	}
	if _, _, err := parseAllowList(many); err == nil {
		t.Error("an allow-list over the limit accepted")
	}
}

func TestPasswordRule(t *testing.T) {
	for pw, ok := range map[string]bool{"abc12345": true, "short1": false, "lettersonly": false, "12345678": false} {
		if err := checkNewPassword("password", pw, "confirmPassword", pw); (err == nil) != ok {
			t.Errorf("%q: %v", pw, err)
		}
	}
	if checkNewPassword("password", "abc12345", "confirmPassword", "abc12346") == nil {
		t.Error("a confirmation that differs accepted")
	}
}
