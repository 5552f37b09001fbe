package validate

import (
	"strings"
	"testing"
)

func TestTronAddress(t *testing.T) {
	// The USDT contract on TRON, a well-known valid address.
	const ok = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
	if err := TronAddress(ok); err != nil {
		t.Errorf("%s: %v", ok, err)
	}
	if addr, _, err := ChainAddress("tron", " "+ok+" "); err != nil || addr != ok {
		t.Errorf("ChainAddress(tron) = %q, %v", addr, err)
	}
	for in, msg := range map[string]string{
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u":         "checksum",
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6":          "34 characters",
		"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60":         "base58",
		"0x52908400098527886E0F7030069857D2E4169EE7": "starts with",
	} {
		if err := TronAddress(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("TronAddress(%s) = %v, want %q", in, err, msg)
		}
	}
	if addr, _, err := ChainAddress("POLYGON", "0x52908400098527886e0f7030069857d2e4169ee7"); err != nil || addr != "0x52908400098527886E0F7030069857D2E4169EE7" {
		t.Errorf("ChainAddress(POLYGON) = %q, %v", addr, err)
	}
}
