package beneficiaries

import (
	"strings"
	"testing"
)

func TestWalletAddressFollowsTheChain(t *testing.T) {
	chain := func(c string) func(string) string {
		return func(k string) string {
			if k == "walletChain" {
				return c
			}
			return ""
		}
	}
	cases := []struct {
		chain, addr, want, err string
	}{
		{"POLYGON", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", ""},
		{"BASE", "0xD1220A0CF47C7B9BE7A2E6BA89F429762E7B9ADB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", ""},
		{"CELO", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "", "checksum"},
		{"TRON", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", ""},
		{"TRON", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u", "", "checksum"},
		{"TRON", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", "starts with"},
		{"TRON", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60", "", "base58"},
	}
	for _, c := range cases {
		got, hint, err := checkWalletAddress(c.addr, chain(c.chain))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %s: error %v, want one about %q", c.chain, c.addr, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s %s: got %q %v, want %q", c.chain, c.addr, got, err, c.want)
		case c.err == "" && c.chain != "TRON" && !strings.Contains(hint, c.want):
			t.Errorf("%s %s: hint %q does not show the checksummed form", c.chain, c.addr, hint)
		}
	}
}

func TestBankCodeIsCOMPEOrISPB(t *testing.T) {
	for in, ok := range map[string]bool{"341": true, "00000000": true, "1234": false, "12": false, "60-701-190": true} {
		_, _, err := checkBankCode(in, nil)
		if (err == nil) != ok {
			t.Errorf("%q: err %v, want ok=%v", in, err, ok)
		}
	}
}
